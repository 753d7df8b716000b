package dev.fakbattery.bench.swebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PreProduced;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("rung 4 swebench-20 over a run folder it did not drive")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class SwebenchRungSelfTests {

	private static final String FIXTURE_URL = "http://127.0.0.1:8000/v1";

	@TempDir
	Path dir;

	/** A closed port: the rung probes the engine it names, and nothing answers there. */
	private String rawUrl;

	@BeforeEach
	void closedPort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0)) {
			rawUrl = "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
		}
	}

	@Test
	@DisplayName("the good fixture is refused outside the self-tests: FAIL under -Pgpu and -Pbattery, naming its FIXTURE marker")
	void goodFixtureRefused() throws Exception {
		Path good = RunDirFixture.good();
		for (Map<String, String> extra : List.of(Map.of(HarnessConstants.PROFILE, "gpu"), Map.of(HarnessConstants.PROFILE, "battery"),
				Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.FIXTURES_ALLOWED, "true"))) {
			run(good, FIXTURE_URL, extra).assertStatistics(stats -> stats.failed(1));
			JsonNode artifact = artifact();
			assertThat(artifact.path("verdict").asText()).isEqualTo("FAIL");
			assertThat(artifact.path("acceptance").path("input_not_a_fixture").path("observed").asText())
					.startsWith("test fixture, not a measurement: FIXTURE file " + good.resolve(PreProduced.FIXTURE_FILE));
			assertThat(artifact.path("acceptance")).hasSize(1);
			assertThat(artifact.path("summary").path("failure").asText()).contains("-D" + HarnessConstants.SWEBENCH_RUN_DIR);
		}
	}

	@Test
	@DisplayName("a copy without the FIXTURE file is still refused by its files' _fixture field")
	void fixtureFieldRefused() throws Exception {
		Path copy = copy();
		Files.delete(copy.resolve(PreProduced.FIXTURE_FILE));
		run(copy, rawUrl, Map.of(HarnessConstants.PROFILE, "gpu")).assertStatistics(stats -> stats.failed(1));
		assertThat(artifact().path("acceptance").path("input_not_a_fixture").path("observed").asText())
				.contains("_fixture field in " + copy.resolve(RunDirFiles.COMPARE_PREFLIGHT));
	}

	@Test
	@DisplayName("self-tests opt in (fixtures.allowed): without provenance PENDING naming it; PROVENANCE.json is recorded as pre-produced")
	void provenance() throws Exception {
		Path copy = copy();
		run(copy, rawUrl, Map.of(HarnessConstants.FIXTURES_ALLOWED, "true")).assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact.path("acceptance").path("input_not_a_fixture").isMissingNode()).isTrue();
		assertThat(artifact.path("acceptance").findValuesAsText("status")).containsOnly("PASS");
		assertThat(artifact.path("summary").path("pending_reason").asText())
				.contains(
						"pre-produced " + copy.resolve(RunDirFiles.COMPARE) + " has no provenance: missing producer, version, generated_at")
				.contains(copy.resolve(PreProduced.PROVENANCE_FILE).toString());

		Files.writeString(copy.resolve(PreProduced.PROVENANCE_FILE),
				"{\"producer\": \"tools/dgx_swebench_compare.py\", \"version\": \"cb06362\", "
						+ "\"generated_at\": \"2026-07-01T00:00:00Z\"}");
		run(copy, rawUrl, Map.of(HarnessConstants.FIXTURES_ALLOWED, "true"));
		artifact = artifact();
		// the fixture leaves per-arm token counts unrecorded (pending on their own); the provenance is no longer missing
		assertThat(artifact.path("summary").path("pending_reason").asText()).doesNotContain("pre-produced").contains("token_counts");
		assertThat(artifact.path("summary").path("headline").asText()).startsWith("pre-produced: compare valid");
		assertThat(artifact.path("pre_produced").path("source").asText()).isEqualTo(copy.toString());
		assertThat(artifact.path("pre_produced").path("artifacts").findValuesAsText("producer"))
				.containsOnly("tools/dgx_swebench_compare.py")
				.hasSize(2);
		assertThat(artifact.path("pre_produced").path("fixture").asText()).as("the gate never counts it")
				.isEqualTo("FIXTURE file " + copy.resolve(PreProduced.FIXTURE_FILE));
		assertThat(artifact.path("pre_produced").path("artifacts").findValues("missing")).hasSize(2)
				.allSatisfy(m -> assertThat(m).isEmpty());
	}

	/** The good fixture with its raw engine URL moved to a closed port. */
	private Path copy() throws Exception {
		Path copy = Files.createDirectories(dir.resolve("run"));
		RunDirFixture.copyGood(copy);
		for (String file : List.of(RunDirFiles.COMPARE_PREFLIGHT, RunDirFiles.COMPARE)) {
			Files.writeString(copy.resolve(file), Files.readString(copy.resolve(file)).replace(FIXTURE_URL, rawUrl));
		}
		return copy;
	}

	private Events run(Path runDir, String baseUrl, Map<String, String> extra) {
		Map<String, String> parameters = new HashMap<>(Map.of(HarnessConstants.SWEBENCH_RUN_DIR, runDir.toString(),
				HarnessConstants.BASE_URL, baseUrl, HarnessConstants.MODEL, "glm-5.2", HarnessConstants.CHECKPOINT_MODEL,
				"zai-org/GLM-5.2-FP8",
				HarnessConstants.GPU_NAME_REQUIRED, "H200", HarnessConstants.ALLOW_PENDING, "true",
				HarnessConstants.EXPERIMENTS_DIR, dir.resolve("out").toString()));
		parameters.putAll(extra);
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(SwebenchRungTests.class))
				.configurationParameters(HarnessConfig.hermeticParameters(parameters))
				.execute()
				.testEvents();
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("out/swebench-20-compare-check.json").toFile());
	}
}
