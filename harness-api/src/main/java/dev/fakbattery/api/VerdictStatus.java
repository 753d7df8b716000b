package dev.fakbattery.api;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.fakbattery.core.Verdict;

import org.apiguardian.api.API;

import io.qameta.allure.listener.TestLifecycleListener;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.TestResult;

/**
 * Keeps a battery test whose verdict is not a real pass from reading as one in the report. A rung that passed its
 * JUnit test while its verdict is SIMULATED, PENDING_MEASUREMENT or PLANNED (and a wire rule that passed against the
 * embedded reference gateway, which proves only the kit) is written with Allure's {@code skipped} status and the
 * verdict and its reason as the status message ({@code SIMULATED: ...}), so that Overview never counts it as passed and
 * Categories file it under its verdict. A failed test stays failed.
 *
 * <p>An Allure {@link TestLifecycleListener} (registered in {@code META-INF/services}), applied just before each result
 * is written: after allure-jupiter set the status from the JUnit outcome, which a test's own extension cannot
 * override.
 *
 * @since 0.5
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class VerdictStatus implements TestLifecycleListener {

	private static final Map<String, String> NOT_A_PASS = new ConcurrentHashMap<>();

	/** Allure's service loader needs it; the state is shared by all instances. */
	public VerdictStatus() {
	}

	/**
	 * Records the verdict of the Allure test case {@code uuid}; one that is not a real pass ({@link #notAPass}) is
	 * written skipped with {@code VERDICT: reason}.
	 */
	static void record(String uuid, Verdict verdict, String reason) {
		if (notAPass(verdict)) {
			NOT_A_PASS.put(uuid, verdict.name() + ": " + reason);
		}
	}

	/** SIMULATED, PENDING_MEASUREMENT and PLANNED: a green pass in the report would say the target was measured. */
	static boolean notAPass(Verdict verdict) {
		return verdict == Verdict.SIMULATED || verdict == Verdict.PENDING_MEASUREMENT || verdict == Verdict.PLANNED;
	}

	@Override
	public void beforeTestWrite(TestResult result) {
		String message = NOT_A_PASS.remove(result.getUuid());
		if (message != null) {
			apply(result, message);
		}
	}

	/** A passed result becomes skipped with {@code message}; any other status is left as it is. */
	static void apply(TestResult result, String message) {
		if (result.getStatus() == Status.PASSED) {
			StatusDetails details = result.getStatusDetails() == null ? new StatusDetails() : result.getStatusDetails();
			result.setStatus(Status.SKIPPED).setStatusDetails(details.setMessage(message));
		}
	}
}
