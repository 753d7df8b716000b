package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;

/**
 * The judgements the kit's rules and the captured-wire rules share, each returning what it found wrong (empty when
 * nothing), so that each rule words its own failure.
 */
final class WireChecks {

	private WireChecks() {
	}

	/** W20: every data event a {@code chat.completion.chunk} or an error frame, {@code [DONE]} exactly once and last. */
	static List<String> framing(Exchange answer) {
		if (answer.events.isEmpty()) {
			return List.of("no event in " + abbreviate(answer.body));
		}
		List<String> wrong = new ArrayList<>();
		long done = answer.events.stream().filter(t -> t.event().isDone()).count();
		for (Exchange.Timed timed : answer.events) {
			SseEvent event = timed.event();
			if (!event.isDone() && !event.isError() && !isChunk(event)) {
				wrong.add(event.event().map(n -> "event: " + n + " ").orElse("") + "data: " + abbreviate(event.data()));
			}
		}
		int lastDone = answer.body.lastIndexOf("data: [DONE]");
		String after = lastDone < 0 ? "" : answer.body.substring(lastDone + "data: [DONE]".length());
		if (done == 0) {
			wrong.add("no [DONE]: the stream ended after " + answer.events.size() + " event(s), the last "
					+ abbreviate(answer.events.getLast()
							.event()
							.data()));
		}
		else if (done != 1 || !answer.events.getLast().event().isDone() || !after.isBlank()) {
			wrong.add(done + " [DONE], last event " + abbreviate(answer.events.getLast().event().data()) + (after.isBlank()
					? ""
					: ", then after the last [DONE] " + abbreviate(after.strip())));
		}
		return wrong;
	}

	/** W22: every delivered chunk with text or tool-call deltas carries one of the upstream's usage objects, in order. */
	static List<String> chunkUsage(Exchange truth, Exchange answer) {
		List<JsonNode> upstreamUsages = truth.chunkNodes().stream().map(c -> c.get("usage")).toList();
		List<String> wrong = new ArrayList<>();
		long previous = -1;
		for (ObjectNode chunk : answer.chunkNodes().stream().filter(WireChecks::carriesDeltas).toList()) {
			JsonNode usage = chunk.get("usage");
			long tokens = usage == null ? -1 : usage.path("completion_tokens").asLong(-1);
			if (usage == null || !usage.isObject() || !upstreamUsages.contains(usage) || tokens < previous) {
				wrong.add(abbreviate(chunk.toString()));
			}
			previous = Math.max(previous, tokens);
		}
		return wrong;
	}

	/** Whether every chunk of a stream with text or tool-call deltas carries a usage object (continuous_usage_stats). */
	static boolean usageOnEveryChunk(Exchange truth) {
		List<ObjectNode> chunks = truth.chunkNodes().stream().filter(WireChecks::carriesDeltas).toList();
		return !chunks.isEmpty() && chunks.stream().allMatch(c -> c.path("usage").isObject());
	}

	/** Whether a chunk carries content, reasoning or tool-call deltas (what continuous_usage_stats counts). */
	private static boolean carriesDeltas(ObjectNode chunk) {
		for (JsonNode choice : chunk.path("choices")) {
			JsonNode delta = choice.path("delta");
			if (delta.path("content").isTextual() && !delta.path("content").asText().isEmpty() || delta.path("tool_calls").size() > 0
					|| delta.path("reasoning_content").isTextual() || delta.path("reasoning").isTextual()) {
				return true;
			}
		}
		return false;
	}

	/** What W19 (or a client rule) found comparing a client's reading with the kit's. */
	record SdkJudgement(boolean passed, boolean judged, String expected, String observed) {
	}

	/**
	 * How a client library reads an answer: its name (for failure messages), whether it hands a call's arguments
	 * parsed (then they are compared as JSON, not byte for byte), how it names a {@code finish_reason}, and whether it
	 * raises an in-stream error frame (one that does not is not judged on them).
	 */
	record Client(String name, boolean parsesArguments, UnaryOperator<String> finish, boolean raisesErrorFrames) {

		/** A client that hands arguments and {@code finish_reason} as sent, and raises error frames. */
		static Client verbatim(String name) {
			return new Client(name, false, UnaryOperator.identity(), true);
		}
	}

	/**
	 * W19: an error answer must make the SDK throw (with the same HTTP status when it is not 200); a normal answer must
	 * read the same through the SDK as through the kit. When the SDK throws on a normal answer, {@code engineReading} tells
	 * whether it also throws on the engine's own answer: then the wire is one the SDK cannot read at all, not judged here;
	 * so is an in-stream error frame for a client that does not raise one (LangChain4j reads the text before it).
	 */
	static SdkJudgement sdk(Exchange kit, SdkReader.View sdk, Supplier<SdkReader.View> engineReading, String what) {
		return client(Client.verbatim(SdkReader.SDK), kit, sdk, engineReading, what);
	}

	/** W19 and the client rules (C01..C04): {@link #sdk} for any {@code client}. */
	static SdkJudgement client(Client client, Exchange kit, SdkReader.View read, Supplier<SdkReader.View> engineReading, String what) {
		if (kit.isError()) {
			boolean raised = read.failure().isPresent() && (kit.status == 200 || read.status().equals(Optional.of(kit.status)));
			if (kit.status == 200 && !client.raisesErrorFrames()) {
				return new SdkJudgement(true, false, "", what + ": an in-stream error frame, which " + client.name() + " does not raise");
			}
			return new SdkJudgement(raised, true, client.name() + " to raise the error of " + what + " (status " + kit.status + ")",
					read.failure()
							.map(f -> "it threw " + f + " (status " + read.status().map(String::valueOf).orElse("none") + ")")
							.orElse("it read an answer: " + view(client, read)));
		}
		if (read.failure().isPresent() && engineReading.get().failure().isPresent()) {
			return new SdkJudgement(true, false, "", what + ": " + read.failure().get());
		}
		List<String> expected = asTheSdkLists(client, kit);
		Optional<String> finish = kit.finishReason().map(client.finish());
		boolean same = read.failure().isEmpty() && read.content().equals(kit.content()) && callsOf(client, read).equals(expected)
				&& read.finish().equals(finish)
				&& (kit.usage().isEmpty() || read.completionTokens().equals(kit.usage().map(u -> u.path("completion_tokens").asLong())));
		return new SdkJudgement(same, true,
				client.name() + " to read " + what + " as the kit did: " + List.of(kit.content(), expected, finish.orElse("no finish"),
						kit.usage().map(u -> u.path("completion_tokens").asText()).orElse("no usage")),
				read.failure().map(f -> "it threw " + f).orElse("it read " + view(client, read)));
	}

	/**
	 * A client rule's judgement where the client did not read the gateway's answer as the kit did: like with like. When
	 * the kit reads the gateway's answer as it reads the engine's original ({@code original}: the answer was relayed
	 * unchanged) and the client read both alike ({@code read}, {@code engineReading}) but unlike the kit, the difference
	 * is the client's own reading of that wire, not the gateway's: passed and listed, not judged. Empty otherwise: the
	 * kit's judgement stands.
	 */
	static Optional<SdkJudgement> asTheEngineOriginal(Client client, Exchange kit, Exchange original, SdkReader.View read,
			SdkReader.View engineReading, String what) {
		boolean relayed = !original.isError() && kitView(client, kit).equals(kitView(client, original));
		boolean readAlike = read.failure().isEmpty() && engineReading.failure().isEmpty()
				&& view(client, read).equals(view(client, engineReading));
		if (!relayed || !readAlike) {
			return Optional.empty();
		}
		return Optional.of(new SdkJudgement(true, false, "", what + ": " + client.name() + " reads " + view(client, read)
				+ " from the gateway and from the engine's original alike, where the kit reads " + kitView(client, original)));
	}

	/** What the kit read, in the words of {@link #view}: content, calls as {@code client} lists them, finish_reason, completion tokens. */
	static List<String> kitView(Client client, Exchange kit) {
		return List.of(kit.content(), asTheSdkLists(client, kit).toString(), kit.finishReason().map(client.finish()).orElse("no finish"),
				kit.usage().map(u -> u.path("completion_tokens").asText()).orElse("no usage"));
	}

	/** A {@code chat.completion.chunk}: object, id, created, model and a {@code choices} array. */
	static boolean isChunk(SseEvent event) {
		JsonNode json = event.json().map(JsonNode.class::cast).orElse(null);
		return json != null && "chat.completion.chunk".equals(json.path("object").textValue()) && json.path("id").isTextual()
				&& json.path("created").isIntegralNumber() && json.path("model").isTextual() && json.path("choices").isArray();
	}

	/** The calls as the SDK lists them: a stream's by {@code index} (its accumulator sorts them), a body's as they came. */
	private static List<String> asTheSdkLists(Client client, Exchange kit) {
		return kit.calls()
				.stream()
				.sorted(Comparator.comparing(c -> kit.stream && c.index() != null ? c.index() : 0))
				.map(c -> call(client, c))
				.toList();
	}

	private static List<String> callsOf(Client client, SdkReader.View sdk) {
		return sdk.calls().stream().map(c -> call(client, c)).toList();
	}

	/** A call as one line; arguments a client parses, as JSON written again (as sent where they are not JSON). */
	private static String call(Client client, Exchange.Call call) {
		String arguments = client.parsesArguments() && call.arguments() != null
				? WireJson.read(call.arguments()).map(WireJson::write).orElse(call.arguments())
				: call.arguments();
		return call.name() + " " + call.id() + " " + arguments;
	}

	/** A call as one line, name, id and arguments: what W02 compares byte for byte. */
	static String call(Exchange.Call call) {
		return call.name() + " " + call.id() + " " + call.arguments();
	}

	/** W02, W24: the delivered call is the proposed one, id, name and arguments byte for byte. */
	static boolean sameCall(Exchange.Call proposed, Exchange.Call delivered) {
		return call(proposed).equals(call(delivered));
	}

	/** W04: the arguments a transformed call must carry, {@code {"redacted":true}}. */
	static JsonNode redacted() {
		return Json.MAPPER.createObjectNode().put("redacted", true);
	}

	/** W04: a delivered call's arguments as JSON, or as sent when they are not JSON. */
	static Object arguments(Exchange.Call call) {
		return WireJson.read(call.arguments()).map(Object.class::cast).orElse(call.arguments());
	}

	/**
	 * W13 (and W04's original arguments): which of a denied call's {@code traces} appear anywhere in what the client
	 * received, as sent or as a client decodes it: in its bytes, or in any JSON string or key of the body (of each
	 * {@code data:} line of a stream) with its escapes decoded ({@code \"}, {@code \\}, {@code \}{@code uXXXX}), and
	 * in turn in a string that is JSON itself. llama.cpp's {@code __verbose.content} holds the model's raw text, a
	 * call's arguments JSON-escaped in it.
	 */
	static List<String> leaks(Exchange answer, List<String> traces) {
		List<String> decoded = decodedStrings(answer.body);
		return traces.stream()
				.filter(t -> t != null && (answer.body.contains(t) || decoded.stream().anyMatch(s -> s.contains(t))))
				.toList();
	}

	/** Every string and key of the JSON in {@code body} (whole, or per line after {@code data:}), decoded. */
	static List<String> decodedStrings(String body) {
		List<String> strings = new ArrayList<>();
		Stream.concat(Stream.of(body), body.lines().map(l -> l.startsWith("data:") ? l.substring(5) : l))
				.map(WireJson::read)
				.flatMap(Optional::stream)
				.forEach(node -> strings(node, strings, 0));
		return strings;
	}

	private static void strings(JsonNode node, List<String> out, int depth) {
		if (node.isTextual()) {
			out.add(node.textValue());
			String text = node.textValue().strip();
			if (depth < 4 && (text.startsWith("{") || text.startsWith("[") || text.startsWith("\""))) {
				WireJson.read(text).ifPresent(inner -> strings(inner, out, depth + 1));
			}
		}
		else if (node.isObject()) {
			node.properties().forEach(e -> {
				out.add(e.getKey());
				strings(e.getValue(), out, depth);
			});
		}
		else if (node.isArray()) {
			node.forEach(n -> strings(n, out, depth));
		}
	}

	/**
	 * W21: nothing when the answer is the truth unchanged, chunk for chunk (a stream) or body for body; else the first
	 * difference.
	 */
	static Optional<String> unchanged(Exchange truth, Exchange answer) {
		Object expected = truth.stream ? truth.chunkNodes() : truth.json().orElseThrow();
		Object observed = answer.stream ? answer.chunkNodes() : answer.json().map(Object.class::cast).orElse(abbreviate(answer.body));
		return observed.equals(expected) ? Optional.empty() : Optional.of(firstDifference(expected, observed));
	}

	/** The first element (or the whole value) where two chunk lists or bodies differ. */
	static String firstDifference(Object expected, Object observed) {
		if (expected instanceof List<?> want && observed instanceof List<?> got) {
			for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
				if (!want.get(i).equals(got.get(i))) {
					return "chunk " + i + " " + abbreviate(String.valueOf(got.get(i))) + " instead of "
							+ abbreviate(String.valueOf(want.get(i)));
				}
			}
			return got.size() + " chunks instead of " + want.size();
		}
		return abbreviate(String.valueOf(observed));
	}

	/** What a client read: content, calls, finish_reason, completion tokens. */
	static List<String> view(Client client, SdkReader.View sdk) {
		return List.of(sdk.content(), callsOf(client, sdk).toString(), sdk.finish().orElse("no finish"),
				sdk.completionTokens().map(String::valueOf).orElse("no usage"));
	}

	static String abbreviate(String text) {
		return text.length() <= 240 ? text : text.substring(0, 240) + "...";
	}
}
