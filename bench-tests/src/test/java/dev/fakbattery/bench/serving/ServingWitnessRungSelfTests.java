package dev.fakbattery.bench.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("rung 2 serving witness, run against the engine double")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class ServingWitnessRungSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("the embedded default passes every check and is SIMULATED")
	void embeddedDefault() throws Exception {
		run(Map.of()).assertStatistics(stats -> stats.succeeded(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(artifact.path("acceptance").findValuesAsText("status")).hasSize(8).containsOnly("PASS");
		assertThat(artifact.path("gateway_quarantine").path("result_admission_kinds").findValuesAsText("")).isEmpty();
		assertThat(artifact.path("gateway_quarantine").path("result_admission_kinds").toString()).contains("injection", "secret");
		assertThat(artifact.path("gateway_quarantine").path("secret_reached_upstream").asBoolean(true)).isFalse();
	}

	@Test
	@DisplayName("a double behind base.url is still recognised and SIMULATED, never PASS")
	void doubleBehindBaseUrl() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start()) {
			run(Map.of(HarnessConstants.BASE_URL, engine.baseUrl(), HarnessConstants.MODEL, engine.model()))
					.assertStatistics(stats -> stats.succeeded(1));
		}
		assertThat(artifact().path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(artifact().path("simulated").asText()).contains("is the engine double: its version [0.29.0+engine-double]");
	}

	@Test
	@DisplayName("a GET a gateway forwards while it is health-checked (/v1/models) is not counted as a chat at the engine side")
	void healthCheckIsNotAChat() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start();
				dev.fakbattery.engine.hop.RelayHop hop = new dev.fakbattery.engine.hop.RelayHop(java.net.URI.create(engine.baseUrl()))) {
			java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
			client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(hop.url() + "/models")).build(),
					java.net.http.HttpResponse.BodyHandlers.discarding());
			assertThat(ServingWitnessRungTests.chatsForwarded(hop)).isZero();
			client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(hop.url() + "/chat/completions"))
					.header("Content-Type", "application/json")
					.POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"model\":\"" + engine.model()
							+ "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
					.build(), java.net.http.HttpResponse.BodyHandlers.discarding());
			assertThat(ServingWitnessRungTests.chatsForwarded(hop)).isEqualTo(1);
		}
	}

	@Test
	@DisplayName("a gateway that does not quarantine fails quarantine_flow")
	void gatewayWithoutQuarantineFails() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start()) {
			String classpath = System.getProperty("java.class.path");
			String passThrough = ChildJava.shellCommand() + " -cp '" + classpath + "'"
					+ " dev.fakbattery.bench.serving.PassThroughGateway {port} {upstream}";
			run(Map.of(HarnessConstants.BASE_URL, engine.baseUrl(), HarnessConstants.MODEL, engine.model(),
					HarnessConstants.GATEWAY_CMD, passThrough)).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("FAIL");
		assertThat(artifact.path("acceptance").path("quarantine_flow").path("status").asText()).isEqualTo("FAIL");
		assertThat(artifact.path("acceptance").path("quarantine_flow").path("observed").asText())
				.isEqualTo("HTTP 200, quarantine not recorded, secret in response false, secret upstream true");
		assertThat(artifact.path("acceptance").path("gateway_chat").path("status").asText()).isEqualTo("PASS");
	}

	@Test
	@DisplayName("a gateway that answers without asking the engine fails evidence_separation: its sample is not evidence")
	void cannedGatewayFailsEvidenceSeparation() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start()) {
			String classpath = System.getProperty("java.class.path");
			String canned = ChildJava.shellCommand() + " -cp '" + classpath + "'"
					+ " dev.fakbattery.bench.serving.CannedGateway {port}";
			run(Map.of(HarnessConstants.BASE_URL, engine.baseUrl(), HarnessConstants.MODEL, engine.model(),
					HarnessConstants.GATEWAY_CMD, canned)).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode separation = artifact().path("acceptance").path("evidence_separation");
		assertThat(separation.path("status").asText()).isEqualTo("FAIL");
		assertThat(separation.path("observed").asText()).isEqualTo("0 before, 0 during the gateway chat, prompt not seen upstream");
	}

	@Test
	@DisplayName("usage the engine did not report stays absent: no token count is ever written as 0")
	void missingUsageIsNotZero() {
		JsonNode perf = ChatProbe.sample("direct", new ChatProbe.Reply(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],"
				+ "\"usage\":{\"prompt_tokens\":5}}", 0.5, java.util.Optional.empty())).path("perf");
		assertThat(perf.path("prompt_tokens").asInt()).isEqualTo(5);
		assertThat(perf.has("completion_tokens")).isFalse();
		assertThat(perf.path("decode_tps").isNull()).isTrue();
	}

	private Events run(Map<String, String> config) {
		Map<String, String> all = new HashMap<>(config);
		all.put(HarnessConstants.EXPERIMENTS_DIR, dir.toString());
		all.put(HarnessConstants.ALLOW_PENDING, "true");
		all.put(HarnessConstants.PROFILE, "battery");
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(ServingWitnessRungTests.class))
				.configurationParameters(HarnessConfig.hermeticParameters(all))
				.execute()
				.testEvents();
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("full-size-serving-witness.json").toFile());
	}
}
