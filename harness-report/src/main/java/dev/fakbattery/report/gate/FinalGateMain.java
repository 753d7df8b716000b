package dev.fakbattery.report.gate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.Provenance;

/**
 * The final gate as a command, run by the build after the rungs ({@code -Pbattery}, {@code -Pgpu})
 * or alone ({@code -Pgate}).
 *
 * <pre>
 * FinalGateMain write   --experiments-dir=DIR [--run-id=ID] [--results-dir=DIR] [--profile=P] [--root-dir=DIR] [--build-command=CMD]
 * FinalGateMain enforce --experiments-dir=DIR [--run-id=ID] [--profile=P] [--allow-pending=true|false] [--report=FILE] [--self-test-report=FILE] [--test-reports=ROOT]
 * </pre>
 * Both judge run {@code --run-id} (the build's own run), or the newest run found when it is absent
 * ({@code -Pgate}). {@code write} writes final-check.json, FINAL-CHECK.md, the draft when allowed and the report
 * environment; {@code enforce} prints the summary table and throws when any test of the run failed (Surefire
 * reports under ROOT), the battery FAILed, a rung was SIMULATED under a profile that needs a real engine
 * ({@code gpu}, {@code gate}), or the battery is not COMPLETE and pending is not allowed.
 *
 * @since 0.1
 */
public final class FinalGateMain {

	private FinalGateMain() {
	}

	/** Runs {@link #run} and exits non-zero with its message when the gate fails. */
	public static void main(String[] args) {
		try {
			run(args, System.out);
		}
		catch (IllegalStateException | IllegalArgumentException e) {
			System.err.println("[fak-battery] " + e.getMessage());
			System.exit(1);
		}
	}

	/** The gate step; throws {@link IllegalStateException} when the battery must fail. */
	public static void run(String[] args, java.io.PrintStream out) {
		run(args, out, name -> Optional.ofNullable(System.getProperty(name)));
	}

	/**
	 * As {@link #run(String[], java.io.PrintStream)}, reading the configuration names of the reproduce command from
	 * {@code properties} instead of the system properties (a self-test must not write the command line it runs under).
	 */
	public static void run(String[] args, java.io.PrintStream out, java.util.function.Function<String, Optional<String>> properties) {
		if (args.length == 0 || !List.of("write", "enforce").contains(args[0])) {
			throw new IllegalArgumentException("usage: FinalGateMain write|enforce --experiments-dir=DIR [options]");
		}
		Map<String, String> options = options(args);
		Path root = Path.of(options.getOrDefault("root-dir", ".")).toAbsolutePath().normalize();
		Path dir = Path.of(required(options, "experiments-dir")).toAbsolutePath().normalize();
		Optional<String> runId = Optional.ofNullable(options.get("run-id")).filter(id -> !id.isBlank());
		Profile profile = Profile.parse(options.getOrDefault("profile", Profile.GATE.id()));
		GateResult result = FinalGate.evaluate(dir, runId);
		if (args[0].equals("write")) {
			HarnessConfig config = HarnessConfig.of(name -> name.equals(HarnessConstants.PROFILE)
					? Optional.of(profile.id())
					: properties.apply(name));
			String reproduce = Provenance.reproduceCommand(config);
			GateWriter.write(dir, result, reproduce);
			Optional.ofNullable(options.get("results-dir"))
					.map(Path::of)
					.ifPresent(results -> ReportEnvironment.write(results, result,
							buildCommand(options.getOrDefault("build-command", "")), reproduce));
			return;
		}
		print(out, root, dir, relativeTo(root, result), options);
		List<TestReportScan.FailedTest> failedTests = options.containsKey("test-reports")
				? TestReportScan.failedTests(Path.of(options.get("test-reports")), runId.flatMap(TestReportScan::buildStart))
				: List.of();
		if (!failedTests.isEmpty()) {
			out.println(failedTests.size() + " failed test(s):");
			failedTests.forEach(test -> out.println("  " + test));
			throw new IllegalStateException(failedTests.size() + " test(s) failed; first: " + failedTests.get(0)
					+ (result.complete() ? "" : "; battery " + result.battery()));
		}
		enforce(result, profile, Boolean.parseBoolean(options.getOrDefault("allow-pending", "false")),
				root.relativize(dir.resolve(GateWriter.FINAL_CHECK_MD)));
	}

	/** Throws when the battery must fail the build under {@code profile}. */
	static void enforce(GateResult result, Profile profile, boolean allowPending, Path finalCheck) {
		if (result.battery().equals(GateResult.FAIL)) {
			throw new IllegalStateException("final gate FAIL: failed " + result.failed()
					+ result.targetProblem().map(p -> "; " + p).orElse("") + "; see " + finalCheck);
		}
		if (!result.simulated().isEmpty() && !profile.simulatedAccepted()) {
			throw new IllegalStateException("final gate SIMULATED under -P" + profile.id() + ": " + result.simulatedTargets()
					+ " measured the engine double, not a real engine; point -D" + HarnessConstants.BASE_URL
					+ " at the serving engine and run again; see " + finalCheck);
		}
		if (!result.complete() && !allowPending && !profile.simulatedAccepted()) {
			throw new IllegalStateException("final gate " + result.status() + ": failed " + result.failed() + ", missing "
					+ result.missing() + (result.stale().isEmpty() ? "" : " (stale " + result.stale() + ")") + "; see " + finalCheck
					+ " (set -Dallow.pending=true to report without failing)");
		}
	}

	private static void print(java.io.PrintStream out, Path root, Path dir, GateResult result, Map<String, String> options) {
		out.println();
		out.println("fak-battery summary (" + root.relativize(dir) + ", run " + result.runId().orElse("none") + ")");
		out.print(SummaryTable.console(result.rows()));
		out.println("battery: " + result.battery() + ", final gate " + result.status() + ", " + result.passed() + "/"
				+ result.rows().size() + " required artifacts passed"
				+ (result.simulated().isEmpty() ? "" : ", SIMULATED: " + result.simulated())
				+ (result.stale().isEmpty() ? "" : ", STALE: " + result.stale())
				+ (result.preProduced().isEmpty() ? "" : ", pre-produced (not measured in this run): " + result.preProduced())
				+ (result.authorityDraftAllowed() ? ", authority draft written" : ", no authority draft"));
		result.targetProblem().ifPresent(problem -> out.println("targets differ: " + problem));
		Optional.ofNullable(options.get("report")).ifPresent(report -> out.println("report: " + report));
		Optional.ofNullable(options.get("self-test-report"))
				.filter(report -> Files.isRegularFile(Path.of(report)))
				.ifPresent(report -> out.println("harness self-test report: " + report));
	}

	private static GateResult relativeTo(Path root, GateResult result) {
		return new GateResult(result.runId(), result.rows().stream().map(r -> r.relocated(display(root, r.path()))).toList(),
				result.targetProblem());
	}

	private static String display(Path root, String path) {
		Path p = Path.of(path);
		return p.startsWith(root) ? root.relativize(p).toString() : path;
	}

	/** The command line the build passed, one space between words; empty when it passed none or an unresolved Maven expression. */
	public static String buildCommand(String given) {
		return given.contains("${") ? "" : given.strip().replaceAll("\\s+", " ");
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (int i = 1; i < args.length; i++) {
			if (!args[i].startsWith("--") || !args[i].contains("=")) {
				throw new IllegalArgumentException("unknown argument [" + args[i] + "]: expected --name=value");
			}
			options.put(args[i].substring(2, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
		}
		return options;
	}

	private static String required(Map<String, String> options, String name) {
		String value = options.get(name);
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException("missing --" + name + "=DIR");
		}
		return value;
	}
}
