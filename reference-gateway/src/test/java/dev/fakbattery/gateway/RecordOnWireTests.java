package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("the adjudication record: off the wire unless asked for, always in the record log")
@EveryFront
class RecordOnWireTests {

	private final HttpFront front;

	RecordOnWireTests(HttpFront front) {
		this.front = front;
	}

	private final List<String> log = new CopyOnWriteArrayList<>();

	private ReferenceGateway gateway(UpstreamDouble upstream, boolean recordOnWire) {
		return ReferenceGateway.builder()
				.front(front)
				.upstream(upstream.v1())
				.policy(PolicyLoader.kitConvention())
				.engine(Dialect.VLLM)
				.recordOnWire(recordOnWire)
				.recordLog(log::add)
				.build()
				.start();
	}

	@Test
	@DisplayName("a plain non-stream request gets the engine's body adjudicated, with no adjudication key; the log has the record")
	void plainNonStream() {
		try (UpstreamDouble upstream = UpstreamDouble.start(); ReferenceGateway gateway = gateway(upstream, false)) {
			upstream.chat(UpstreamDouble.fixture("kit/vllm/tool-call-mixed"));
			Answer answer = GatewayClient.plainChat(gateway.baseUrl(), GatewayClient.request("m", false), "X-Request-Id", "rid-1");

			assertThat(answer.json().has("adjudication")).isFalse();
			assertThat(answer.body()).doesNotContain("deny_write");
			assertThat(Awaiting.until(() -> !log.isEmpty(), java.time.Duration.ofSeconds(5))).isTrue();
			assertThat(log).singleElement().satisfies(line -> {
				assertThat(line).startsWith("adjudication {\"request_id\":\"rid-1\",\"calls\":[");
				assertThat(WireJson.readObject(line.substring("adjudication ".length())).at("/calls/1/action").textValue())
						.isEqualTo("DENY");
			});
		}
	}

	@Test
	@DisplayName("a plain stream is chunks and [DONE] only: no event: adjudication, nothing a client would misread as a chunk")
	void plainStream() {
		try (UpstreamDouble upstream = UpstreamDouble.start(); ReferenceGateway gateway = gateway(upstream, false)) {
			upstream.chat(UpstreamDouble.fixture("kit/vllm/tool-call-mixed"));
			Answer answer = GatewayClient.plainChat(gateway.baseUrl(), GatewayClient.request("m", true));

			List<SseEvent> events = answer.events();
			assertThat(events).allSatisfy(event -> assertThat(event.event()).isEmpty());
			assertThat(events.getLast().isDone()).isTrue();
			assertThat(events.subList(0, events.size() - 1))
					.allSatisfy(event -> assertThat(event.json().orElseThrow().get("object").textValue())
							.isEqualTo("chat.completion.chunk"));
			assertThat(answer.body()).doesNotContain("deny_write").doesNotContain("adjudication");
			assertThat(Awaiting.until(() -> log.size() == 1, java.time.Duration.ofSeconds(5))).isTrue();
		}
	}

	@ParameterizedTest(name = "stream={0}")
	@ValueSource(booleans = { false, true })
	@DisplayName("with --record-on-wire every answer carries the record, asked for or not")
	void recordOnWire(boolean stream) {
		try (UpstreamDouble upstream = UpstreamDouble.start(); ReferenceGateway gateway = gateway(upstream, true)) {
			upstream.chat(UpstreamDouble.fixture("kit/vllm/tool-call-mixed"));
			Answer answer = GatewayClient.plainChat(gateway.baseUrl(), GatewayClient.request("m", stream));

			if (stream) {
				assertThat(answer.events().get(answer.events().size() - 2).event()).contains("adjudication");
			}
			else {
				assertThat(answer.json().at("/adjudication/calls")).hasSize(3);
			}
		}
	}

	@ParameterizedTest(name = "stream={0}")
	@ValueSource(booleans = { false, true })
	@DisplayName("a 429 passes through with its Retry-After header")
	void retryAfter(boolean stream) {
		byte[] body = "{\"error\":{\"message\":\"rate limited\",\"type\":\"RateLimitError\",\"param\":null,\"code\":429}}"
				.getBytes(StandardCharsets.UTF_8);
		try (UpstreamDouble upstream = UpstreamDouble.start(); ReferenceGateway gateway = gateway(upstream, false)) {
			upstream.chat((exchange, request) -> {
				exchange.getResponseHeaders().set("Retry-After", "7");
				UpstreamDouble.send(exchange, 429, "application/json", body);
			});
			Answer answer = GatewayClient.plainChat(gateway.baseUrl(), GatewayClient.request("m", stream));

			assertThat(answer.status()).isEqualTo(429);
			assertThat(answer.headers().firstValue("Retry-After")).contains("7");
			assertThat(answer.body()).isEqualTo(new String(body, StandardCharsets.UTF_8));
		}
	}
}
