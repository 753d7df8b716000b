package dev.fakbattery.bench.headtohead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

@DisplayName("engine head-to-head, run against two engine doubles")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class EngineHeadToHeadSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("one row per engine with its disclosure, SIMULATED because both are doubles")
	void twoDoubles() throws Exception {
		try (EngineDouble vllm = EngineDouble.builder().timing(TimingModel.instant()).start();
				EngineDouble sglang = EngineDouble.builder().dialect(Dialect.SGLANG).timing(TimingModel.instant()).start()) {
			String rows = "vllm=" + vllm.baseUrl() + ",precision=bf16,batching=continuous;sglang=" + sglang.baseUrl()
					+ ",precision=bf16,batching=continuous";
			EngineTestKit.engine("junit-jupiter")
					.selectors(selectClass(EngineHeadToHeadTests.class))
					.configurationParameters(HarnessConfig
							.hermeticParameters(Map.of(HarnessConstants.ENGINE_COMPARE, rows, HarnessConstants.MODEL, vllm.model(),
									HarnessConstants.EXPERIMENTS_DIR, dir.toString(), HarnessConstants.ALLOW_PENDING, "true")))
					.execute()
					.testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
		}
		JsonNode artifact = Json.MAPPER.readTree(dir.resolve("engine-compare.json").toFile());
		assertThat(artifact.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(artifact.path("rows").findValuesAsText("engine")).containsExactly("vllm", "sglang");
		assertThat(artifact.path("rows").findValuesAsText("batching_regime")).containsOnly("continuous");
		assertThat(artifact.path("rows").get(1).path("load").path("completed").asInt()).isEqualTo(EngineHeadToHeadTests.REQUESTS);
	}

	@Test
	@DisplayName("a row without its disclosure is refused before anything runs: a misconfiguration, PENDING naming what to disclose, not a FAIL of any engine")
	void refusedRow() {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(EngineHeadToHeadTests.class))
				.configurationParameters(
						HarnessConfig.hermeticParameters(Map.of(HarnessConstants.ENGINE_COMPARE, "vllm=http://127.0.0.1:9/v1,precision=fp8",
								HarnessConstants.EXPERIMENTS_DIR, dir.toString())))
				.execute()
				.testEvents()
				.assertStatistics(stats -> stats.failed(1));
		assertThat(dir.resolve("engine-compare.json")).content()
				.contains("\"verdict\" : \"PENDING_MEASUREMENT\"", "does not disclose its batching");
	}
}
