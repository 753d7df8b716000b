package dev.fakbattery.bench.swebench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.SwebenchRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.PreProduced;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.process.CommandResult;
import dev.fakbattery.core.process.ProcessCommandRunner;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 4: SWE-bench Verified 20-task compare. With {@code swebench.runner} it drives the runner
 * (preflight-only first, then the run) into {@code swebench.run.dir}; then, or with only the run
 * folder given, it validates the folder strictly and reports per arm the contract's metrics. A
 * folder this build did not drive counts only with its own provenance ({@link PreProduced}); a test
 * fixture is refused.
 */
@SwebenchRung
@NodeOnly
@RungArtifact(ArtifactId.SWEBENCH_COMPARE)
@DisplayName("rung 4 swebench-20")
class SwebenchRungTests {

	/** Agent runs of 20 tasks take hours; the runner gets the contract's whole budget plus grading. */
	private static final Duration RUN_TIMEOUT = Duration.ofHours(24);

	@Test
	@DisplayName("drives the compare runner and validates its artifacts strictly")
	void swebenchCompare(RungRecorder run) {
		Optional<URI> base = NodeTarget.baseUrl(run);
		Optional<String> runDir = run.requireConfig(HarnessConstants.SWEBENCH_RUN_DIR, "SWE-bench run folder", "/path/to/run-dir");
		Optional<String> runner = run.config().string(HarnessConstants.SWEBENCH_RUNNER);
		if (runner.isEmpty()) {
			run.body().put("runner", "not configured: validating an existing run folder");
		}
		if (base.isEmpty() || runDir.isEmpty()) {
			if (runner.isEmpty()) {
				run.requireConfig(HarnessConstants.SWEBENCH_RUNNER, "SWE-bench compare runner", "/path/to/swebench-compare");
			}
			return;
		}
		CompareExpectation expect = CompareExpectation.from(run.config(), base.get());
		Path dir = Path.of(runDir.get());
		run.body().put("run_dir", dir.toString());
		if (PreProduced.refuseFixture(run, HarnessConstants.SWEBENCH_RUN_DIR, dir,
				CompareValidator.REQUIRED_FILES.stream().map(dir::resolve).toList())) {
			run.headline("refused: " + dir + " is a test fixture, not a run");
			return;
		}
		runner.ifPresent(r -> drive(run, SwebenchRunner.of(r, expect, dir)));
		CompareValidation validation = CompareValidator.validate(dir, expect);
		if (runner.isEmpty()) {
			// a run folder this build did not drive: counted only on its own provenance
			PreProduced.record(run, dir, Stream.of(RunDirFiles.COMPARE_PREFLIGHT, RunDirFiles.COMPARE)
					.map(dir::resolve)
					.filter(Files::isRegularFile)
					.map(file -> PreProduced.read(dir, file, false))
					.toList(),
					"put producer, version and generated_at of the compare runner into " + dir.resolve(PreProduced.PROVENANCE_FILE)
							+ ", or drive the run in this build with -D" + HarnessConstants.SWEBENCH_RUNNER + "=/path/to/swebench-compare");
		}
		for (String missing : validation.missingFiles()) {
			run.pending("swebench." + missing, missing + " is missing from " + dir,
					"run the compare runner (-Dswebench.runner=...) into it");
		}
		for (Check check : validation.checks()) {
			run.check(check.name(), check.passed(), check.expected(), check.observed());
		}
		reportArmMetrics(run, dir, expect);
		run.headline((runner.isEmpty() ? "pre-produced: " : "") + (validation.passed()
				? "compare valid: " + validation.checks().size() + " checks passed"
				: validation.failed().size() + " check(s) failed, " + validation.missingFiles().size() + " file(s) missing"));
	}

	private static void drive(RungRecorder run, SwebenchRunner runner) {
		ProcessCommandRunner process = new ProcessCommandRunner(RUN_TIMEOUT);
		for (List<String> argv : List.of(runner.preflightCommand(), runner.runCommand())) {
			CommandResult result = process.run(argv);
			run.body().withArray("runner_commands").addObject().put("argv", String.join(" ", argv)).put("exit_code", result.exitCode());
			if (!run.check("runner:" + (argv.contains(SwebenchRunner.PREFLIGHT_ONLY) ? "preflight" : "run"), result.exitCode() == 0,
					String.join(" ", argv) + " exits 0", "exit " + result.exitCode())) {
				return;
			}
		}
	}

	private static void reportArmMetrics(RungRecorder run, Path dir, CompareExpectation expect) {
		try {
			var compare = Json.MAPPER.readTree(dir.resolve("compare.json").toFile());
			ObjectNode arms = run.body().putObject("arm_metrics");
			for (ArmMetrics arm : CompareMetrics.extract(compare, expect)) {
				ObjectNode node = arms.putObject(arm.arm());
				for (Measurement metric : arm.metrics()) {
					if (metric instanceof Measurement.Measured measured) {
						node.put(measured.name(), measured.value());
						run.record(measured);
					}
					else if (metric instanceof Measurement.Pending pending && CompareMetrics.measuredElsewhere(arm.arm(), pending)) {
						node.putObject(pending.name()).put("measured_by", pending.howToProvide());
					}
					else if (metric instanceof Measurement.Pending pending) {
						node.put(pending.name(), "PENDING_MEASUREMENT: " + pending.reason());
						run.record(pending);
					}
				}
			}
		}
		catch (java.io.IOException e) {
			run.pending("arm_metrics", "compare.json in " + dir + " is unreadable: " + e.getMessage(),
					"run the compare runner (-Dswebench.runner=...) into it");
		}
	}
}
