package dev.fakbattery.bench.floors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("Floor commands for a fak binary")
class FloorCommandsTests {

	private static final Map<FloorArtifact, String> SEED_STEP = Map.of(FloorArtifact.SWEBENCH_FLOOR, "swebench_floor_20",
			FloorArtifact.TURNTAX, "turntax_airline", FloorArtifact.SESSIONBENCH, "sessionbench_synthetic",
			FloorArtifact.FANBENCH, "fanbench_research", FloorArtifact.RADIXBENCH, "radixbench_synthetic");

	private final FloorCommands commands = new FloorCommands("/opt/fak/bin/fak", Path.of("experiments/vllm"),
			Optional.of(Path.of("testdata/swebench_verified_20_difficulty.json")), 20);

	@ParameterizedTest(name = "{0}")
	@EnumSource(FloorArtifact.class)
	@DisplayName("each command is fak's final-check argv with go run ./cmd/<x> replaced by the binary")
	void commandIsTheSeedsTranslated(FloorArtifact floor) throws IOException {
		JsonNode step = seedStep(SEED_STEP.get(floor));

		FloorCommand command = commands.command(floor);

		assertThat(command.argv()).containsExactlyElementsOf(translated(step.path("command").path("argv")));
		assertThat(command.primaryArtifact()).isEqualTo(Path.of(step.path("primary_artifact").asText()));
		List<Path> artifacts = new ArrayList<>();
		step.path("artifacts").forEach(a -> artifacts.add(Path.of(a.asText())));
		assertThat(command.artifacts()).containsExactlyElementsOf(artifacts);
	}

	@Test
	@DisplayName("all five commands, in floor order, write under the output folder")
	void allCommands() {
		FloorCommands other = new FloorCommands("fak", Path.of("/data/floors"), Optional.empty(), 20);

		assertThat(other.all()).extracting(FloorCommand::floor).containsExactly(FloorArtifact.values());
		assertThat(other.command(FloorArtifact.SWEBENCH_FLOOR).argv()).doesNotContain("--difficulty")
				.contains("/data/floors/swebench-20-fak-floor.json");
	}

	@Test
	@DisplayName("an unset binary fails with the fix")
	void blankBinaryFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FloorCommands(" ", Path.of("x"), Optional.empty(), 20))
				.withMessage("the floors binary is not configured: set -Dfloors.bin=/path/to/fak");
	}

	/** {@code go run ./cmd/fak X} becomes {@code <bin> X}; {@code go run ./cmd/<tool>} becomes {@code <bin> <tool>}. */
	private static List<String> translated(JsonNode argv) {
		List<String> seed = new ArrayList<>();
		argv.forEach(a -> seed.add(a.asText()));
		assertThat(seed.subList(0, 2)).containsExactly("go", "run");
		String tool = seed.get(2).substring("./cmd/".length());
		List<String> result = new ArrayList<>(List.of("/opt/fak/bin/fak"));
		if (!tool.equals("fak")) {
			result.add(tool);
		}
		result.addAll(seed.subList(3, seed.size()));
		return result;
	}

	private static JsonNode seedStep(String id) throws IOException {
		JsonNode finalCheck = Json.MAPPER.readTree(FloorChecksTests.resources().resolve("seed-final-check.json").toFile());
		for (JsonNode step : finalCheck.path("steps")) {
			if (step.path("id").asText().equals(id)) {
				return step;
			}
		}
		throw new IllegalStateException("no step " + id + " in fak's final check");
	}
}
