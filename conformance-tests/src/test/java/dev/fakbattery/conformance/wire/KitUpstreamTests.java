package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The kit's upstream answers each request with the fixture its marker selects, in stub order, and remembers it. */
@DisplayName("the kit's upstream: which fixture answers, and what it received")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KitUpstreamTests {

	private final KitUpstream upstream = new KitUpstream(Dialect.VLLM, 0, true);

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@AfterAll
	void close() {
		upstream.close();
		client.close();
	}

	private HttpResponse<String> post(String path, String body, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(upstream.url().resolve(path))
				.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String chat(String text, boolean stream) {
		return "{\"model\": \"m\", \"stream\": " + stream + ", \"messages\": [{\"role\": \"user\", \"content\": \"" + text + "\"}]}";
	}

	@Test
	@DisplayName("a scenario's marker selects its recorded answer, whole or streamed as the request asks")
	void scenarioFixtures() throws Exception {
		HttpResponse<String> whole = post(KitUpstream.CHAT, chat(Scenario.TEXT.marker() + " nonce=a1", false));
		HttpResponse<String> streamed = post(KitUpstream.CHAT, chat(Scenario.TEXT.marker() + " nonce=a2", true));

		assertThat(whole.statusCode()).isEqualTo(200);
		assertThat(whole.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(whole.body()).isEqualTo(KitFixtures.read(Scenario.TEXT.fixture(Dialect.VLLM, false)));
		assertThat(streamed.headers().firstValue("Content-Type")).hasValue("text/event-stream");
		assertThat(streamed.body()).isEqualTo(KitFixtures.read(Scenario.TEXT.fixture(Dialect.VLLM, true)));
	}

	@Test
	@DisplayName("the marker must end in a space: a longer marker that starts with it is not it")
	void markerEndsInASpace() throws Exception {
		HttpResponse<String> answer = post(KitUpstream.CHAT, chat(Scenario.TEXT.marker() + "-other nonce=b1", false));

		assertThat(answer.statusCode()).isEqualTo(404);
		assertThat(answer.body()).contains("has no answer for POST /v1/chat/completions");
	}

	@Test
	@DisplayName("a body the engine cannot read gets the engine's own 400 in its dialect, not the kit's 404")
	void unreadableBodies() throws Exception {
		HttpResponse<String> notJson = post(KitUpstream.CHAT, "{not json");
		HttpResponse<String> noMessages = post(KitUpstream.CHAT, "{\"model\": \"m\"}");
		HttpResponse<String> notAnObject = post(KitUpstream.CHAT, "[1]");

		assertThat(notJson.statusCode()).isEqualTo(400);
		assertThat(notJson.body()).isEqualTo("{\"error\":{\"message\":\"JSON decode error\",\"type\":\"BadRequestError\",\"param\":null,"
				+ "\"code\":400}}").isEqualTo(upstream.badInput400());
		assertThat(noMessages.statusCode()).isEqualTo(400);
		assertThat(noMessages.body()).contains("'loc': ('body', 'messages'), 'msg': 'Field required'", "BadRequestError");
		assertThat(notAnObject.statusCode()).isEqualTo(400);
		try (KitUpstream sglang = new KitUpstream(Dialect.SGLANG, 0, true)) {
			HttpResponse<String> flat = client.send(HttpRequest.newBuilder(sglang.url().resolve(KitUpstream.CHAT))
					.POST(HttpRequest.BodyPublishers.ofString("{not json"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(flat.statusCode()).isEqualTo(400);
			assertThat(flat.body()).isEqualTo("{\"object\":\"error\",\"message\":\"JSON decode error\",\"type\":\"Bad Request\","
					+ "\"param\":null,\"code\":400}");
		}
	}

	@Test
	@DisplayName("empty messages get the engine's 400; an error marker its status and, for 429, Retry-After")
	void errors() throws Exception {
		HttpResponse<String> empty = post(KitUpstream.CHAT, "{\"model\": \"m\", \"messages\": []}");
		HttpResponse<String> limited = post(KitUpstream.CHAT,
				chat(KitUpstream.errorMarker("kit/vllm/error-429") + " nonce=c1", false));

		assertThat(empty.statusCode()).isEqualTo(400);
		assertThat(empty.body()).isEqualTo(KitFixtures.read("vllm/error-400.json"));
		assertThat(limited.statusCode()).isEqualTo(429);
		assertThat(limited.headers().firstValue("Retry-After")).hasValue(KitUpstream.RETRY_AFTER);
	}

	@Test
	@DisplayName("a capture stubbed later wins over a fixture of the same priority and marker")
	void laterStubWins() throws Exception {
		String marker = Scenario.MIXED.marker();
		upstream.stubCapture(marker, "data: captured\n\n", 200, "{\"captured\": true}", 200);

		assertThat(post(KitUpstream.CHAT, chat(marker + " nonce=d1", false)).body()).isEqualTo("{\"captured\": true}");
		assertThat(post(KitUpstream.CHAT, chat(marker + " nonce=d2", true)).body()).isEqualTo("data: captured\n\n");
	}

	@Test
	@DisplayName("remembers each request with its body and headers, and counts cache resets")
	void journal() throws Exception {
		int resets = upstream.cacheResets();
		post(KitUpstream.CHAT, chat(Scenario.TEXT.marker() + " nonce=e1", false), "X-Request-Id", "kit-req-7");
		HttpResponse<String> reset = post(Dialect.VLLM.cacheResetPath(), "");

		assertThat(upstream.received("nonce=e1")).hasValueSatisfying(r -> {
			assertThat(r.body()).contains("nonce=e1");
			assertThat(r.header("x-request-id")).isEqualTo("kit-req-7");
		});
		assertThat(upstream.received("nonce=never")).isEmpty();
		assertThat(reset.statusCode()).isEqualTo(200);
		assertThat(upstream.cacheResets()).isEqualTo(resets + 1);
	}
}
