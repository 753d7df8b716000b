package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The tax rung asks the engine behind {@code base.url} who it is: the engine double reached through a URL is
 * SIMULATED, never PASS, and under {@code -Pgpu} the rung fails naming the double.
 */
@DisplayName("rung 3 tax against the engine double behind base.url")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class TaxRungSelfTests {

	@TempDir
	Path dir;

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "taxWitness, adjudication-tax-witness.json", "concurrencySweep, concurrency-sweep.json" })
	@DisplayName("SIMULATED under -Pgpu, and the rung fails naming the double")
	void doubleBehindBaseUrlFailsUnderGpu(String method, String file) throws Exception {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).completionTokens(8).start()) {
			EngineTestKit.engine("junit-jupiter")
					.selectors(selectMethod(TaxRungTests.class, method, "dev.fakbattery.core.RungRecorder"))
					.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.PROFILE, "gpu",
							HarnessConstants.BASE_URL, engine.baseUrl(), HarnessConstants.MODEL, engine.model(),
							HarnessConstants.TAX_COUNT, "2", HarnessConstants.SWEEP_CONCURRENCY, "1", HarnessConstants.SWEEP_WARMUP_S, "1",
							HarnessConstants.EXPERIMENTS_DIR,
							dir.toString(), HarnessConstants.BASELINE_FILE, dir.resolve("baseline.json").toString(),
							HarnessConstants.ALLOW_PENDING, "false")))
					.execute()
					.testEvents()
					.assertThatEvents()
					.haveExactly(1, event(test(method), finishedWithFailure(message(m -> m.startsWith("SIMULATED: rung 3 tax")
							&& m.contains("is the engine double: its version [0.29.0+engine-double]")))));
			JsonNode artifact = Json.MAPPER.readTree(dir.resolve(file).toFile());
			assertThat(artifact.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
			assertThat(artifact.path("target").path("engine").path("origin").asText()).isEqualTo("base.url");
			assertThat(artifact.path("simulated").asText()).startsWith("the engine at " + engine.baseUrl() + " is the engine double");
			assertThat(artifact.path("verdict").asText()).isIn("SIMULATED", "PENDING_MEASUREMENT").isNotEqualTo("PASS");
		}
	}

	@Test
	@DisplayName("the reference gateway as base.url under -Pgpu: a misconfiguration naming base.url (PENDING), never a verdict about it")
	void referenceGatewayAsBaseUrlIsAMisconfiguration() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).completionTokens(8).start();
				GatewayUnderTest front = GatewayLauncher.embedded(URI.create(engine.baseUrl()), Dialect.VLLM)) {
			EngineTestKit.engine("junit-jupiter")
					.selectors(selectMethod(TaxRungTests.class, "taxWitness", "dev.fakbattery.core.RungRecorder"))
					.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.PROFILE, "gpu",
							HarnessConstants.BASE_URL, front.baseUrl().toString(), HarnessConstants.MODEL, engine.model(),
							HarnessConstants.TAX_COUNT, "2", HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
							HarnessConstants.BASELINE_FILE, dir.resolve("baseline.json").toString(), HarnessConstants.ALLOW_PENDING,
							"false")))
					.execute()
					.testEvents()
					.assertThatEvents()
					.haveExactly(1,
							event(test("taxWitness"), finishedWithFailure(message(m -> m.contains("(base.url) is a gateway, not an engine")
									&& m.contains("-Dgateway.url")))));
			JsonNode artifact = Json.MAPPER.readTree(dir.resolve("adjudication-tax-witness.json").toFile());
			assertThat(artifact.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
			assertThat(artifact.path("target").path("engine").path("base_url").asText()).isEqualTo(front.baseUrl().toString());
			assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
			assertThat(artifact.path("summary").path("pending_reason").asText()).contains("is a gateway, not an engine")
					.doesNotContain("unidentified engine");
		}
	}
}
