package dev.fakbattery.api;

import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Turns a rung's computed verdict into the test outcome: FAIL fails with the failed checks;
 * PENDING_MEASUREMENT (and PLANNED) fails unless {@code allow.pending} is true, and then aborts
 * with the reason; a rung that measured the engine double (SIMULATED, or pending on the double) fails under a
 * profile that needs a real engine ({@code -Pgpu}), naming the rung and the double first. It never lets a pending or simulated rung pass where it must not.
 */
class FailClosedExtension implements AfterTestExecutionCallback {

	static final String PENDING = "PENDING_MEASUREMENT: ";
	static final String PLANNED = "PLANNED: ";

	@Override
	public void afterTestExecution(ExtensionContext context) {
		if (context.getExecutionException().isPresent()) {
			return;
		}
		RungRecorder run = RungRecorderExtension.runOf(context).orElse(null);
		if (run == null) {
			return;
		}
		Verdict verdict = RungOutcome.verdict(run, context.getExecutionException());
		if (verdict != Verdict.FAIL && run.simulatedBecause().isPresent() && !run.config().profile().simulatedAccepted()) {
			throw new AssertionFailedError(RungOutcome.simulatedMessage(run));
		}
		switch (verdict) {
			case FAIL -> throw new AssertionFailedError(RungOutcome.failureMessage(run));
			case PENDING_MEASUREMENT -> notMeasured(run, PENDING + RungOutcome.pendingReason(run));
			case PLANNED -> notMeasured(run, PLANNED + run.plannedBecause().orElseThrow() + " (dry run: nothing was measured)");
			case PASS, SIMULATED -> {
			}
		}
	}

	private static void notMeasured(RungRecorder run, String message) {
		if (run.config().allowPending()) {
			throw new TestAbortedException(message);
		}
		throw new PendingMeasurementError(message);
	}
}
