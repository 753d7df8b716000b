package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SseReader")
class SseReaderTests {

	@Test
	@DisplayName("reads every frame of a fixture, then [DONE] as its own event")
	void readsFixtureFrames() throws IOException {
		String raw = WireFixtures.read("vllm/chat-tool-call.sse");
		try (SseReader reader = reader(raw)) {
			List<SseEvent> events = drain(reader);

			assertThat(events).hasSize(raw.split("\n\n").length);
			assertThat(events.subList(0, events.size() - 1)).allMatch(event -> event.kind() == SseEvent.Kind.DATA);
			assertThat(events.get(events.size() - 1).isDone()).isTrue();
			assertThat(reader.sawDone()).isTrue();
			assertThat(reader.endedMidEvent()).isFalse();
			assertThat(reader.comments()).isZero();
			assertThat(reader.blankLines()).isZero();
			assertThat(reader.events()).isEqualTo(events.size());
		}
	}

	@Test
	@DisplayName("CRLF, LF and lone CR line endings give the same events")
	void lineEndings() throws IOException {
		String lf = WireFixtures.read("sglang/chat-tool-call.sse");
		List<String> expected = data(lf);

		assertThat(data(lf.replace("\n", "\r\n"))).isEqualTo(expected);
		assertThat(data(lf.replace("\n", "\r"))).isEqualTo(expected);
		assertThat(expected.get(expected.size() - 1)).isEqualTo("[DONE]");
	}

	@Test
	@DisplayName("a CRLF split across two reads is one line ending, and UTF-8 split across reads decodes whole")
	void splitsAcrossReads() throws IOException {
		String raw = "data: {\"content\":\"Grüße, 東京\"}\r\n\r\ndata: [DONE]\r\n\r\n";
		byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
		List<byte[]> oneByteEach = new ArrayList<>();
		for (byte b : bytes) {
			oneByteEach.add(new byte[]{ b });
		}

		try (SseReader reader = new SseReader(new ScriptedStream(oneByteEach))) {
			List<SseEvent> events = drain(reader);

			assertThat(events).extracting(SseEvent::data).containsExactly("{\"content\":\"Grüße, 東京\"}", "[DONE]");
			assertThat(reader.blankLines()).as("no empty line between CR and LF").isZero();
		}
	}

	@Test
	@DisplayName("a line longer than the read buffer, split at every buffer edge, reads whole")
	void lineLongerThanTheBuffer() throws IOException {
		String content = "ü".repeat(10_000);
		String raw = "data: {\"content\":\"" + content + "\"}\r\n\r\ndata: [DONE]\r\n\r\n";
		byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
		List<byte[]> segments = new ArrayList<>();
		for (int at = 0; at < bytes.length; at += 8191) {
			segments.add(java.util.Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + 8191)));
		}

		try (SseReader reader = new SseReader(new ScriptedStream(segments))) {
			assertThat(drain(reader)).extracting(SseEvent::data).containsExactly("{\"content\":\"" + content + "\"}", "[DONE]");
		}
	}

	@Test
	@DisplayName("an event is timed by the read that brought its blank line, not by when it was parsed")
	void eventTimeIsTheReadTime() throws IOException {
		ScriptedStream stream = new ScriptedStream(List.of(
				"data: {\"n\":1}\n".getBytes(StandardCharsets.UTF_8),
				"\n".getBytes(StandardCharsets.UTF_8),
				"data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8)));

		try (SseReader reader = new SseReader(stream)) {
			assertThat(reader.eventNanos()).as("before any event").isZero();
			long before = System.nanoTime();
			reader.next();
			long afterFirst = System.nanoTime();
			long first = reader.eventNanos();
			reader.next();

			assertThat(first).isBetween(before, afterFirst);
			assertThat(stream.readNanos()).hasSize(3);
			assertThat(first).as("timed after the second read, which brought the blank line, not the first")
					.isBetween(stream.readNanos().get(1), stream.readNanos().get(2));
			assertThat(reader.eventNanos()).isGreaterThanOrEqualTo(stream.readNanos().get(2));
		}
	}

	@Test
	@DisplayName("returns an event as soon as its blank line arrived, without reading further")
	void incremental() throws IOException {
		ScriptedStream stream = new ScriptedStream(List.of(
				"data: {\"n\":1}\n\n".getBytes(StandardCharsets.UTF_8),
				"data: {\"n\":2}\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8)));

		try (SseReader reader = new SseReader(stream)) {
			assertThat(reader.next()).map(SseEvent::data).contains("{\"n\":1}");
			assertThat(stream.segmentsRead()).as("second segment not yet requested").isEqualTo(1);

			assertThat(reader.next()).map(SseEvent::data).contains("{\"n\":2}");
			assertThat(reader.next()).map(SseEvent::isDone).contains(true);
			assertThat(reader.next()).isEmpty();
		}
	}

	@Test
	@DisplayName("comments and blank keep-alives are skipped and counted")
	void commentsAndKeepAlives() throws IOException {
		String raw = ": keep-alive\n\n" + "data: {\"n\":1}\n\n" + "\n\n" + ":ping\n" + "data: [DONE]\n\n";
		try (SseReader reader = reader(raw)) {
			assertThat(drain(reader)).extracting(SseEvent::data).containsExactly("{\"n\":1}", "[DONE]");
			assertThat(reader.comments()).isEqualTo(2);
			assertThat(reader.blankLines()).isEqualTo(3);
		}
	}

	@Test
	@DisplayName("multi-line data is joined by \\n; event:, id:, retry: and unknown fields are tolerated")
	void fields() throws IOException {
		String raw = "event: message\nid: 7\nretry: 1000\nfoo: bar\ndata: {\"a\":\ndata:1}\n\n" + "data\n\n" + "data: [DONE]\n\n";
		try (SseReader reader = reader(raw)) {
			List<SseEvent> events = drain(reader);

			assertThat(events.get(0).data()).isEqualTo("{\"a\":\n1}");
			assertThat(events.get(0).event()).contains("message");
			assertThat(events.get(0).id()).contains("7");
			assertThat(events.get(0).json()).map(node -> node.get("a").intValue()).contains(1);
			assertThat(events.get(1).data()).as("a bare 'data' line is an empty data line").isEmpty();
			assertThat(events.get(1).event()).as("event name resets after dispatch").isEmpty();
			assertThat(events.get(1).id()).as("last event id persists").contains("7");
			assertThat(events.get(2).isDone()).isTrue();
		}
	}

	@Test
	@DisplayName("a leading byte-order mark is dropped")
	void byteOrderMark() throws IOException {
		try (SseReader reader = reader("\uFEFFdata: [DONE]\n\n")) {
			assertThat(reader.next()).map(SseEvent::isDone).contains(true);
		}
	}

	@Test
	@DisplayName("in-stream error frames of both engines are errors, followed by [DONE]")
	void errorFrames() throws IOException {
		for (String fixture : List.of("vllm/stream-error.sse", "sglang/stream-error.sse")) {
			List<SseEvent> events = WireFixtures.events(fixture);

			assertThat(events).extracting(SseEvent::kind)
					.as(fixture)
					.containsExactly(SseEvent.Kind.DATA, SseEvent.Kind.ERROR, SseEvent.Kind.DONE);
			assertThat(events.get(1).error().code()).as(fixture).hasValue(500);
			assertThatThrownBy(() -> events.get(1).chunk()).isInstanceOf(WireFormatException.class)
					.hasMessageStartingWith("expected a chat.completion.chunk, got ERROR data: {\"error\": {");
		}
	}

	@Test
	@DisplayName("a stream cut between events ends without [DONE]")
	void truncatedBetweenEvents() throws IOException {
		String raw = WireFixtures.read("vllm/chat-tool-call.sse");
		String cut = raw.substring(0, raw.indexOf("data: [DONE]"));
		try (SseReader reader = reader(cut)) {
			List<SseEvent> events = drain(reader);

			assertThat(events).isNotEmpty().noneMatch(SseEvent::isDone);
			assertThat(reader.sawDone()).isFalse();
			assertThat(reader.endedMidEvent()).isFalse();
		}
	}

	@Test
	@DisplayName("a stream cut inside an event drops the partial event and says so")
	void truncatedInsideEvent() throws IOException {
		String raw = WireFixtures.read("sglang/chat-tool-call.sse");
		int third = raw.indexOf("data: ", raw.indexOf("data: ", raw.indexOf("data: ") + 1) + 1);
		for (String cut : List.of(raw.substring(0, third + 40), raw.substring(0, raw.indexOf("\n\n", third) + 1))) {
			try (SseReader reader = reader(cut)) {
				assertThat(drain(reader)).hasSize(2);
				assertThat(reader.sawDone()).isFalse();
				assertThat(reader.endedMidEvent()).isTrue();
			}
		}
	}

	@Test
	@DisplayName("data that is not one JSON object is a DATA event without json; asking for a chunk fails")
	void nonJsonData() throws IOException {
		try (SseReader reader = reader("data: hello\n\ndata: [1,2]\n\n")) {
			List<SseEvent> events = drain(reader);

			assertThat(events).extracting(SseEvent::kind).containsOnly(SseEvent.Kind.DATA);
			assertThat(events).allMatch(event -> event.json().isEmpty());
			assertThatThrownBy(() -> events.get(0).chunk()).isInstanceOf(WireFormatException.class)
					.hasMessage("expected a chat.completion.chunk, got DATA data: hello");
		}
	}

	private static SseReader reader(String raw) {
		return new SseReader(new ByteArrayInputStream(raw.getBytes(StandardCharsets.UTF_8)));
	}

	private static List<SseEvent> drain(SseReader reader) throws IOException {
		List<SseEvent> events = new ArrayList<>();
		for (Optional<SseEvent> event = reader.next(); event.isPresent(); event = reader.next()) {
			events.add(event.get());
		}
		return events;
	}

	private static List<String> data(String raw) throws IOException {
		try (SseReader reader = reader(raw)) {
			return drain(reader).stream().map(SseEvent::data).toList();
		}
	}

	/** Hands out one scripted segment per read, like a socket delivering packets; counts what was asked for. */
	private static final class ScriptedStream extends InputStream {

		private final Deque<byte[]> segments;

		private int segmentsRead;

		private final List<Long> readNanos = new ArrayList<>();

		ScriptedStream(List<byte[]> segments) {
			this.segments = new ArrayDeque<>(segments);
		}

		int segmentsRead() {
			return segmentsRead;
		}

		/** When each segment was handed out: the reader's clock reading after that read is no earlier. */
		List<Long> readNanos() {
			return readNanos;
		}

		@Override
		public int read() {
			throw new UnsupportedOperationException("the reader must read in blocks");
		}

		@Override
		public int read(byte[] target, int offset, int length) {
			byte[] next = segments.poll();
			if (next == null) {
				return -1;
			}
			segmentsRead++;
			if (next.length > length) {
				throw new IllegalStateException("segment larger than the read buffer");
			}
			System.arraycopy(next, 0, target, offset, next.length);
			readNanos.add(System.nanoTime());
			return next.length;
		}
	}
}
