package dev.fakbattery.core;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * The verdict of a rung, computed from what it recorded; never assigned.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class RungOutcome {

	public static final String NO_CHECK = "recorded no acceptance check: a verdict needs at least one check that can fail";

	private RungOutcome() {
	}

	/**
	 * In this order: a misconfiguration ({@link ConfigurationException}: the rung was pointed at the wrong server, so
	 * whatever it saw there is about a server it was not asked to judge) is PENDING_MEASUREMENT whatever its checks say;
	 * an error is FAIL; a failed {@linkplain Check#product() product check} (the target answered with an
	 * error status, leaked a denied byte, answered malformed) is FAIL whatever the instrument's state, any invalid reading
	 * reported beside it; a measurement invalidated by its own instrument is PENDING_MEASUREMENT whatever the measurement
	 * checks say (it measured nothing about the gateway); a failed check is FAIL; a missing measurement or an aborted
	 * rung is PENDING_MEASUREMENT; a dry run is PLANNED; no check at all is FAIL; then SIMULATED when the engine double
	 * was measured, else PASS. The final gate recomputes it the same way from the artifact ({@link RungEvidence}).
	 */
	public static Verdict verdict(RungRecorder run, Optional<Throwable> thrown) {
		return RungEvidence.of(run, thrown).verdict();
	}

	/**
	 * Whether {@code thrown} aborted the rung rather than failed it: an {@code org.opentest4j.TestAbortedException} (what
	 * JUnit's assumptions throw), recognised by name so that this core carries no test framework.
	 */
	static boolean aborted(Throwable thrown) {
		for (Class<?> type = thrown.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals("org.opentest4j.TestAbortedException")) {
				return true;
			}
		}
		return false;
	}

	static List<Check> failedChecks(RungRecorder run) {
		return run.checks().stream().filter(c -> !c.passed()).toList();
	}

	/** The failed checks an invalid measurement leaves unjudged: every failed measurement check, when one is invalid. */
	static List<Check> unjudgedChecks(RungRecorder run) {
		return run.invalidations().isEmpty() ? List.of() : failedChecks(run).stream().filter(c -> !c.product()).toList();
	}

	/**
	 * {@code <what> (<how>); <what> (<how>)} over every pending measurement, invalidated ones first, then the checks
	 * an invalidation left unjudged.
	 */
	public static String pendingReason(RungRecorder run) {
		List<Measurement.Pending> invalid = run.invalidations();
		String reasons = java.util.stream.Stream.concat(invalid.stream(), run.pendings().stream().filter(p -> !invalid.contains(p)))
				.map(Measurement.Pending::reason)
				.collect(Collectors.joining("; "));
		return reasons + unjudged(run);
	}

	private static String unjudged(RungRecorder run) {
		List<Check> unjudged = unjudgedChecks(run);
		return unjudged.isEmpty()
				? ""
				: "; not judged on an invalid measurement: "
						+ unjudged.stream().map(Check::name).collect(Collectors.joining(", "));
	}

	/** The one-line reason a SIMULATED rung does not count under a profile that needs a real engine. */
	public static String simulatedMessage(RungRecorder run) {
		return "SIMULATED: rung " + run.artifact().rung() + " measured the engine double, not a real engine ("
				+ run.simulatedBecause().orElse("engine double") + "); profile " + run.config().profile().id()
				+ " counts only real engines: point -D" + HarnessConstants.BASE_URL + " at the serving engine";
	}

	/** The pending reason, or the reason the rung was aborted (skipped) before it could measure. */
	public static String pendingReason(RungRecorder run, Optional<Throwable> thrown) {
		String pending = pendingReason(run);
		return pending.isEmpty() ? thrown.map(Throwable::getMessage).orElse("") : pending;
	}

	/**
	 * The one-line failure of a FAIL verdict: the rung, then each failed check it was judged on; when the instrument
	 * also invalidated the measurement (a product check failed beside it), its reading follows, with the measurement
	 * checks it left unjudged.
	 */
	public static String failureMessage(RungRecorder run) {
		boolean beside = !run.invalidations().isEmpty() && run.checks().stream().anyMatch(Check::productFailure);
		List<Check> unjudged = beside ? unjudgedChecks(run) : List.of();
		List<Check> failed = failedChecks(run).stream().filter(c -> !unjudged.contains(c)).toList();
		if (failed.isEmpty()) {
			return "rung " + run.artifact().rung() + " " + NO_CHECK;
		}
		String invalid = !beside
				? ""
				: "; beside it, " + run.invalidations()
						.stream()
						.map(Measurement.Pending::reason)
						.collect(Collectors.joining("; ")) + unjudged(run);
		return "rung " + run.artifact().rung() + " failed " + failed.stream().map(Check::describe).collect(Collectors.joining("; "))
				+ invalid;
	}
}
