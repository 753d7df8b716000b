package dev.fakbattery.bench.swebench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds fak's SWE-bench compare command lines: the preflight call (with
 * {@code --preflight-only}) first, then the run, both with the same flags and in fak's order.
 *
 * @param runner the compare driver, for example {@code [python, tools/dgx_swebench_compare.py]}
 * @param expect model, served name, engine, raw URL, task count and GPU name
 * @param runDir the run folder the driver writes to
 * @since 0.1
 */
public record SwebenchRunner(List<String> runner, CompareExpectation expect, Path runDir) {

	/** The flag of the first, fail-fast call: {@value}. */
	public static final String PREFLIGHT_ONLY = "--preflight-only";

	public SwebenchRunner {
		runner = List.copyOf(runner);
		if (runner.isEmpty() || runner.get(0).isBlank()) {
			throw new IllegalArgumentException("the SWE-bench runner command is empty: set -Dswebench.runner");
		}
		Objects.requireNonNull(expect, "expect");
		Objects.requireNonNull(runDir, "runDir");
	}

	/**
	 * A runner given as one string, split on whitespace (paths with spaces are not supported
	 * here; use the list constructor for them).
	 */
	public static SwebenchRunner of(String runner, CompareExpectation expect, Path runDir) {
		return new SwebenchRunner(List.of(runner.trim().split("\\s+")), expect, runDir);
	}

	/** The fail-fast call: dependencies, raw endpoint and GPU name, no agent run. */
	public List<String> preflightCommand() {
		List<String> argv = new ArrayList<>(runCommand());
		argv.add(PREFLIGHT_ONLY);
		return List.copyOf(argv);
	}

	/** The full run: both arms, graded. */
	public List<String> runCommand() {
		List<String> argv = new ArrayList<>(runner);
		argv.addAll(List.of("--engine", expect.engine(), "--model", expect.checkpointModel(), "--served-model-name",
				expect.servedModelName(), "--raw-base-url", expect.rawBaseUrl(), "--verified-count",
				String.valueOf(expect.verifiedCount()), "--skip-engine-serve", "--require-tool-calls", "--require-grade",
				"--run-dir", runDir.toString()));
		Optional<String> gpu = expect.requireGpuName();
		gpu.ifPresent(name -> argv.addAll(List.of("--require-gpu-name", name)));
		return List.copyOf(argv);
	}
}
