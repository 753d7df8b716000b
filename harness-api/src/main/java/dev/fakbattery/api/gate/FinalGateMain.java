package dev.fakbattery.api.gate;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.Provenance;

/**
 * The final gate as a command, run by the build after the rungs ({@code -Pbattery}, {@code -Pgpu})
 * or alone ({@code -Pgate}).
 *
 * <pre>
 * FinalGateMain write   --experiments-dir=DIR [--results-dir=DIR] [--profile=P] [--root-dir=DIR]
 * FinalGateMain enforce --experiments-dir=DIR [--allow-pending=true|false] [--report=FILE] [--test-reports=ROOT]
 * </pre>
 * {@code write} writes final-check.json, FINAL-CHECK.md, the draft when allowed and the report
 * environment; {@code enforce} prints the summary table and throws when any test of the run failed
 * (Surefire reports under ROOT) or the battery is not COMPLETE and pending is not allowed.
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
		if (args.length == 0 || !List.of("write", "enforce").contains(args[0])) {
			throw new IllegalArgumentException("usage: FinalGateMain write|enforce --experiments-dir=DIR [options]");
		}
		Map<String, String> options = options(args);
		Path root = Path.of(options.getOrDefault("root-dir", ".")).toAbsolutePath().normalize();
		Path dir = Path.of(required(options, "experiments-dir")).toAbsolutePath().normalize();
		GateResult result = relativeTo(root, FinalGate.evaluate(dir));
		if (args[0].equals("write")) {
			HarnessConfig config = HarnessConfig.of(name -> name.equals(HarnessConstants.PROFILE)
					? Optional.ofNullable(options.get("profile")) : Optional.ofNullable(System.getProperty(name)));
			GateWriter.write(dir, FinalGate.evaluate(dir), Provenance.reproduceCommand(config));
			Optional.ofNullable(options.get("results-dir")).map(Path::of)
				.ifPresent(results -> ReportEnvironment.write(results, FinalGate.evaluate(dir)));
			return;
		}
		out.println();
		out.println("fak-battery summary (" + root.relativize(dir) + ")");
		out.print(SummaryTable.console(result.rows()));
		out.println("final gate: " + result.status() + ", " + result.passed() + "/" + result.rows().size()
				+ " required artifacts passed" + (result.simulated().isEmpty() ? "" : ", SIMULATED: " + result.simulated())
				+ (result.authorityDraftAllowed() ? ", authority draft written" : ", no authority draft"));
		Optional.ofNullable(options.get("report")).ifPresent(report -> out.println("report: " + report));
		List<TestReportScan.FailedTest> failedTests = options.containsKey("test-reports")
				? TestReportScan.failedTests(Path.of(options.get("test-reports"))) : List.of();
		if (!failedTests.isEmpty()) {
			out.println(failedTests.size() + " failed test(s):");
			failedTests.forEach(test -> out.println("  " + test));
			throw new IllegalStateException(failedTests.size() + " test(s) failed; first: " + failedTests.get(0)
					+ (result.complete() ? "" : "; final gate " + result.status()));
		}
		boolean allowPending = Boolean.parseBoolean(options.getOrDefault("allow-pending", "false"));
		if (!result.complete() && !allowPending) {
			throw new IllegalStateException("final gate " + result.status() + ": failed " + result.failed()
					+ ", missing " + result.missing() + "; see " + root.relativize(dir.resolve(GateWriter.FINAL_CHECK_MD))
					+ " (set -Dallow.pending=true to report without failing)");
		}
	}

	private static GateResult relativeTo(Path root, GateResult result) {
		return new GateResult(result.status(), result.rows().stream()
			.map(r -> new GateRow(r.artifact(), r.status(), r.verdict(), display(root, r.path()), r.detail()))
			.toList());
	}

	private static String display(Path root, String path) {
		Path p = Path.of(path);
		return p.startsWith(root) ? root.relativize(p).toString() : path;
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
