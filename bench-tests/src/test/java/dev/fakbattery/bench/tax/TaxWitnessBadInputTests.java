package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.engine.Fault;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("tax witness on bad input")
class TaxWitnessBadInputTests {

	@TempDir
	Path dir;

	private RungRecorder run(Map<String, String> extra) {
		Map<String, String> values = new HashMap<>(Map.of(HarnessConstants.PROFILE, "default", HarnessConstants.EXPERIMENTS_DIR,
				dir.toString()));
		values.putAll(extra);
		return new RungRecorder(ArtifactId.TAX_WITNESS, HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));
	}

	private static Check check(RungRecorder run, String name) {
		return run.checks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
	}

	@Test
	@DisplayName("an unreachable base.url fails naming the URL, skips both arms and the gate says NO_BENCH")
	void unreachable() {
		RungRecorder run = run(Map.of());
		URI base = URI.create("http://127.0.0.1:9/v1");
		TaxWitness.run(run, TaxSettings.from(run.config()), TaxUpstream.node(base, Dialect.VLLM));
		Check upstream = check(run, "upstream_models");
		assertThat(upstream.passed()).isFalse();
		assertThat(upstream.observed()).startsWith("GET http://127.0.0.1:9/v1/models got no response");
		assertThat(check(run, "gateway_command").passed()).isFalse();
		assertThat(check(run, "raw_vllm_chat").observed()).startsWith("not run: the raw engine is not usable");
		assertThat(run.body().path("raw_vllm").path("samples").asInt()).isZero();
		assertThat(run.body().path("gateway").path("samples").asInt()).isZero();
		assertThat(run.body().path("gate").path("verdict").asText()).isEqualTo("NO_BENCH");
		assertThat(run.body().path("tax").path("latency_tax").isNull()).isTrue();
		assertThat(check(run, "regression_gate").observed()).startsWith("NO_BENCH");
		assertThat(run.invalidations()).isEmpty();
	}

	@Test
	@DisplayName("a base.url that is not OpenAI-compatible fails naming the URL and what came back")
	void notOpenAi() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
		server.createContext("/", exchange -> {
			byte[] page = "<html>router login</html>".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, page.length);
			exchange.getResponseBody().write(page);
			exchange.close();
		});
		server.start();
		try {
			RungRecorder run = run(Map.of());
			URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
			TaxWitness.run(run, TaxSettings.from(run.config()), TaxUpstream.node(base, Dialect.VLLM));
			assertThat(check(run, "upstream_models").observed()).isEqualTo("GET " + base
					+ "/models answered 200 but not an OpenAI model list (no data[].id): <html>router login</html>");
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	@DisplayName("a gateway that fails to start skips both arms and fails naming its log")
	void gatewayFailsToStart() throws IOException {
		RungRecorder run = run(
				Map.of(HarnessConstants.GATEWAY_CMD, "echo no such gateway; exit 3", HarnessConstants.GATEWAY_START_TIMEOUT_SEC, "5"));
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), TimingModel.instant(), java.time.Duration.ZERO)) {
			TaxWitness.run(run, TaxSettings.from(run.config()), upstream.upstream());
			Check gateway = check(run, "gateway_command");
			assertThat(gateway.passed()).isFalse();
			assertThat(gateway.observed()).contains("mode start-failed")
					.contains("exited with status 3")
					.contains(dir.resolve("logs").toString());
			assertThat(upstream.engine().requestCount()).isZero();
			assertThat(run.body().path("raw_vllm").path("samples").asInt()).isZero();
			assertThat(check(run, "raw_vllm_chat").observed()).startsWith("not run: the gateway did not start");
			assertThat(run.body().path("gate").path("verdict").asText()).isEqualTo("NO_BENCH");
		}
	}

	@Test
	@DisplayName("a gateway.url that does not answer skips both arms: the raw engine gets no measured request")
	void gatewayUrlSilent() throws IOException {
		RungRecorder run = run(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1"));
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), TimingModel.instant(), java.time.Duration.ZERO)) {
			TaxWitness.run(run, TaxSettings.from(run.config()), upstream.upstream());
			assertThat(check(run, "gateway_command").observed())
					.startsWith("mode start-failed: GET http://127.0.0.1:9/v1/models got no response");
			assertThat(upstream.engine().requestCount()).isZero();
			assertThat(check(run, "gateway_chat").observed())
					.startsWith("not run: the gateway did not start (gateway.url http://127.0.0.1:9/v1)");
		}
	}

	@Test
	@DisplayName("non-200 samples are counted and reported in the arm, and fail its check")
	void non200Counted() throws IOException {
		RungRecorder run = run(Map.of());
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), TimingModel.instant(), java.time.Duration.ZERO)) {
			for (int i = 0; i < 4; i++) {
				upstream.engine().nextFault(Fault.status(500));
			}
			TaxWitness.run(run, TaxSettings.from(run.config()), upstream.upstream());
			var raw = run.body().path("raw_vllm");
			assertThat(raw.path("samples").asInt()).isEqualTo(6);
			assertThat(raw.path("ok_samples").asInt()).isEqualTo(5);
			assertThat(raw.path("http_status_counts").path("500").asInt()).isEqualTo(1);
			assertThat(raw.path("leg_samples").get(0).path("status").asText()).isEqualTo("FAIL");
			assertThat(raw.path("leg_samples").get(0).path("body_excerpt").asText()).contains("error");
			assertThat(check(run, "raw_vllm_chat").passed()).isFalse();
			assertThat(check(run, "raw_vllm_chat").observed())
					.startsWith("6 conversations, 5/6 requests ok, HTTP status counts {200=5, 500=1}");
			assertThat(check(run, "raw_vllm_chat").product()).as("the engine answered 500: FAIL even on an invalid measurement").isTrue();
			assertThat(check(run, "gateway_chat").passed()).isTrue();
		}
	}
}
