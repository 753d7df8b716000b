package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SseReader: bounded lines and events")
class SseReaderLimitTests {

	@Test
	@DisplayName("a line longer than the limit fails as soon as the limit is passed, naming it")
	void endlessLine() {
		SseReader reader = new SseReader(endless("data: {\"x\":\"", 'x'), 1024);

		assertThatThrownBy(reader::next).isInstanceOf(SseLimitException.class)
				.hasMessage("SSE line longer than 1024 bytes (the limit): the stream is cut there");
	}

	@Test
	@DisplayName("an event of many short data lines never dispatched fails at the limit")
	void endlessEvent() {
		SseReader reader = new SseReader(endlessLines("data: 0123456789\n"), 1024);

		assertThatThrownBy(reader::next).isInstanceOf(SseLimitException.class)
				.hasMessage("SSE event data longer than 1024 bytes (the limit): the stream is cut there");
	}

	@Test
	@DisplayName("events and lines up to the limit are read, and the count starts again at each event")
	void upToTheLimit() throws IOException {
		String data = "y".repeat(1000);
		String sse = ("data: " + data + "\n\n").repeat(5) + "data: [DONE]\n\n";
		SseReader reader = new SseReader(new ByteArrayInputStream(sse.getBytes(StandardCharsets.UTF_8)), 1010);

		for (int i = 0; i < 5; i++) {
			assertThat(reader.next()).get().extracting(SseEvent::data).isEqualTo(data);
		}
		assertThat(reader.next()).get().extracting(SseEvent::isDone).isEqualTo(true);
	}

	@Test
	@DisplayName("the default bound is 16 MiB, and a bound must be positive")
	void defaults() {
		assertThat(SseReader.DEFAULT_MAX_EVENT_BYTES).isEqualTo(16 * 1024 * 1024);
		assertThatThrownBy(() -> new SseReader(InputStream.nullInputStream(), 0)).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("maxEventBytes [0] must be positive");
	}

	/** {@code start} then {@code fill} for ever. */
	private static InputStream endless(String start, char fill) {
		byte[] head = start.getBytes(StandardCharsets.UTF_8);
		return new InputStream() {
			private int position;

			@Override
			public int read() {
				return position < head.length ? head[position++] : fill;
			}
		};
	}

	/** {@code line} repeated for ever. */
	private static InputStream endlessLines(String line) {
		byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
		return new InputStream() {
			private long position;

			@Override
			public int read() {
				return bytes[(int) (position++ % bytes.length)];
			}
		};
	}
}
