package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SseParser: the SSE rules fed bytes as they arrive")
class SseParserTests {

	private record Got(String data, long nanos) {
	}

	@Test
	@DisplayName("an event fed a byte at a time carries the time of the feed that completed it")
	void timedByTheCompletingFeed() throws SseLimitException {
		byte[] bytes = "data: {\"n\":1}\r\n\r\n: ping\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);
		SseParser parser = new SseParser(1024);
		List<Got> got = new ArrayList<>();

		for (int i = 0; i < bytes.length; i++) {
			parser.feed(bytes, i, 1, 1_000 + i, (event, nanos) -> got.add(new Got(event.data(), nanos)));
		}
		parser.end();

		int firstBlank = "data: {\"n\":1}\r\n".length();
		assertThat(got).containsExactly(new Got("{\"n\":1}", 1_000 + firstBlank), new Got("[DONE]", 1_000 + bytes.length - 1));
		assertThat(parser.sawDone()).isTrue();
		assertThat(parser.comments()).isEqualTo(1);
		assertThat(parser.blankLines()).as("the blank line closing the comment").isEqualTo(1);
		assertThat(parser.endedMidEvent()).isFalse();
	}

	@Test
	@DisplayName("events completed before a line passes the bound are handed on, then the bound fails the feed")
	void eventsBeforeTheLimit() {
		String raw = "data: {\"n\":1}\n\ndata: " + "x".repeat(100) + "\n\n";
		byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
		SseParser parser = new SseParser(64);
		List<String> got = new ArrayList<>();

		assertThatThrownBy(() -> parser.feed(bytes, 0, bytes.length, 0, (event, nanos) -> got.add(event.data())))
				.isInstanceOf(SseLimitException.class)
				.hasMessage("SSE line longer than 64 bytes (the limit): the stream is cut there");
		assertThat(got).containsExactly("{\"n\":1}");
	}

	@Test
	@DisplayName("input that ends inside an event discards it and says so")
	void endsMidEvent() throws SseLimitException {
		byte[] bytes = "data: {\"n\":1}\n\ndata: {\"n\":2}\n".getBytes(StandardCharsets.UTF_8);
		SseParser parser = new SseParser(1024);
		List<String> got = new ArrayList<>();

		parser.feed(bytes, 0, bytes.length, 0, (event, nanos) -> got.add(event.data()));
		parser.end();

		assertThat(got).containsExactly("{\"n\":1}");
		assertThat(parser.sawDone()).isFalse();
		assertThat(parser.endedMidEvent()).isTrue();
	}
}
