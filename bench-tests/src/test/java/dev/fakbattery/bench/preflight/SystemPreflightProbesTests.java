package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.core.process.CommandResult;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Endpoint probes: /v1/models and /version")
class SystemPreflightProbesTests {

	/** The shape of a vLLM /v1/models reply, constructed for the test. */
	private static final String MODELS = "{\"object\":\"list\",\"data\":[{\"id\":\"glm-5.2\",\"object\":\"model\","
			+ "\"owned_by\":\"vllm\",\"root\":\"zai-org/GLM-5.2-FP8\",\"max_model_len\":131072}]}";

	private HttpServer server;
	private final SystemPreflightProbes probes = new SystemPreflightProbes(argv -> new CommandResult(0, "", ""),
			HttpClient.newHttpClient(), "python", Duration.ofSeconds(5));

	@BeforeEach
	void start() throws IOException {
		server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/v1/models", exchange -> reply(exchange, 200, MODELS));
		server.createContext("/version", exchange -> reply(exchange, 200, "{\"version\":\"0.11.0\"}"));
		server.start();
	}

	@AfterEach
	void stop() {
		server.stop(0);
	}

	@Test
	@DisplayName("reads the served name and max_model_len")
	void readsServedModels() {
		ServedModels models = probes.models(v1());

		assertThat(models.httpStatus()).isEqualTo(200);
		assertThat(models.ids()).containsExactly("glm-5.2");
		assertThat(models.model("glm-5.2").orElseThrow().maxModelLen()).isEqualTo(OptionalLong.of(131072));
	}

	@Test
	@DisplayName("reads the engine version at the root, not under /v1")
	void readsVersion() {
		EngineVersionInfo version = probes.version(URI.create(v1() + "/"));

		assertThat(version.version()).contains("0.11.0");
	}

	@Test
	@DisplayName("a non-200 reply serves no model and keeps the body")
	void errorReplyServesNothing() {
		server.removeContext("/v1/models");
		server.createContext("/v1/models", exchange -> reply(exchange, 503, "{\"error\":\"loading\"}"));

		ServedModels models = probes.models(v1());

		assertThat(models.httpStatus()).isEqualTo(503);
		assertThat(models.models()).isEmpty();
		assertThat(models.bodyExcerpt()).isEqualTo("{\"error\":\"loading\"}");
	}

	@Test
	@DisplayName("a refused connection is status 0 with the error, not an exception")
	void refusedConnection() {
		URI closed = v1();
		server.stop(0);

		ServedModels models = probes.models(closed);

		assertThat(models.httpStatus()).isZero();
		assertThat(models.bodyExcerpt()).startsWith("ConnectException").endsWith("(GET " + closed + "/models)");
	}

	@Test
	@DisplayName("an unparsable body reports no version")
	void unparsableVersion() {
		assertThat(EngineVersionInfo.parse(HttpReply.of(200, "not json")).version()).isEmpty();
		assertThat(ServedModels.parse(HttpReply.of(200, "not json")).models()).isEmpty();
	}

	private URI v1() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
	}

	private static void reply(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}
}
