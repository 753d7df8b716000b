package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import dev.fakbattery.gateway.GatewayClient.Answer;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An engine that closes a connection without answering, as llama.cpp's does to the kept-alive connection a
 * request arrives on after a stream: the gateway sends the request once more on a new connection and counts it;
 * an engine that never answers still gets a 502.
 */
@DisplayName("an engine closing connections unanswered")
class StaleUpstreamTests {

	@ParameterizedTest(name = "stream={0}")
	@ValueSource(booleans = { true, false })
	@DisplayName("a request the engine closed unanswered is sent once more, answered, and counted in upstream_retries")
	void retried(boolean stream) {
		try (Rig rig = Rig.start("vllm")) {
			AtomicInteger chats = new AtomicInteger();
			UpstreamDouble.Reply answer = UpstreamDouble.fixture("vllm/chat-tool-call");
			rig.upstream.chat((exchange, request) -> {
				if (chats.getAndIncrement() > 0) {
					answer.send(exchange, request);
				}
			});
			Answer reply = rig.chat(GatewayClient.request("m", stream));
			assertThat(reply.status()).isEqualTo(200);
			assertThat(rig.upstream.received("/v1/chat/completions")).hasSize(2);
			assertThat(rig.gateway.metrics().upstreamRetries()).isEqualTo(1);
			assertThat(rig.gateway.metrics().upstreamErrors()).isZero();
		}
	}

	@ParameterizedTest(name = "stream={0}")
	@ValueSource(booleans = { true, false })
	@DisplayName("an engine that closes every connection unanswered gets one more attempt, then the client a 502")
	void neverAnswered(boolean stream) {
		try (Rig rig = Rig.start("vllm")) {
			rig.upstream.chat((exchange, request) -> {
			});
			Answer reply = rig.chat(GatewayClient.request("m", stream));
			assertThat(reply.status()).isEqualTo(502);
			assertThat(reply.body()).contains("upstream unreachable: IOException: HTTP/1.1 header parser received no bytes");
			assertThat(rig.upstream.received("/v1/chat/completions")).hasSize(2);
			assertThat(rig.gateway.metrics().upstreamRetries()).isEqualTo(1);
			assertThat(rig.gateway.metrics().upstreamErrors()).isEqualTo(1);
		}
	}
}
