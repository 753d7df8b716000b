package dev.fakbattery.bench.floors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("rung 5 floors over floors.dir")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class FloorsRungSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("fak's swebench floor passes its checks; the four absent floors keep the rung PENDING_MEASUREMENT")
	void seedSwebenchFloor() throws Exception {
		Path floors = Files.createDirectories(dir.resolve("floors"));
		copySeedFloor(floors.resolve("swebench-20-fak-floor.json"));
		Events tests = run(floors);
		tests.assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = Json.MAPPER.readTree(dir.resolve("out/floors-check.json").toFile());
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact.path("floors").findValuesAsText("status")).containsExactlyInAnyOrder("PASS", "MISSING", "MISSING", "MISSING",
				"MISSING");
		assertThat(artifact.path("acceptance").path("swebench_floor.workers").path("status").asText()).isEqualTo("PASS");
		assertThat(artifact.path("summary").path("headline").asText()).contains("swebench_floor PASS");
	}

	@Test
	@DisplayName("a mutated swebench floor fails the rung")
	void mutatedFloorFails() throws Exception {
		Path floors = Files.createDirectories(dir.resolve("floors"));
		copySeedFloor(floors.resolve("swebench-20-fak-floor.json"));
		Path file = floors.resolve("swebench-20-fak-floor.json");
		Files.writeString(file, Files.readString(file).replaceFirst("\"instances\": 20", "\"instances\": 19"));
		run(floors).assertStatistics(stats -> stats.failed(1));
		JsonNode artifact = Json.MAPPER.readTree(dir.resolve("out/floors-check.json").toFile());
		assertThat(artifact.path("verdict").asText()).isEqualTo("FAIL");
		assertThat(artifact.path("acceptance").path("swebench_floor.dataset_instances").path("status").asText()).isEqualTo("FAIL");
	}

	@Test
	@DisplayName("placeholder floors without provenance are PENDING_MEASUREMENT under -Pgpu, naming what is missing, never PASS")
	void placeholdersWithoutProvenance() throws Exception {
		Path floors = placeholders();
		run(floors, Map.of(HarnessConstants.PROFILE, "gpu")).assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact.path("floors").findValuesAsText("status")).containsOnly("PASS").hasSize(5);
		assertThat(artifact.path("pre_produced").path("source").asText()).isEqualTo(floors.toString());
		assertThat(artifact.path("pending").findValuesAsText("name")).contains("pre_produced.turntax-airline.json",
				"pre_produced.swebench-20-fak-floor.json");
		assertThat(artifact.path("summary").path("pending_reason").asText())
				.contains("pre-produced " + floors.resolve("turntax-airline.json")
						+ " has no provenance: missing producer, version, generated_at, "
						+ "binary_sha256 (or the artifact's own run.run_id and run.git_commit)")
				.contains("swebench-20-fak-floor.json has no provenance: missing producer, version, binary_sha256");
	}

	@Test
	@DisplayName("with PROVENANCE.json (producer, version, generated_at, the fak binary's sha256) they PASS, recorded as pre-produced")
	void placeholdersWithProvenance() throws Exception {
		Path floors = placeholders();
		Files.writeString(floors.resolve("PROVENANCE.json"), "{\"producer\": \"fak floors\", \"version\": \"v0.9.1\", "
				+ "\"generated_at\": \"2026-11-30T10:00:00Z\", \"binary_sha256\": \"" + "ab".repeat(32) + "\"}");
		run(floors, Map.of(HarnessConstants.PROFILE, "gpu")).assertStatistics(stats -> stats.succeeded(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("PASS");
		assertThat(artifact.path("summary").path("headline").asText()).startsWith("pre-produced: ");
		JsonNode turntax = artifact.path("pre_produced").path("artifacts").get(1);
		assertThat(turntax.path("file").asText()).isEqualTo(floors.resolve("turntax-airline.json").toString());
		assertThat(turntax.path("producer").asText()).isEqualTo("fak floors");
		assertThat(turntax.path("binary_sha256").asText()).isEqualTo("ab".repeat(32));
		assertThat(artifact.path("pre_produced").path("fixture").isNull()).isTrue();
		// fak's floor keeps its own generated_at over the folder's
		assertThat(artifact.path("pre_produced").path("artifacts").get(0).path("generated_at").asText()).isEqualTo("2026-06-26T02:31:12Z");

		Files.writeString(floors.resolve("PROVENANCE.json"),
				Files.readString(floors.resolve("PROVENANCE.json")).replace("ab".repeat(32), "not-a-hash"));
		run(floors, Map.of(HarnessConstants.PROFILE, "gpu")).assertStatistics(stats -> stats.aborted(1));
		assertThat(artifact().path("summary").path("pending_reason").asText()).contains("binary_sha256 (not a sha256: not-a-hash)");
	}

	@Test
	@DisplayName("the test fixtures are refused as floors.dir under -Pgpu and -Pbattery, naming the marker, even with fixtures.allowed")
	void fixturesRefused() throws Exception {
		Path fixtures = Path.of(getClass().getResource("/floors").toURI());
		for (Map<String, String> profile : List.of(Map.of(HarnessConstants.PROFILE, "gpu"), Map.of(HarnessConstants.PROFILE, "battery"),
				Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.FIXTURES_ALLOWED, "true"), Map.<String, String>of())) {
			run(fixtures, profile).assertStatistics(stats -> stats.failed(1));
			JsonNode artifact = artifact();
			assertThat(artifact.path("verdict").asText()).isEqualTo("FAIL");
			assertThat(artifact.path("acceptance").path("input_not_a_fixture").path("observed").asText())
					.startsWith("test fixture, not a measurement: FIXTURE file " + fixtures.resolve("FIXTURE"));
			assertThat(artifact.path("measurements")).isEmpty();
		}
		// a constructed file alone, without the folder's marker, is refused by its _fixture field
		Path one = Files.createDirectories(dir.resolve("one"));
		Files.copy(fixtures.resolve("turntax-airline.json"), one.resolve("turntax-airline.json"));
		run(one, Map.of(HarnessConstants.PROFILE, "gpu")).assertStatistics(stats -> stats.failed(1));
		assertThat(artifact().path("acceptance").path("input_not_a_fixture").path("observed").asText())
				.contains("_fixture field in " + one.resolve("turntax-airline.json"));
	}

	@Test
	@DisplayName("the self-tests opt in with fixtures.allowed=true in the default profile: read, still pending without provenance")
	void selfTestsOptIn() throws Exception {
		Path fixtures = Path.of(getClass().getResource("/floors").toURI());
		run(fixtures, Map.of(HarnessConstants.FIXTURES_ALLOWED, "true")).assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact.path("acceptance").has("input_not_a_fixture")).isFalse();
		assertThat(artifact.path("pre_produced").path("fixture").asText()).isEqualTo("FIXTURE file " + fixtures.resolve("FIXTURE"));
		assertThat(artifact.path("floors").findValuesAsText("status")).containsOnly("PASS");
	}

	@Test
	@DisplayName("floors.bin: a floor an earlier run left in experiments.dir/floors is removed first, never judged as this run's; the binary's sha256 is recorded")
	void staleFloorsOfAnEarlierRun() throws Exception {
		Path out = Files.createDirectories(dir.resolve("out/floors"));
		copySeedFloor(out.resolve("swebench-20-fak-floor.json"));
		Path bin = dir.resolve("fak");
		Files.writeString(bin, "#!/bin/sh\n# writes no floor\nexit 0\n");
		bin.toFile().setExecutable(true);
		runWith(Map.of(HarnessConstants.FLOORS_BIN, bin.toString())).assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = artifact();
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(out.resolve("swebench-20-fak-floor.json")).doesNotExist();
		assertThat(artifact.path("floors").findValuesAsText("status")).containsOnly("MISSING");
		assertThat(artifact.path("floors_bin_sha256").asText()).isEqualTo(java.util.HexFormat.of()
				.formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(bin))));
	}

	private Events run(Path floors) {
		return run(floors, Map.of());
	}

	private Events run(Path floors, Map<String, String> extra) {
		Map<String, String> parameters = new java.util.HashMap<>(Map.of(HarnessConstants.FLOORS_DIR, floors.toString()));
		parameters.putAll(extra);
		return runWith(parameters);
	}

	/** The rung with {@code extra} over pending allowed and {@code out/} as experiments.dir. */
	private Events runWith(Map<String, String> extra) {
		Map<String, String> parameters = new java.util.HashMap<>(Map.of(HarnessConstants.ALLOW_PENDING, "true",
				HarnessConstants.EXPERIMENTS_DIR, dir.resolve("out").toString()));
		parameters.putAll(extra);
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(FloorsRungTests.class))
				.configurationParameters(HarnessConfig.hermeticParameters(parameters))
				.execute()
				.testEvents();
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("out/floors-check.json").toFile());
	}

	/** The five floors of the test resources with their fixture markers taken off: placeholder values, no provenance. */
	private Path placeholders() throws Exception {
		Path fixtures = Path.of(getClass().getResource("/floors").toURI());
		Path floors = Files.createDirectories(dir.resolve("placeholders"));
		for (FloorArtifact floor : FloorArtifact.values()) {
			var doc = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(fixtures.resolve(floor.fileName()).toFile());
			doc.remove("_fixture");
			Json.MAPPER.writeValue(floors.resolve(floor.fileName()).toFile(), doc);
		}
		return floors;
	}

	private static void copySeedFloor(Path target) throws Exception {
		try (InputStream in = FloorsRungSelfTests.class.getResourceAsStream("/floors/swebench-20-fak-floor.json")) {
			Files.copy(in, target);
		}
	}
}
