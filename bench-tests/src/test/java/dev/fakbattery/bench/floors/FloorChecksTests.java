package dev.fakbattery.bench.floors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("Floor identity checks")
class FloorChecksTests {

	@TempDir
	Path temp;

	@Test
	@DisplayName("fak's real SWE-bench floor passes with fak's detail")
	void seedSwebenchFloorPasses() {
		FloorEvaluation evaluation = FloorChecks.evaluate(FloorArtifact.SWEBENCH_FLOOR,
				resources().resolve("swebench-20-fak-floor.json"), 20);

		assertThat(evaluation.status()).isEqualTo(FloorStatus.PASS);
		assertThat(evaluation.checks()).extracting(Check::name)
				.containsExactly("swebench_floor.schema",
						"swebench_floor.dataset_instances", "swebench_floor.workers", "swebench_floor.families");
		assertThat(evaluation.detail()).isEqualTo("fak SWE-bench floor: 20 instances workers=[1,2,4,8]");
	}

	@Test
	@DisplayName("the floors folder passes: the real SWE-bench floor and four constructed fixtures")
	void floorsFolderPasses() {
		List<FloorEvaluation> evaluations = FloorChecks.evaluate(resources(), 20);

		assertThat(evaluations).extracting(FloorEvaluation::floor).containsExactly(FloorArtifact.values());
		assertThat(evaluations).allSatisfy(e -> assertThat(e.failed()).isEmpty())
				.extracting(FloorEvaluation::status)
				.containsOnly(FloorStatus.PASS);
		assertThat(evaluations).extracting(FloorEvaluation::detail)
				.containsExactly(
						"fak SWE-bench floor: 20 instances workers=[1,2,4,8]", "turntax-airline turns_saved=9",
						"sessionbench synthetic T=50 C=5 floor present", "fanbench research grid/trials present",
						"radixbench agents hit_rate=0.5");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("mutations")
	@DisplayName("a mutated floor fails exactly its own check")
	void mutatedFloorFailsItsOwnCheck(FloorArtifact floor, Consumer<ObjectNode> mutation, Check expected) throws IOException {
		Path file = temp.resolve(floor.fileName());
		ObjectNode doc = (ObjectNode) Json.MAPPER.readTree(resources().resolve(floor.fileName()).toFile());
		mutation.accept(doc);
		Json.MAPPER.writeValue(file.toFile(), doc);

		FloorEvaluation evaluation = FloorChecks.evaluate(floor, file, 20);

		assertThat(evaluation.status()).isEqualTo(FloorStatus.FAIL);
		assertThat(evaluation.failed()).containsExactly(expected);
		assertThat(evaluation.detail()).isEqualTo("failed: " + expected.name());
	}

	static Stream<Arguments> mutations() {
		return Stream.of(
				mutation(FloorArtifact.SWEBENCH_FLOOR, "19 instances", d -> ((ObjectNode) d.path("dataset")).put("instances", 19),
						"swebench_floor.dataset_instances", "dataset.instances 20", "dataset.instances 19"),
				mutation(FloorArtifact.SWEBENCH_FLOOR, "workers [1,2,4]", d -> ((ArrayNode) d.path("workers")).remove(3),
						"swebench_floor.workers", "workers [1,2,4,8]", "workers [1,2,4]"),
				mutation(FloorArtifact.SWEBENCH_FLOOR, "3 families", d -> ((ArrayNode) d.path("families")).remove(3),
						"swebench_floor.families", "at least 4 families", "3 families"),
				mutation(FloorArtifact.SWEBENCH_FLOOR, "wrong schema", d -> d.put("schema", "fak-swebench-compare/2"),
						"swebench_floor.schema", "schema \"fak-swebench-compare/1\"", "schema \"fak-swebench-compare/2\""),
				mutation(FloorArtifact.SWEBENCH_FLOOR, "instances as a string",
						d -> ((ObjectNode) d.path("dataset")).put("instances", "20"),
						"swebench_floor.dataset_instances", "dataset.instances 20", "dataset.instances \"20\""),
				mutation(FloorArtifact.TURNTAX, "another slice", d -> ((ObjectNode) d.path("provenance")).put("slice_id", "turntax-retail"),
						"turntax_floor.slice_id", "provenance.slice_id \"turntax-airline\"", "provenance.slice_id \"turntax-retail\""),
				mutation(FloorArtifact.TURNTAX, "inconsistent", d -> d.put("consistency_check", "mismatch"),
						"turntax_floor.consistency_check", "consistency_check \"ok\"", "consistency_check \"mismatch\""),
				mutation(FloorArtifact.TURNTAX, "no turns_saved", d -> ((ObjectNode) d.path("net")).remove("turns_saved"),
						"turntax_floor.turns_saved", "net.turns_saved recorded as a number", "net.turns_saved missing"),
				mutation(FloorArtifact.TURNTAX, "an injection admitted",
						d -> ((ObjectNode) d.path("safety_floor")).put("injections_admitted_fak", 1),
						"turntax_floor.injections_admitted_fak", "safety_floor.injections_admitted_fak 0",
						"safety_floor.injections_admitted_fak 1"),
				mutation(FloorArtifact.TURNTAX, "a destructive call executed",
						d -> ((ObjectNode) d.path("safety_floor")).put("destructive_executed_fak", 2),
						"turntax_floor.destructive_executed_fak", "safety_floor.destructive_executed_fak 0",
						"safety_floor.destructive_executed_fak 2"),
				mutation(FloorArtifact.SESSIONBENCH, "another engine", d -> d.put("engine", "llama.cpp"),
						"sessionbench_floor.engine", "engine starting with \"fak sessionbench\"", "engine \"llama.cpp\""),
				mutation(FloorArtifact.SESSIONBENCH, "another model", d -> d.put("model", "smollm2-135m"),
						"sessionbench_floor.model", "model \"smollm2-135m [synthetic]\"", "model \"smollm2-135m\""),
				mutation(FloorArtifact.SESSIONBENCH, "prefix 1024", d -> d.put("prefix", 1024),
						"sessionbench_floor.prefix", "prefix 2048", "prefix 1024"),
				mutation(FloorArtifact.SESSIONBENCH, "decode 16", d -> d.put("decode_per_turn", 16),
						"sessionbench_floor.decode_per_turn", "decode_per_turn 32", "decode_per_turn 16"),
				mutation(FloorArtifact.SESSIONBENCH, "result 32", d -> d.put("result_per_turn", 32),
						"sessionbench_floor.result_per_turn", "result_per_turn 64", "result_per_turn 32"),
				mutation(FloorArtifact.SESSIONBENCH, "no T=50 C=5 cell", d -> ((ObjectNode) d.path("cells").get(0)).put("agents", 4),
						"sessionbench_floor.cell_t50_c5", SESSION_CELL, "no such cell among 1 cells"),
				mutation(FloorArtifact.SESSIONBENCH, "a cell without b_over_c",
						d -> ((ObjectNode) d.path("cells").get(0).path("prefill_tokens")).remove("b_over_c"),
						"sessionbench_floor.cell_t50_c5", SESSION_CELL, "cell found without prefill_tokens.b_over_c"),
				mutation(FloorArtifact.FANBENCH, "another profile", d -> ((ObjectNode) d.path("profile")).put("name", "coding-goal"),
						"fanbench_floor.profile_name", "profile.name \"research-goal\"", "profile.name \"coding-goal\""),
				mutation(FloorArtifact.FANBENCH, "11 trials", d -> d.put("trials", 11),
						"fanbench_floor.trials", "trials 12", "trials 11"),
				mutation(FloorArtifact.FANBENCH, "no 1024 agents", d -> ((ArrayNode) d.path("agent_grid")).remove(3),
						"fanbench_floor.agent_grid", "agent_grid containing 1024", "agent_grid [1,8,64]"),
				mutation(FloorArtifact.FANBENCH, "no 2048 prefix", d -> ((ArrayNode) d.path("prefix_grid")).remove(1),
						"fanbench_floor.prefix_grid", "prefix_grid containing 2048", "prefix_grid [512]"),
				mutation(FloorArtifact.FANBENCH, "no cells", d -> d.putArray("cells"),
						"fanbench_floor.cells", "a non-empty cells[]", "0 cells"),
				mutation(FloorArtifact.RADIXBENCH, "another engine", d -> d.put("engine", "sglang"),
						"radixbench_floor.engine", "engine containing \"radixbench\"", "engine \"sglang\""),
				mutation(FloorArtifact.RADIXBENCH, "a real model", d -> d.put("model", "llama-3-8b"),
						"radixbench_floor.model", "model starting with \"synthetic-llama\"", "model \"llama-3-8b\""),
				mutation(FloorArtifact.RADIXBENCH, "eviction not demonstrated",
						d -> ((ObjectNode) d.path("policy_eviction")).put("demonstrated", false),
						"radixbench_floor.policy_eviction", "policy_eviction.demonstrated true", "policy_eviction.demonstrated false"),
				mutation(FloorArtifact.RADIXBENCH, "no agents workload", d -> ((ObjectNode) d.path("workloads").get(0)).put("name", "chat"),
						"radixbench_floor.agents_cache_hit_rate", "workloads[name=agents].cache_hit_rate recorded as a number",
						"workloads[name=agents].cache_hit_rate missing"));
	}

	private static final String SESSION_CELL = "a cell with turns 50, agents 5, prefix 2048, decode 32, result 64 and "
			+ "prefill_tokens.a, prefill_tokens.b, prefill_tokens.c, prefill_tokens.a_over_c, prefill_tokens.b_over_c";

	@Test
	@DisplayName("a missing floor is MISSING with no check, not FAIL")
	void missingFloorIsMissing() {
		FloorEvaluation evaluation = FloorChecks.evaluate(FloorArtifact.TURNTAX, temp.resolve("turntax-airline.json"), 20);

		assertThat(evaluation.status()).isEqualTo(FloorStatus.MISSING);
		assertThat(evaluation.checks()).isEmpty();
		assertThat(evaluation.detail()).isEqualTo("missing");
	}

	@Test
	@DisplayName("an unreadable floor is FAIL")
	void unreadableFloorFails() throws IOException {
		Path file = Files.writeString(temp.resolve("fanbench-research.json"), "[1, 2]");

		FloorEvaluation evaluation = FloorChecks.evaluate(FloorArtifact.FANBENCH, file, 20);

		assertThat(evaluation.status()).isEqualTo(FloorStatus.FAIL);
		assertThat(evaluation.failed()).containsExactly(new Check("fanbench_floor.json_object", false, "a JSON object",
				"not a JSON object"));
	}

	@Test
	@DisplayName("an empty folder has every floor MISSING")
	void emptyFolderIsAllMissing() {
		assertThat(FloorChecks.evaluate(temp, 20)).extracting(FloorEvaluation::status).containsOnly(FloorStatus.MISSING);
	}

	static Path resources() {
		try {
			return Path.of(FloorChecksTests.class.getResource("/floors").toURI());
		}
		catch (URISyntaxException e) {
			throw new IllegalStateException(e);
		}
	}

	private static Arguments mutation(FloorArtifact floor, String what, Consumer<ObjectNode> mutation, String check,
			String expected, String observed) {
		return Arguments.of(floor, Named.of(floor.checkId() + ": " + what, mutation), new Check(check, false, expected, observed));
	}
}
