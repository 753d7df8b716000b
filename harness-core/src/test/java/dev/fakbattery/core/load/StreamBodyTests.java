package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Flow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StreamBody: a stream parsed as the HTTP client hands over its bytes")
class StreamBodyTests {

	private static final String CHUNK = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
			+ "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"},\"finish_reason\":null}]}\n\n";

	private static final class Subscription implements Flow.Subscription {

		long requested;

		boolean cancelled;

		@Override
		public void request(long n) {
			requested += n;
		}

		@Override
		public void cancel() {
			cancelled = true;
		}
	}

	private static ResponseReader sentAt(long nanos) {
		ResponseReader reader = new ResponseReader("raw", 0, false, nanos, ChatPayload.streaming("m", "hi", 4));
		reader.sentAt(nanos);
		return reader;
	}

	private static List<ByteBuffer> bytes(String text) {
		return List.of(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
	}

	@Test
	@DisplayName("each chunk is timed at the delivery that completed it, across deliveries split mid-line")
	void timedAtDelivery() {
		long sent = System.nanoTime();
		StreamBody body = new StreamBody(sentAt(sent), 200, "http://127.0.0.1:1/v1/chat/completions");
		Subscription subscription = new Subscription();
		body.onSubscribe(subscription);

		String first = CHUNK.formatted("one");
		body.onNext(bytes(first.substring(0, 20)));
		long beforeFirst = System.nanoTime();
		body.onNext(bytes(first.substring(20)));
		long beforeSecond = System.nanoTime();
		body.onNext(bytes(CHUNK.formatted("two") + "data: [DONE]\n\n"));
		body.onComplete();

		RequestOutcome outcome = body.getBody().toCompletableFuture().join();
		assertThat(subscription.requested).isPositive();
		assertThat(outcome.error()).isNull();
		assertThat(outcome.excerpt()).isEqualTo("onetwo");
		assertThat(outcome.ttftMs()).as("the first chunk's time is its second delivery's")
				.isBetween((beforeFirst - sent) / 1e6, (beforeSecond - sent) / 1e6);
	}

	@Test
	@DisplayName("a line past the bound ends the request as failed, naming the bound, and cancels the body")
	void lineOverTheBound() {
		StreamBody body = new StreamBody(sentAt(System.nanoTime()), 200, "http://127.0.0.1:1/v1/chat/completions", 64);
		Subscription subscription = new Subscription();
		body.onSubscribe(subscription);

		body.onNext(bytes("data: " + "x".repeat(100)));

		RequestOutcome outcome = body.getBody().toCompletableFuture().join();
		assertThat(subscription.cancelled).isTrue();
		assertThat(outcome.httpStatus()).isZero();
		assertThat(outcome.error()).isEqualTo("SseLimitException: SSE line longer than 64 bytes (the limit): the stream is cut there "
				+ "(http://127.0.0.1:1/v1/chat/completions)");
	}

	@Test
	@DisplayName("a non-200 answer keeps the first 2000 bytes of its body for the failure and drops the rest")
	void errorStatusKeepsAnExcerpt() {
		StreamBody body = new StreamBody(sentAt(System.nanoTime()), 503, "http://127.0.0.1:1/v1/chat/completions");
		body.onSubscribe(new Subscription());

		body.onNext(bytes("{\"error\":\"" + "y".repeat(1500)));
		body.onNext(bytes("z".repeat(1500)));
		body.onComplete();

		RequestOutcome outcome = body.getBody().toCompletableFuture().join();
		assertThat(outcome.httpStatus()).isEqualTo(503);
		assertThat(outcome.excerpt()).hasSize(2000).endsWith("z".repeat(490));
		assertThat(outcome.error()).startsWith("HTTP 503: {\"error\":\"yyy");
	}

	@Test
	@DisplayName("a stream that ends without [DONE] fails, saying whether it was cut mid-event")
	void cutMidEvent() {
		StreamBody body = new StreamBody(sentAt(System.nanoTime()), 200, "http://127.0.0.1:1/v1/chat/completions");
		body.onSubscribe(new Subscription());

		body.onNext(bytes(CHUNK.formatted("one") + "data: {\"choi"));
		body.onComplete();

		assertThat(body.getBody().toCompletableFuture().join().error())
				.isEqualTo("stream ended without data: [DONE] (cut mid-event)");
	}
}
