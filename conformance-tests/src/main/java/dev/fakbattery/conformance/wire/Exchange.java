package dev.fakbattery.conformance.wire;

import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.ChatResponse;
import dev.fakbattery.wire.ChunkChoice;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.ToolCall;
import dev.fakbattery.wire.ToolCallAssembler;
import dev.fakbattery.wire.WireJson;

/**
 * One request's answer as the client saw it, read the same way whether it came from the gateway
 * or straight from a fixture: status, raw bytes, and for streams every event with its arrival time.
 */
final class Exchange {

	/** A tool call as delivered: one shape for both modes. */
	record Call(String id, String name, String arguments, Integer index) {
	}

	/** An SSE event and when it arrived (nanoTime). */
	record Timed(SseEvent event, long arrivedNanos) {
	}

	final int status;
	final HttpHeaders headers;
	final String body;
	final boolean stream;
	final List<Timed> events;
	final boolean sawDone;
	final long startedNanos;
	final long endedNanos;

	Exchange(int status, HttpHeaders headers, String body, boolean stream, List<Timed> events, boolean sawDone, long startedNanos,
			long endedNanos) {
		this.status = status;
		this.headers = headers;
		this.body = body;
		this.stream = stream;
		this.events = List.copyOf(events);
		this.sawDone = sawDone;
		this.startedNanos = startedNanos;
		this.endedNanos = endedNanos;
	}

	/** A recorded answer (a fixture) read exactly as the client reads a live one. */
	static Exchange of(String body, boolean stream) {
		List<Timed> events = new ArrayList<>();
		boolean done = false;
		if (stream) {
			try (var reader = new dev.fakbattery.wire.SseReader(
					new java.io.ByteArrayInputStream(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)))) {
				for (Optional<SseEvent> e = reader.next(); e.isPresent(); e = reader.next()) {
					events.add(new Timed(e.get(), 0));
				}
				done = reader.sawDone();
			}
			catch (java.io.IOException e) {
				throw new java.io.UncheckedIOException(e);
			}
		}
		return new Exchange(200, null, body, stream, events, done, 0, 0);
	}

	/** The JSON body of a non-stream answer, if it is JSON. */
	Optional<ObjectNode> json() {
		return stream ? Optional.empty() : WireJson.read(body).filter(JsonNode::isObject).map(ObjectNode.class::cast);
	}

	List<ChatChunk> chunks() {
		List<ChatChunk> chunks = new ArrayList<>();
		for (Timed t : events) {
			if (t.event().kind() == SseEvent.Kind.DATA && t.event().event().isEmpty() && t.event().json().isPresent()) {
				chunks.add(t.event().chunk());
			}
		}
		return chunks;
	}

	List<SseEvent> errorFrames() {
		return events.stream().map(Timed::event).filter(SseEvent::isError).toList();
	}

	/** The chunk objects of a stream, in order, as sent. */
	List<ObjectNode> chunkNodes() {
		return chunks().stream().map(ChatChunk::node).toList();
	}

	/** Whether the answer is an error: a status other than 200, a stream that carried an error frame. */
	boolean isError() {
		return status != 200 || !errorFrames().isEmpty();
	}

	/** Tool calls delivered on choice 0, in order. For streams, the calls the deltas assemble to. */
	List<Call> calls() {
		if (stream) {
			return assembled().calls(0).stream().map(Exchange::call).toList();
		}
		return json().map(ChatResponse::of)
				.filter(r -> !r.choices().isEmpty())
				.map(r -> r.choices().get(0).message().toolCalls().stream().map(Exchange::call).toList())
				.orElse(List.of());
	}

	/** What a stream's tool-call deltas broke (a delta after the finish, a renamed call); none for a whole body. */
	List<String> violations() {
		return stream ? assembled().violations() : List.of();
	}

	private ToolCallAssembler assembled() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		chunks().forEach(assembler::accept);
		return assembler;
	}

	/** Reasoning text ({@code reasoning} or {@code reasoning_content}) on choice 0, joined. */
	String reasoning() {
		if (stream) {
			StringBuilder reasoning = new StringBuilder();
			chunks().forEach(c -> c.choices().forEach(ch -> ch.delta().reasoning().ifPresent(reasoning::append)));
			return reasoning.toString();
		}
		return json().map(ChatResponse::of)
				.filter(r -> !r.choices().isEmpty())
				.flatMap(r -> r.choices().get(0).message().reasoning())
				.orElse("");
	}

	/** Tool-call deltas seen anywhere in a stream, complete or not. */
	List<ToolCall> toolCallDeltas() {
		List<ToolCall> deltas = new ArrayList<>();
		for (ChatChunk chunk : chunks()) {
			for (ChunkChoice choice : chunk.choices()) {
				deltas.addAll(choice.toolCalls());
			}
		}
		return deltas;
	}

	String content() {
		if (stream) {
			StringBuilder content = new StringBuilder();
			chunks().forEach(c -> c.choices().forEach(ch -> ch.delta().content().ifPresent(content::append)));
			return content.toString();
		}
		return json().map(ChatResponse::of)
				.filter(r -> !r.choices().isEmpty())
				.flatMap(r -> r.choices().get(0).message().content())
				.orElse("");
	}

	Optional<String> finishReason() {
		if (stream) {
			Optional<String> last = Optional.empty();
			for (ChatChunk chunk : chunks()) {
				for (ChunkChoice choice : chunk.choices()) {
					if (choice.finishReason().isPresent()) {
						last = choice.finishReason();
					}
				}
			}
			return last;
		}
		return json().map(ChatResponse::of).filter(r -> !r.choices().isEmpty()).flatMap(r -> r.choices().get(0).finishReason());
	}

	Optional<ObjectNode> usage() {
		if (stream) {
			Optional<ObjectNode> usage = Optional.empty();
			for (ChatChunk chunk : chunks()) {
				if (chunk.usage().isPresent()) {
					usage = chunk.usage();
				}
			}
			return usage;
		}
		return json().map(ChatResponse::of).flatMap(ChatResponse::usage);
	}

	Optional<String> model() {
		if (stream) {
			return chunks().stream().findFirst().flatMap(ChatChunk::model);
		}
		return json().map(ChatResponse::of).flatMap(ChatResponse::model);
	}

	/** The {@code model} of every chunk (a stream) or of the body, in order; absent ones as {@code <none>}. */
	List<String> models() {
		if (stream) {
			return chunks().stream().map(c -> c.model().orElse("<none>")).toList();
		}
		return List.of(model().orElse("<none>"));
	}

	/** The arrival time of the first chunk carrying content text, or of the first tool-call delta. */
	Optional<Long> firstTokenNanos() {
		for (Timed t : events) {
			if (t.event().kind() != SseEvent.Kind.DATA || t.event().json().isEmpty() || t.event().event().isPresent()) {
				continue;
			}
			for (ChunkChoice choice : t.event().chunk().choices()) {
				if (choice.delta().content().filter(c -> !c.isEmpty()).isPresent() || !choice.toolCalls().isEmpty()) {
					return Optional.of(t.arrivedNanos());
				}
			}
		}
		return Optional.empty();
	}

	private static Call call(AssembledToolCall c) {
		return new Call(c.id().orElse(null), c.name().orElse(null), c.arguments(), c.index());
	}

	private static Call call(ToolCall c) {
		return new Call(c.id().orElse(null), c.name().orElse(null), c.arguments().orElse(null),
				c.index().isPresent() ? c.index().getAsInt() : null);
	}
}
