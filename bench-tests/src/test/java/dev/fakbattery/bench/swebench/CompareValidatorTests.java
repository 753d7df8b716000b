package dev.fakbattery.bench.swebench;

import static dev.fakbattery.bench.swebench.RunDirFixture.agent;
import static dev.fakbattery.bench.swebench.RunDirFixture.array;
import static dev.fakbattery.bench.swebench.RunDirFixture.grade;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("SWE-bench-20 compare run validator")
class CompareValidatorTests {

	private static final CompareExpectation SEED = CompareExpectation.seed();

	@TempDir
	Path temp;

	@Test
	@DisplayName("the GOOD fixture passes every check, in the documented order")
	void goodFixturePasses() {
		CompareValidation validation = CompareValidator.validate(RunDirFixture.good(), SEED);

		assertThat(validation.checks()).extracting(Check::name).containsExactlyElementsOf(CompareValidator.CHECK_NAMES);
		assertThat(validation.failed()).isEmpty();
		assertThat(validation.passed()).isTrue();
		assertThat(validation.missingFiles()).isEmpty();
	}

	@Test
	@DisplayName("a passing check still says what it saw")
	void passingChecksShowWhatTheySaw() {
		CompareValidation validation = CompareValidator.validate(RunDirFixture.good(), SEED);

		assertThat(validation.checks()).filteredOn(c -> c.name().equals("resolved_count"))
				.singleElement()
				.extracting(Check::observed)
				.isEqualTo("raw-vllm resolved=7 resolved_ids=7; fak-gateway resolved=8 resolved_ids=8");
		assertThat(validation.checks()).filteredOn(c -> c.name().equals("selection_size"))
				.singleElement()
				.extracting(Check::observed)
				.isEqualTo("20 ids, 20 distinct");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("brokenRuns")
	@DisplayName("a broken run fails exactly its own check")
	void brokenRunFailsItsOwnCheck(Consumer<RunDirFixture> breakIt, Check expected) {
		RunDirFixture run = RunDirFixture.copyGood(temp);
		breakIt.accept(run);

		CompareValidation validation = CompareValidator.validate(run.dir(), SEED);

		assertThat(validation.failed()).containsExactly(expected);
	}

	static Stream<Arguments> brokenRuns() {
		return Stream.of(
				broken("preflight of another schema", r -> r.preflight(p -> p.put("schema", "fak.other.v1")),
						"compare_preflight_schema", "schema \"fak.dgx-swebench-compare-preflight.v1\"", "schema \"fak.other.v1\""),
				broken("preflight ok=false", r -> r.preflight(p -> p.put("ok", false)),
						"compare_preflight_ok", "ok true", "ok false"),
				broken("preflight with a failed inner check",
						r -> r.preflight(p -> ((ObjectNode) p.path("checks").get(5)).put("ok", false)),
						"compare_preflight_checks", "non-empty checks[], every ok true", "failed: required-gpu-name"),
				broken("preflight with no inner checks", r -> r.preflight(p -> p.putArray("checks")),
						"compare_preflight_checks", "non-empty checks[], every ok true", "checks []"),
				broken("preflight of another served model", r -> r.preflight(p -> p.put("served_as", "qwen36-27b")),
						"compare_preflight_identity", "model \"zai-org/GLM-5.2-FP8\", served_as \"glm-5.2\", engine \"vllm\", "
								+ "selection \"slice 0:20\", arms with raw-vllm and fak-gateway",
						"model \"zai-org/GLM-5.2-FP8\", served_as \"qwen36-27b\", engine \"vllm\", selection \"slice 0:20\", "
								+ "arms [\"fak-gateway\",\"raw-vllm\"]"),
				broken("preflight that served the engine itself",
						r -> r.preflight(p -> ((ObjectNode) p.path("config")).put("skip_engine_serve", false)),
						"compare_preflight_config",
						"config.raw_base_url \"http://127.0.0.1:8000/v1\", skip_engine_serve true, require_gpu_name \"H200\"",
						"config.raw_base_url \"http://127.0.0.1:8000/v1\", skip_engine_serve false, require_gpu_name \"H200\""),
				broken("preflight without the vLLM runtime probe",
						r -> r.preflight(p -> ((ObjectNode) p.path("runtime")).remove("vllm_version")),
						"compare_preflight_runtime", "runtime.mini_swe_agent, runtime.swebench_python, runtime.swebench_version, "
								+ "runtime.vllm_version recorded",
						"missing runtime.vllm_version"),
				broken("compare of another schema", r -> r.compare(c -> c.put("schema", "fak.dgx-swebench-compare.v0")),
						"compare_schema", "schema \"fak.dgx-swebench-compare.v1\"", "schema \"fak.dgx-swebench-compare.v0\""),
				broken("compare of another model", r -> r.compare(c -> c.put("model", "Qwen/Qwen3.6-27B")),
						"compare_identity", "model \"zai-org/GLM-5.2-FP8\", served_as \"glm-5.2\", engine \"vllm\", "
								+ "selection \"slice 0:20\", raw-vllm endpoint \"http://127.0.0.1:8000/v1\"",
						"model \"Qwen/Qwen3.6-27B\", served_as \"glm-5.2\", engine \"vllm\", selection \"slice 0:20\", "
								+ "raw-vllm endpoint \"http://127.0.0.1:8000/v1\""),
				broken("one arm missing", r -> r.compare(c -> array(c, "arms").remove(1)),
						"compare_arms", "exactly the arms raw-vllm, fak-gateway", "arms [raw-vllm]"),
				broken("the raw arm twice", r -> r.compare(c -> {
					agent(c, 1).put("arm", "raw-vllm");
					grade(c, 1).put("run_id", "swecmp-raw-vllm");
				}), "compare_arms", "exactly the arms raw-vllm, fak-gateway", "arms [raw-vllm, raw-vllm]"),
				broken("a selection of 19 in every place", r -> r.compare(c -> {
					array(c, "selection_instance_ids").remove(19);
					array(agent(c, 0), "instance_ids").remove(19);
					array(agent(c, 1), "instance_ids").remove(19);
				}), "selection_size", "20 distinct non-empty instance ids", "19 ids, 19 distinct"),
				broken("a selection with a repeated id", r -> r.compare(c -> {
					for (ArrayNode ids : new ArrayNode[]{ array(c, "selection_instance_ids"), array(agent(c, 0), "instance_ids"),
						array(agent(c, 1), "instance_ids") }) {
						ids.set(19, ids.get(0));
					}
				}), "selection_size", "20 distinct non-empty instance ids", "20 ids, 19 distinct"),
				broken("selection_instance_ids_match false", r -> r.compare(c -> c.put("selection_instance_ids_match", false)),
						"selection_match", "selection_instance_ids_match true", "selection_instance_ids_match false"),
				broken("mismatched ids", r -> r.compare(c -> array(agent(c, 1), "instance_ids").set(19, "fixture__swebench-verified-99")),
						"arm_instance_ids",
						"each arm has agent.instances 20 and agent.instance_ids equal to selection_instance_ids, in order",
						"raw-vllm instances=20 ids equal; fak-gateway instances=20 ids differ (not in selection "
								+ "[fixture__swebench-verified-99], absent [fixture__swebench-verified-20])"),
				broken("the same ids in another order", r -> r.compare(c -> {
					ArrayNode ids = array(agent(c, 0), "instance_ids");
					var first = ids.get(0);
					ids.set(0, ids.get(1));
					ids.set(1, first);
				}), "arm_instance_ids", "each arm has agent.instances 20 and agent.instance_ids equal to selection_instance_ids, in order",
						"raw-vllm instances=20 ids differ in order or repeat; fak-gateway instances=20 ids equal"),
				broken("a tool-call probe not ok", r -> r.compare(c -> ((ObjectNode) c.path("tool_call_probes").get(1))
						.put("ok", false)
						.put("tool_calls", 0)),
						"tool_call_probes", "a tool-call probe per arm with ok true and tool_calls > 0",
						"raw-vllm ok=true tool_calls=1; fak-gateway ok=false tool_calls=0"),
				broken("a tool-call probe missing", r -> r.compare(c -> array(c, "tool_call_probes").remove(1)),
						"tool_call_probes", "a tool-call probe per arm with ok true and tool_calls > 0",
						"raw-vllm ok=true tool_calls=1; fak-gateway probe missing"),
				broken("19 submitted", r -> r.compare(c -> grade(c, 1).put("submitted", 19)),
						"arm_submitted", "grade.submitted 20 and grade.total 20 per arm",
						"raw-vllm submitted=20 total=20; fak-gateway submitted=19 total=20"),
				broken("grade not available", r -> r.compare(c -> grade(c, 0).put("available", false)),
						"grade_available", "grade.available true and grade.resolve_pct recorded per arm",
						"raw-vllm available=false resolve_pct=35.0; fak-gateway available=true resolve_pct=40.0"),
				broken("grade_rc 1", r -> r.compare(c -> grade(c, 1).put("grade_rc", 1)),
						"grade_rc", "grade.grade_rc 0 per arm", "raw-vllm grade_rc=0; fak-gateway grade_rc=1"),
				broken("run_id not arm specific", r -> r.compare(c -> grade(c, 1).put("run_id", "swecmp")),
						"grade_run_id", "grade.run_id \"swecmp-<arm>\" per arm",
						"raw-vllm run_id=\"swecmp-raw-vllm\"; fak-gateway run_id=\"swecmp\""),
				broken("report_path missing", r -> r.compare(c -> grade(c, 1).remove("report_path")),
						"grade_outputs", "grade.report_path and grade.grade_log recorded per arm",
						"raw-vllm report_path recorded, grade_log recorded; fak-gateway report_path missing, grade_log recorded"),
				broken("a resolved id outside the selection",
						r -> r.compare(c -> array(grade(c, 1), "resolved_ids").set(0, "fixture__not-selected-01")),
						"resolved_subset", "grade.resolved_ids a list of ids inside selection_instance_ids",
						"raw-vllm 7 resolved, all in selection; fak-gateway 8 resolved, outside selection [fixture__not-selected-01]"),
				broken("resolved not the number of resolved ids", r -> r.compare(c -> grade(c, 0).put("resolved", 8)),
						"resolved_count", "grade.resolved equal to the number of grade.resolved_ids, 0 to 20",
						"raw-vllm resolved=8 resolved_ids=7; fak-gateway resolved=8 resolved_ids=8"),
				broken("DONE.rc missing", r -> r.delete(RunDirFiles.DONE_RC), "done_rc", "DONE.rc holding 0", "DONE.rc missing"),
				broken("DONE.rc = 1", r -> r.write(RunDirFiles.DONE_RC, "1\n"), "done_rc", "DONE.rc holding 0", "DONE.rc holds 1"),
				broken("DONE.rc not a number", r -> r.write(RunDirFiles.DONE_RC, "ok\n"), "done_rc", "DONE.rc holding 0",
						"DONE.rc holds \"ok\", not an exit code"),
				broken("COMPARE.md missing", r -> r.delete(RunDirFiles.COMPARE_MD), "compare_md", "COMPARE.md present and not empty",
						"COMPARE.md missing"));
	}

	@Test
	@DisplayName("a missing compare.json fails all of its checks with that reason")
	void missingCompareFailsItsChecks() {
		RunDirFixture run = RunDirFixture.copyGood(temp).delete(RunDirFiles.COMPARE);

		CompareValidation validation = CompareValidator.validate(run.dir(), SEED);

		assertThat(validation.failed()).hasSize(14)
				.allSatisfy(check -> assertThat(check.describe())
						.isEqualTo("check " + check.name() + ": expected a readable compare.json, observed compare.json missing"));
		assertThat(validation.missingFiles()).containsExactly("compare.json");
		assertThat(validation.nothingRan()).isFalse();
	}

	@Test
	@DisplayName("an unparsable COMPARE-PREFLIGHT.json fails its checks as unreadable")
	void unreadablePreflightFails() {
		RunDirFixture run = RunDirFixture.copyGood(temp).write(RunDirFiles.COMPARE_PREFLIGHT, "{not json");

		CompareValidation validation = CompareValidator.validate(run.dir(), SEED);

		assertThat(validation.failed()).extracting(Check::name).containsExactlyElementsOf(ComparePreflightChecks.NAMES);
		assertThat(validation.failed().get(0).observed()).startsWith("COMPARE-PREFLIGHT.json unreadable: ");
	}

	@Test
	@DisplayName("an empty folder is a run that did not happen here")
	void emptyFolderRanNothing() {
		CompareValidation validation = CompareValidator.validate(temp, SEED);

		assertThat(validation.nothingRan()).isTrue();
		assertThat(validation.passed()).isFalse();
	}

	private static Arguments broken(String what, Consumer<RunDirFixture> mutation, String check, String expected,
			String observed) {
		return Arguments.of(Named.of(what, mutation), new Check(check, false, expected, observed));
	}
}
