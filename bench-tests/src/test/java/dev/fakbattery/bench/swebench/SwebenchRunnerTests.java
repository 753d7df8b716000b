package dev.fakbattery.bench.swebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SWE-bench compare command builder")
class SwebenchRunnerTests {

	private final JsonNode commands = SeedContract.read().path("commands");
	private final SwebenchRunner seed = SwebenchRunner.of("<private-swebench-compare>", CompareExpectation.seed(),
			Path.of("<private-swebench-run>"));

	@Test
	@DisplayName("the preflight call is fak's contract's compare_preflight command")
	void preflightCommandIsTheSeeds() {
		assertThat(String.join(" ", seed.preflightCommand())).isEqualTo(commands.path("compare_preflight").asText());
		assertThat(seed.preflightCommand()).endsWith("--preflight-only");
	}

	@Test
	@DisplayName("the run is fak's contract's compare_run command")
	void runCommandIsTheSeeds() {
		assertThat(String.join(" ", seed.runCommand())).isEqualTo(commands.path("compare_run").asText());
		assertThat(seed.runCommand()).doesNotContain("--preflight-only");
	}

	@Test
	@DisplayName("a runner with arguments and no GPU-name guard")
	void runnerWithArguments() {
		CompareExpectation noGuard = new CompareExpectation("m", "s", "vllm", 5, "http://h:8000/v1/", Optional.empty());
		SwebenchRunner runner = new SwebenchRunner(List.of("python3", "tools/dgx_swebench_compare.py"), noGuard, Path.of("/tmp/run"));

		assertThat(runner.runCommand()).containsExactly("python3", "tools/dgx_swebench_compare.py", "--engine", "vllm",
				"--model", "m", "--served-model-name", "s", "--raw-base-url", "http://h:8000/v1", "--verified-count", "5",
				"--skip-engine-serve", "--require-tool-calls", "--require-grade", "--run-dir", "/tmp/run");
	}

	@Test
	@DisplayName("an empty runner fails with the fix")
	void emptyRunnerFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SwebenchRunner(List.of(), CompareExpectation.seed(), Path.of("r")))
				.withMessage("the SWE-bench runner command is empty: set -Dswebench.runner");
		assertThatIllegalArgumentException().isThrownBy(() -> SwebenchRunner.of("  ", CompareExpectation.seed(), Path.of("r")))
				.withMessage("the SWE-bench runner command is empty: set -Dswebench.runner");
	}
}
