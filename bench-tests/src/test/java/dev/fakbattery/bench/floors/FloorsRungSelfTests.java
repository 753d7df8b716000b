package dev.fakbattery.bench.floors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("rung 5 floors over floors.dir")
class FloorsRungSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("the seed's swebench floor passes its checks; the four absent floors keep the rung PENDING_MEASUREMENT")
	void seedSwebenchFloor() throws Exception {
		Path floors = Files.createDirectories(dir.resolve("floors"));
		copySeedFloor(floors.resolve("swebench-20-fak-floor.json"));
		Events tests = run(floors);
		tests.assertStatistics(stats -> stats.aborted(1));
		JsonNode artifact = Json.MAPPER.readTree(dir.resolve("out/floors-check.json").toFile());
		assertThat(artifact.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact.path("floors").findValuesAsText("status")).containsExactlyInAnyOrder("PASS", "MISSING", "MISSING", "MISSING", "MISSING");
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

	private Events run(Path floors) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(FloorsRungTests.class))
			.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.FLOORS_DIR, floors.toString(), HarnessConstants.ALLOW_PENDING, "true",
					HarnessConstants.EXPERIMENTS_DIR, dir.resolve("out").toString())))
			.execute().testEvents();
	}

	private static void copySeedFloor(Path target) throws Exception {
		try (InputStream in = FloorsRungSelfTests.class.getResourceAsStream("/floors/swebench-20-fak-floor.json")) {
			Files.copy(in, target);
		}
	}
}
