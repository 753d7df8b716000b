package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.StubEngine;
import dev.fakbattery.core.stats.Slo;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LoadRunner against a loopback stub")
class LoadRunnerTests {

	private static final ChatPayload STREAM = ChatPayload.streaming("m", "hi", 3);

	@Test
	@DisplayName("a closed loop sends exactly its count after its warm-up, and times every request from its chunks")
	void closedLoop() throws Exception {
		try (StubEngine stub = StubEngine.chat("ok"); TargetClient client = TargetClient.open("raw", stub.uri())) {
			LoadResult result = LoadRunner.run(client, STREAM, new ClosedLoop(4, 20, 4, Duration.ofSeconds(30)), Progress.silent());
			assertThat(stub.requests()).isEqualTo(24);
			assertThat(result.outcomes()).hasSize(20).allMatch(RequestOutcome::ok).noneMatch(RequestOutcome::warmup);
			assertThat(result.warmupSent()).isEqualTo(4);
			assertThat(result.notSent()).isZero();
			RequestOutcome first = result.outcomes().get(0);
			assertThat(first.outputTokens()).isEqualTo(3);
			assertThat(first.outputTokensSource()).isEqualTo(TokenSource.USAGE);
			assertThat(first.itlPerTokenFromUsage()).isTrue();
			assertThat(first.itlMs()).hasSize(2);
			assertThat(first.ttftMs()).isPositive().isLessThanOrEqualTo(first.e2elMs());
			assertThat(first.e2elMs()).isLessThanOrEqualTo(first.requestMs());
			LoadSummary summary = LoadSummary.of(result, Optional.of(Slo.parse("e2el:60000")));
			ObjectNode json = Json.MAPPER.createObjectNode();
			summary.writeTo(json);
			assertThat(json.path("completed").asInt()).isEqualTo(20);
			assertThat(json.path("failed").asInt()).isZero();
			assertThat(json.path("count_itl").asInt()).isEqualTo(40);
			assertThat(json.path("output_tokens_recounted").asInt()).isZero();
			assertThat(json.path("total_output_tokens").asInt()).isEqualTo(60);
			assertThat(json.path("good_requests").asInt()).isEqualTo(20);
			assertThat(json.has("schedule_lag_ms")).isFalse();
		}
	}

	@Test
	@DisplayName("non-200 and truncated streams are counted with their status and reason, never dropped")
	void failuresCounted() throws Exception {
		try (StubEngine stub = StubEngine.chat("status=503"); TargetClient client = TargetClient.open("gateway", stub.uri())) {
			LoadResult rejected = LoadRunner.run(client, STREAM, new ClosedLoop(2, 6, 0, Duration.ofSeconds(30)), Progress.silent());
			LoadSummary summary = LoadSummary.of(rejected, Optional.empty());
			assertThat(summary.httpStatusCounts()).containsEntry(503, 6L);
			assertThat(summary.errors()).containsOnlyKeys("HTTP 503: {\"error\":{\"message\":\"overloaded\"}}");
			assertThat(summary.e2el().isEmpty()).isTrue();
			assertThat(rejected.requestThroughput()).isZero();
			stub.mode("no-done");
			RequestOutcome truncated = client.send(STREAM, 0, false);
			assertThat(truncated.ok()).isFalse();
			assertThat(truncated.httpStatus()).isEqualTo(200);
			assertThat(truncated.error()).startsWith("stream ended without data: [DONE]");
		}
	}

	@Test
	@DisplayName("two turns of one target merge into one result: outcomes in send order, durations added")
	void merge() throws Exception {
		try (StubEngine stub = StubEngine.chat("ok"); TargetClient client = TargetClient.open("raw", stub.uri())) {
			LoadResult a = LoadRunner.run(client, STREAM, new ClosedLoop(2, 4, 0, Duration.ofSeconds(30)), Progress.silent());
			LoadResult b = LoadRunner.run(client, STREAM, new ClosedLoop(2, 4, 1, Duration.ofSeconds(30)), Progress.silent());
			LoadResult merged = LoadResult.merge("closed-loop concurrency 2, 2 turns", java.util.List.of(a, b));
			assertThat(merged.outcomes()).hasSize(8);
			assertThat(merged.planned()).isEqualTo(8);
			assertThat(merged.warmupSent()).isEqualTo(1);
			assertThat(merged.durationS()).isCloseTo(a.durationS() + b.durationS(), org.assertj.core.api.Assertions.within(1e-12));
			assertThat(merged.outcomes().get(4).sentNanos()).isGreaterThan(merged.outcomes().get(3).sentNanos());
		}
	}

	@Test
	@DisplayName("an unreachable target fails each request with status 0 and the URL")
	void unreachable() {
		try (TargetClient client = TargetClient.open("raw", java.net.URI.create("http://127.0.0.1:9/v1"))) {
			RequestOutcome outcome = client.send(STREAM, 0, false);
			assertThat(outcome.httpStatus()).isZero();
			assertThat(outcome.error()).contains("http://127.0.0.1:9/v1/chat/completions");
		}
	}

	/**
	 * A 1 s request timeout, not 300 ms: the stalled stream fails by it, and the good one after it must fit in it too,
	 * which at a load average near 30 on 2 cores (2026-12-02) it once did not in 300 ms.
	 */
	@Test
	@DisplayName("a stream that stalls after its headers fails as timed out, and leaves the thread uninterrupted")
	void requestTimeout() throws Exception {
		try (StubEngine stub = StubEngine.chat("stall");
				TargetClient client = TargetClient.open("raw", stub.uri(), java.util.Map.of(), Duration.ofMillis(1000))) {
			RequestOutcome outcome = client.send(STREAM, 0, false);
			assertThat(outcome.ok()).isFalse();
			assertThat(outcome.error()).startsWith("timed out: no complete response within 1000 ms");
			assertThat(Thread.currentThread().isInterrupted()).isFalse();
			stub.mode("ok");
			assertThat(client.send(STREAM, 1, false).ok()).isTrue();
		}
	}

	@Test
	@DisplayName("the time cap stops a run by itself: the hung request fails, the rest are not sent")
	void timeCap() throws Exception {
		try (StubEngine stub = StubEngine.chat("hang"); TargetClient client = TargetClient.open("raw", stub.uri())) {
			LoadResult result = LoadRunner.run(client, STREAM, new ClosedLoop(1, 5, 0, Duration.ofMillis(300)), Progress.silent());
			assertThat(result.timeCapped()).isTrue();
			assertThat(result.outcomes()).hasSize(1);
			assertThat(result.outcomes().get(0).error()).contains("interrupted");
			assertThat(result.notSent()).isEqualTo(4);
		}
	}

	@Test
	@DisplayName("an open loop follows its schedule, records queue time and schedule lag; non-stream has no TTFT")
	void openLoopNonStream() throws Exception {
		try (StubEngine stub = StubEngine.chat("ok"); TargetClient client = TargetClient.open("raw", stub.uri())) {
			ArrivalSchedule arrivals = ArrivalSchedule.poisson(50, 500.0, 3);
			LoadResult result = LoadRunner.run(client, ChatPayload.nonStreaming("m", "hi", 3),
					new OpenLoop(arrivals, 0, 2, Duration.ofSeconds(30)), Progress.silent());
			assertThat(result.outcomes()).hasSize(50).allMatch(RequestOutcome::ok);
			assertThat(result.scheduleLagMs()).hasValueSatisfying(lag -> assertThat(lag.count()).isEqualTo(50));
			RequestOutcome one = result.outcomes().get(0);
			assertThat(one.ttftMs()).isNaN();
			assertThat(one.outputTokens()).isEqualTo(3);
			assertThat(one.queueMs()).isGreaterThanOrEqualTo(0);
			assertThat(result.mode()).startsWith("open-loop poisson 500.0 req/s x 50");
			ObjectNode json = Json.MAPPER.createObjectNode();
			LoadSummary.of(result, Optional.empty()).writeTo(json);
			assertThat(json.path("count_schedule_lag").asInt()).isEqualTo(50);
			assertThat(json.path("count_ttft").asInt()).isZero();
			assertThat(json.path("median_ttft_ms").isNull()).isTrue();
		}
	}
}
