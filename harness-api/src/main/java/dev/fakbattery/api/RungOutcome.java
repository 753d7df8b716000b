package dev.fakbattery.api;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.opentest4j.TestAbortedException;

/**
 * The verdict of a rung, computed from what it recorded; never assigned.
 */
final class RungOutcome {

	static final String NO_CHECK = "recorded no acceptance check: a verdict needs at least one check that can fail";

	private RungOutcome() {
	}

	static Verdict verdict(RungRun run, Optional<Throwable> thrown) {
		if (thrown.isPresent() && !(thrown.get() instanceof TestAbortedException)) {
			return Verdict.FAIL;
		}
		if (!failedChecks(run).isEmpty()) {
			return Verdict.FAIL;
		}
		if (!run.pendings().isEmpty() || thrown.isPresent()) {
			return Verdict.PENDING_MEASUREMENT;
		}
		if (run.plannedBecause().isPresent()) {
			return Verdict.PLANNED;
		}
		if (run.checks().isEmpty()) {
			return Verdict.FAIL;
		}
		return run.simulatedBecause().isPresent() ? Verdict.SIMULATED : Verdict.PASS;
	}

	static List<Check> failedChecks(RungRun run) {
		return run.checks().stream().filter(c -> !c.passed()).toList();
	}

	/** {@code <what> (<how>); <what> (<how>)} over every pending measurement. */
	static String pendingReason(RungRun run) {
		return run.pendings().stream().map(Measurement.Pending::reason).collect(Collectors.joining("; "));
	}

	/** The pending reason, or the reason the rung was aborted (skipped) before it could measure. */
	static String pendingReason(RungRun run, Optional<Throwable> thrown) {
		String pending = pendingReason(run);
		return pending.isEmpty() ? thrown.map(Throwable::getMessage).orElse("") : pending;
	}

	/** The one-line failure of a FAIL verdict: the rung, then each failed check. */
	static String failureMessage(RungRun run) {
		List<Check> failed = failedChecks(run);
		if (failed.isEmpty()) {
			return "rung " + run.artifact().rung() + " " + NO_CHECK;
		}
		return "rung " + run.artifact().rung() + " failed "
				+ failed.stream().map(Check::describe).collect(Collectors.joining("; "));
	}
}
