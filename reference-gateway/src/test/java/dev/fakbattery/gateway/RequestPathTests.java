package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.WireFixtures;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("request path, headers and the other routes")
@EveryFront
class RequestPathTests {

	private final HttpFront front;

	RequestPathTests(HttpFront front) {
		this.front = front;
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "{\"model\":", "[1,2]", "" })
	@DisplayName("a body that is not a JSON object is a 400 and reaches no engine")
	void badJson(String body) {
		try (Rig rig = Rig.start(front, "vllm")) {
			Answer answer = rig.chat(body);

			assertThat(answer.status()).isEqualTo(400);
			assertThat(answer.body()).isEqualTo(
					"{\"error\":{\"message\":\"request body is not a JSON object\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}");
			assertThat(answer.contentType()).isEqualTo("application/json");
			assertThat(rig.upstream.received("/v1/chat/completions")).isEmpty();
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "{\"model\":\"m\"}", "{\"model\":\"m\",\"messages\":[]}", "{\"model\":\"m\",\"messages\":null}",
		"{\"model\":\"m\",\"messages\":\"hi\"}" })
	@DisplayName("missing or empty messages is a 400 naming the param")
	void missingMessages(String body) {
		try (Rig rig = Rig.start(front, "sglang")) {
			Answer answer = rig.chat(body);

			assertThat(answer.status()).isEqualTo(400);
			assertThat(answer.body()).isEqualTo(
					"{\"error\":{\"message\":\"'messages' must be a non-empty array\",\"type\":\"BadRequestError\",\"param\":\"messages\",\"code\":400}}");
			assertThat(rig.upstream.received("/v1/chat/completions")).isEmpty();
			assertThat(rig.gateway.metrics().requests()).isEqualTo(1);
		}
	}

	@ParameterizedTest(name = "stream={0}")
	@ValueSource(booleans = { true, false })
	@DisplayName("X-Request-Id and Authorization reach the engine; the engine's X-Request-Id comes back")
	void requestIdBothWays(boolean stream) {
		try (Rig rig = Rig.start(front, "vllm")) {
			UpstreamDouble.Reply fixture = UpstreamDouble.fixture("kit/vllm/tool-call-mixed");
			rig.upstream.chat((exchange, request) -> {
				exchange.getResponseHeaders().set("X-Request-Id", "echo-" + request.headers().getFirst("X-Request-Id"));
				fixture.send(exchange, request);
			});
			Answer answer = rig.chat(GatewayClient.request("m", stream), "X-Request-Id", "req-7f3a", "Authorization", "Bearer token-1");

			UpstreamDouble.Received forwarded = rig.upstream.chatRequest();
			assertThat(forwarded.headers().getFirst("X-Request-Id")).isEqualTo("req-7f3a");
			assertThat(forwarded.headers().getFirst("Authorization")).isEqualTo("Bearer token-1");
			assertThat(answer.headers().firstValue("X-Request-Id")).contains("echo-req-7f3a");
		}
	}

	@Test
	@DisplayName("without an engine X-Request-Id the client's own comes back")
	void requestIdEchoedWhenEngineSendsNone() {
		try (Rig rig = Rig.start(front, "vllm")) {
			rig.upstream.chat(UpstreamDouble.fixture("vllm/chat-text"));
			Answer answer = rig.chat(GatewayClient.request("m", false), "X-Request-Id", "req-42");

			assertThat(answer.headers().firstValue("X-Request-Id")).contains("req-42");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("GET /v1/models passes through: status, body, content type")
	void modelsPassThrough(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			rig.upstream.models(UpstreamDouble.status(200, "application/json; charset=utf-8", WireFixtures.bytes(engine + "/models.json")));
			Answer answer = GatewayClient.get(URI.create(rig.base() + "/models"));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo(WireFixtures.read(engine + "/models.json"));
			assertThat(answer.contentType()).isEqualTo("application/json; charset=utf-8");
			rig.upstream.models(
					UpstreamDouble.status(401, "application/json", "{\"error\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8)));
			Answer denied = GatewayClient.get(URI.create(rig.base() + "/models"));
			assertThat(denied.status()).isEqualTo(401);
			assertThat(denied.body()).isEqualTo("{\"error\":\"Unauthorized\"}");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "/version", "/get_server_info", "/props" })
	@DisplayName("the engines' identity endpoints pass through as a faithful proxy's would: status, body, content type, Server")
	void identityPassThrough(String path) {
		try (Rig rig = Rig.start(front, "vllm")) {
			String root = "http://127.0.0.1:" + rig.gateway.port();
			Answer missing = GatewayClient.get(URI.create(root + path));
			assertThat(missing.status()).isEqualTo(404);
			assertThat(missing.body()).isEqualTo("no route " + path);
			rig.upstream.route(path, (exchange, request) -> {
				exchange.getResponseHeaders().set("Server", "uvicorn");
				UpstreamDouble.send(exchange, 200, "application/json", "{\"version\":\"0.11.0\"}");
			});
			Answer answer = GatewayClient.get(URI.create(root + path));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo("{\"version\":\"0.11.0\"}");
			assertThat(answer.contentType()).isEqualTo("application/json");
			assertThat(answer.headers().firstValue("Server")).contains("uvicorn");
			assertThat(rig.upstream.received(path)).hasSize(2);
		}
	}

	@ParameterizedTest(name = "{0}")
	@org.junit.jupiter.params.provider.EnumSource(HttpFront.class)
	@DisplayName("every HTTP front relays the engine's /version and Server header")
	void identityThroughEveryFront(HttpFront front) {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = ReferenceGateway.builder()
						.front(front)
						.upstream(upstream.v1())
						.front(front)
						.policy(dev.fakbattery.gateway.policy.PolicyLoader.kitConvention())
						.port(0)
						.build()
						.start()) {
			upstream.route("/version", (exchange, request) -> {
				exchange.getResponseHeaders().set("Server", "fak-battery-engine-double");
				UpstreamDouble.send(exchange, 200, "application/json", "{\"version\":\"0.29.0+engine-double\"}");
			});
			Answer answer = GatewayClient.get(URI.create("http://127.0.0.1:" + gateway.port() + "/version"));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo("{\"version\":\"0.29.0+engine-double\"}");
			assertThat(answer.headers().allValues("Server")).containsExactly("fak-battery-engine-double");
		}
	}

	@Test
	@DisplayName("the engine's Server header comes back on /v1/models and on chat; without one the gateway sends none")
	void serverHeaderPassesThrough() {
		try (Rig rig = Rig.start(front, "vllm")) {
			assertThat(GatewayClient.get(URI.create(rig.base() + "/models")).headers().firstValue("Server")).isEmpty();
			rig.upstream.models((exchange, request) -> {
				exchange.getResponseHeaders().set("Server", "fak-battery-engine-double");
				UpstreamDouble.send(exchange, 200, "application/json", WireFixtures.bytes("vllm/models.json"));
			});
			rig.upstream.chat((exchange, request) -> {
				exchange.getResponseHeaders().set("Server", "fak-battery-engine-double");
				UpstreamDouble.fixture("vllm/chat-text").send(exchange, request);
			});

			assertThat(GatewayClient.get(URI.create(rig.base() + "/models")).headers().firstValue("Server"))
					.contains("fak-battery-engine-double");
			assertThat(rig.chat(GatewayClient.request("m", false)).headers().firstValue("Server")).contains("fak-battery-engine-double");
		}
	}

	@Test
	@DisplayName("GET /healthz names the engine and the upstream")
	void health() {
		try (Rig rig = Rig.start(front, "sglang")) {
			Answer answer = GatewayClient.get(URI.create("http://127.0.0.1:" + rig.gateway.port() + "/healthz"));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.body()).isEqualTo("{\"ok\":true,\"engine\":\"sglang\",\"upstream\":\"" + rig.upstream.v1() + "\"}");
		}
	}

	@Test
	@DisplayName("GET /metrics counts requests, adjudications by action and upstream errors as Prometheus text")
	void metrics() {
		try (Rig rig = Rig.start(front, "vllm")) {
			rig.upstream.chat(UpstreamDouble.fixture("kit/vllm/tool-call-mixed"));
			rig.chat(GatewayClient.request("m", true));
			rig.chat(GatewayClient.request("m", false));
			rig.upstream.chat(UpstreamDouble.status(400, "application/json", WireFixtures.bytes("vllm/error-400.json")));
			rig.chat(GatewayClient.request("m", false));
			Answer answer = GatewayClient.get(URI.create("http://127.0.0.1:" + rig.gateway.port() + "/metrics"));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
			assertThat(answer.body()).contains(
					"# TYPE fak_gateway_requests_total counter\nfak_gateway_requests_total 3\n",
					"fak_gateway_adjudications_total{action=\"ALLOW\"} 2\n",
					"fak_gateway_adjudications_total{action=\"DENY\"} 2\n",
					"fak_gateway_adjudications_total{action=\"TRANSFORM\"} 2\n",
					"fak_gateway_quarantines_total 0\n",
					"fak_gateway_upstream_errors_total 1\n",
					"# TYPE fak_gateway_active_streams gauge\nfak_gateway_active_streams 0\n");
		}
	}

	@Test
	@DisplayName("unknown routes are 404 and other methods 405, OpenAI-shaped")
	void routes() {
		try (Rig rig = Rig.start(front, "vllm")) {
			Answer unknown = GatewayClient.get(URI.create(rig.base() + "/completions"));
			Answer wrongMethod = GatewayClient.get(URI.create(rig.base() + "/chat/completions"));

			assertThat(unknown.status()).isEqualTo(404);
			assertThat(unknown.body()).isEqualTo(
					"{\"error\":{\"message\":\"no route /v1/completions\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}}");
			assertThat(wrongMethod.status()).isEqualTo(405);
			assertThat(wrongMethod.body()).isEqualTo(
					"{\"error\":{\"message\":\"method GET not allowed, use POST\",\"type\":\"MethodNotAllowed\",\"param\":null,\"code\":405}}");
		}
	}

	@Test
	@DisplayName("an engine that cannot be reached is a 502")
	void upstreamUnreachable() {
		UpstreamDouble gone = UpstreamDouble.start();
		URI v1 = gone.v1();
		gone.close();
		try (ReferenceGateway gateway = ReferenceGateway.builder().front(front).upstream(v1).build().start()) {
			Answer answer = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false));

			assertThat(answer.status()).isEqualTo(502);
			assertThat(answer.json().at("/error/message").textValue()).startsWith("upstream unreachable: ConnectException");
			assertThat(answer.json().at("/error/type").textValue()).isEqualTo("BadGatewayError");
			assertThat(gateway.metrics().upstreamErrors()).isEqualTo(1);
		}
	}
}
