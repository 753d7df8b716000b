package dev.fakbattery.wire;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What reading one SSE body through {@link SseReader} and {@link ToolCallAssembler} gives, as comparable values: the
 * events (kind and data), the calls assembled (choice, index, id, type, name, arguments, complete), the finish reasons,
 * the assembler's violations, and the clear error that ended the read, if any. Any other exception escapes: that is a
 * crash, which the properties exist to find.
 */
record WireRead(List<String> events, List<String> calls, List<String> finishes, List<String> violations, String error) {

	static WireRead of(byte[] body, int maxEventBytes) {
		return of(new ByteArrayInputStream(body), maxEventBytes);
	}

	static WireRead of(InputStream body, int maxEventBytes) {
		List<String> events = new ArrayList<>();
		ToolCallAssembler assembler = new ToolCallAssembler();
		String error = null;
		try (SseReader reader = new SseReader(body, maxEventBytes)) {
			for (var event = reader.next(); event.isPresent(); event = reader.next()) {
				events.add(event.get().kind() + " " + event.get().data());
				if (event.get().kind() == SseEvent.Kind.DATA) {
					assembler.accept(event.get().chunk());
				}
			}
		}
		catch (SseLimitException | WireFormatException e) {
			error = e.getClass().getSimpleName() + ": " + e.getMessage();
		}
		catch (IOException e) {
			throw new IllegalStateException("an in-memory body cannot fail to read", e);
		}
		List<String> calls = assembler.calls()
				.stream()
				.map(c -> c.choiceIndex() + "/" + c.index() + " " + c.id().orElse(null) + " "
						+ c.type().orElse(null) + " " + c.name().orElse(null) + " " + c.arguments()
						+ (c.isComplete() ? " complete" : " open"))
				.toList();
		List<String> finishes = new ArrayList<>();
		for (int choice = 0; choice < 4; choice++) {
			int index = choice;
			assembler.finishReason(choice).ifPresent(reason -> finishes.add(index + " " + reason));
		}
		return new WireRead(events, calls, finishes, assembler.violations(), error);
	}
}
