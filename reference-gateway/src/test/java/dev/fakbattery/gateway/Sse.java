package dev.fakbattery.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.ToolCallAssembler;

/** Reading a whole SSE body in tests, with the harness's own reader and assembler. */
final class Sse {

	private Sse() {
	}

	static List<SseEvent> events(String body) {
		List<SseEvent> events = new ArrayList<>();
		try (SseReader reader = new SseReader(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))) {
			for (var event = reader.next(); event.isPresent(); event = reader.next()) {
				events.add(event.get());
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return events;
	}

	/** The chat chunks of a body: data events without an event name, not {@code [DONE]}, not error frames. */
	static List<ChatChunk> chunks(String body) {
		return events(body).stream()
				.filter(event -> event.kind() == SseEvent.Kind.DATA && event.event().isEmpty())
				.map(SseEvent::chunk)
				.toList();
	}

	/** The tool calls the chunks of a body reassemble to. */
	static ToolCallAssembler assembled(String body) {
		ToolCallAssembler assembler = new ToolCallAssembler();
		chunks(body).forEach(assembler::accept);
		return assembler;
	}

	static List<AssembledToolCall> calls(String body) {
		return assembled(body).calls();
	}

	/** The content deltas of a body joined. */
	static String content(String body) {
		StringBuilder content = new StringBuilder();
		chunks(body).forEach(chunk -> chunk.choices().forEach(choice -> choice.delta().content().ifPresent(content::append)));
		return content.toString();
	}
}
