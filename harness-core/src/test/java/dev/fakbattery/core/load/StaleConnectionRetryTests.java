package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.StubEngine;
import dev.fakbattery.core.load.KeepAliveClosingServer.Mode;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The load client against a server that closes its kept-alive connections after a streamed response,
 * as llama.cpp's does: a request the server never saw is sent once more and disclosed; a request the
 * server failed stays failed.
 */
@DisplayName("TargetClient: connections the server closed after a stream")
class StaleConnectionRetryTests {

	private static final ChatPayload STREAM = ChatPayload.streaming("m", "hi", 2);

	static final String RETRY = "sent once more on a new connection: the first attempt got no response byte (HTTP/1.1 header parser received no bytes, "
			+ "a kept-alive connection the server had closed)";

	@Test
	@DisplayName("a request lost on a connection the server closed is sent once more on a new one, succeeds and says so")
	void retriedOnce() throws Exception {
		try (KeepAliveClosingServer server = new KeepAliveClosingServer(Mode.CLOSE_ON_NEXT_REQUEST);
				TargetClient client = TargetClient.open("raw", server.baseUrl())) {
			RequestOutcome first = client.send(STREAM, 0, false);
			RequestOutcome second = client.send(STREAM, 1, false);
			RequestOutcome third = client.send(STREAM, 2, false);
			assertThat(List.of(first, second, third)).allMatch(RequestOutcome::ok);
			assertThat(first.retry()).isNull();
			assertThat(second.retry()).isEqualTo(RETRY);
			assertThat(second.toString()).endsWith(", retried]");
			assertThat(second.queueMs()).as("the lost attempt is client queue time").isPositive();
			assertThat(third.retry()).as("the closed connection left the pool: the next request opens a new one").isNull();
			assertThat(server.received()).isEqualTo(4);
			assertThat(server.answered()).isEqualTo(3);
			assertThat(server.connections()).isEqualTo(3);
		}
	}

	@Test
	@DisplayName("a server that closes every connection without answering: the request fails after one more attempt")
	void neverAnswered() throws Exception {
		try (KeepAliveClosingServer server = new KeepAliveClosingServer(Mode.NEVER_ANSWER);
				TargetClient client = TargetClient.open("raw", server.baseUrl())) {
			RequestOutcome outcome = client.send(STREAM, 0, false);
			assertThat(outcome.ok()).isFalse();
			assertThat(outcome.httpStatus()).isZero();
			assertThat(outcome.error()).isEqualTo("IOException: HTTP/1.1 header parser received no bytes (" + server.baseUrl()
					+ "/chat/completions)");
			assertThat(outcome.retry()).isEqualTo(RETRY);
			assertThat(server.received()).isEqualTo(2);
		}
	}

	@Test
	@DisplayName("a stream cut short after its first bytes is the server's failure and is not sent again")
	void cutShort() throws Exception {
		try (KeepAliveClosingServer server = new KeepAliveClosingServer(Mode.CUT_MID_STREAM);
				TargetClient client = TargetClient.open("raw", server.baseUrl())) {
			RequestOutcome outcome = client.send(STREAM, 0, false);
			assertThat(outcome.ok()).isFalse();
			assertThat(outcome.retried()).isFalse();
			assertThat(server.received()).isEqualTo(1);
		}
	}

	@Test
	@DisplayName("an HTTP error status is the server's answer and is not sent again")
	void statusNotRetried() throws Exception {
		try (StubEngine stub = StubEngine.chat("status=503"); TargetClient client = TargetClient.open("raw", stub.uri())) {
			RequestOutcome outcome = client.send(STREAM, 0, false);
			assertThat(outcome.httpStatus()).isEqualTo(503);
			assertThat(outcome.retried()).isFalse();
			assertThat(stub.requests()).isEqualTo(1);
		}
	}

	@Test
	@DisplayName("a closed loop at concurrency 2 against a server closing after every stream counts no failure, and every retry")
	void closedLoop() throws Exception {
		try (KeepAliveClosingServer server = new KeepAliveClosingServer(Mode.CLOSE_AFTER_STREAM);
				TargetClient client = TargetClient.open("raw", server.baseUrl())) {
			LoadResult result = LoadRunner.run(client, STREAM, new ClosedLoop(2, 64, 2, Duration.ofSeconds(60)), Progress.silent());
			LoadSummary summary = LoadSummary.of(result, Optional.empty());
			ObjectNode json = Json.MAPPER.createObjectNode();
			summary.writeTo(json);
			assertThat(result.failed()).isEmpty();
			assertThat(json.path("completed").asInt()).isEqualTo(64);
			long retried = result.outcomes().stream().filter(RequestOutcome::retried).count();
			assertThat(json.path("retried").asLong()).isEqualTo(retried).isEqualTo(summary.retried());
			assertThat(json.path("retry_reasons").path(RETRY).asLong()).isEqualTo(retried);
			assertThat(server.answered()).as("64 measured and 2 warm-up requests, each answered once").isEqualTo(66);
			assertThat(server.received()).as("a retried request had never been read by the server: nothing ran twice").isEqualTo(66);
		}
	}
}
