package dev.fakbattery.conformance.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("rung 0 contract, run against the engine double")
class ContractRungSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("embedded: SIMULATED, with the double's own context length, validated as written (schema included)")
	void embedded() throws Exception {
		run(Map.of()).assertStatistics(stats -> stats.succeeded(1));
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(contract.path("shared_config").path("context_length").asInt()).isEqualTo(32768);
		assertThat(contract.path("shared_config").path("quant").asText()).isEqualTo(ContractRungTests.DOUBLE_PRECISION);
		assertThat(contract.path("acceptance").path("schema").path("observed").asText()).isEqualTo(contract.path("schema").asText());
		assertThat(contract.path("measurements").get(0).path("name").asText()).isEqualTo("context_length");
	}

	@Test
	@DisplayName("a context length that is neither configured nor reported is PENDING_MEASUREMENT, never 131072")
	void unknownContextIsPending() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start()) {
			String gatewayUrl = engine.baseUrl();
			run(Map.of(HarnessConstants.BASE_URL, "http://127.0.0.1:9/v1", HarnessConstants.GATEWAY_URL, gatewayUrl,
					HarnessConstants.MODEL, "m", HarnessConstants.QUANT, "fp8")).assertStatistics(stats -> stats.aborted(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(contract.path("summary").path("pending_reason").asText()).isEqualTo("the engine's context length is neither "
				+ "configured nor reported by http://127.0.0.1:9/v1/models (set -Dcontext.length=N (the engine's --max-model-len))");
		assertThat(contract.has("shared_config")).isFalse();
	}

	private Events run(Map<String, String> config) {
		Map<String, String> all = new HashMap<>(config);
		all.put(HarnessConstants.EXPERIMENTS_DIR, dir.toString());
		all.put(HarnessConstants.ALLOW_PENDING, "true");
		all.put(HarnessConstants.PROFILE, "battery");
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(ContractRungTests.class))
			.configurationParameters(HarnessConfig.hermeticParameters(all)).execute().testEvents();
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("raw-vllm-vs-fak-gateway-contract.json").toFile());
	}
}
