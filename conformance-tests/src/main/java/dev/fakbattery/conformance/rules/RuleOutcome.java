package dev.fakbattery.conformance.rules;

import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;

/**
 * How one rule run ended, read from its JUnit result: the outcomes the kit's artifacts, console and report count
 * apart. JUnit knows three (successful, failed, aborted); the kit tells the aborted ones apart by how their message
 * begins ({@link #NOT_JUDGED_PREFIX}, {@link #PENDING_PREFIX}, {@link #NOT_CLAIMED_PREFIX}), so a reader of the JUnit XML tells them apart too.
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public enum RuleOutcome {

	/** The rule was kept, on the evidence it needs. */
	PASS,
	/** The rule was broken: the message names the rule, the target, what was expected and what was observed. */
	FAIL,
	/**
	 * The kit's own instrument could not judge (its upstream fell behind its pace), or what the rule needs is missing (a
	 * client library, the gateway's documented limits); the message names what to set or fix. Fails a strict run.
	 */
	PENDING_MEASUREMENT,
	/**
	 * The rule saw none of the evidence it needs ({@link Evidence}): nothing reached the kit's upstream, nothing was
	 * delivered. Never a pass.
	 */
	NOT_JUDGED,
	/** The rule does not concern this target (a stream rule in non-stream mode, a record the gateway does not declare). */
	NOT_APPLICABLE,
	/**
	 * The rule failed, and its class ({@link ConformanceClass}) is one the gateway does not claim: reported with its
	 * failure's text ({@link NotClaimed}), counted under its class as not claimed, failing nothing. Never a pass.
	 */
	NOT_CLAIMED;

	/** How the message of a rule run that saw no evidence begins. */
	public static final String NOT_JUDGED_PREFIX = "NOT_JUDGED: ";

	/** How the message of a rule run its instrument could not judge begins. */
	public static final String PENDING_PREFIX = "PENDING_MEASUREMENT: ";

	/** How the message of a failed rule run of a class the gateway does not claim begins. */
	public static final String NOT_CLAIMED_PREFIX = "NOT_CLAIMED: ";

	private static final String ASSUMPTION = "Assumption failed: ";

	/** The outcome of a rule run that ended with {@code result}. */
	public static RuleOutcome of(TestExecutionResult result) {
		String message = message(result.getThrowable());
		return switch (result.getStatus()) {
			case SUCCESSFUL -> PASS;
			case FAILED -> message.startsWith(PENDING_PREFIX) ? PENDING_MEASUREMENT : FAIL;
			case ABORTED -> message.startsWith(NOT_JUDGED_PREFIX)
					? NOT_JUDGED
					: message.startsWith(PENDING_PREFIX)
							? PENDING_MEASUREMENT
							: message.startsWith(NOT_CLAIMED_PREFIX) ? NOT_CLAIMED : NOT_APPLICABLE;
		};
	}

	/** The message of a rule run's throwable, JUnit's "Assumption failed: " taken off; empty for none. */
	public static String message(Optional<Throwable> thrown) {
		String message = thrown.map(Throwable::getMessage).orElse("");
		message = message == null ? "" : message;
		return message.startsWith(ASSUMPTION) ? message.substring(ASSUMPTION.length()) : message;
	}

	/** The outcome's words in counts and tables: {@code not judged}, {@code pending}. */
	public String words() {
		return switch (this) {
			case PASS -> "passed";
			case FAIL -> "failed";
			case PENDING_MEASUREMENT -> "pending";
			case NOT_JUDGED -> "not judged";
			case NOT_APPLICABLE -> "not applicable";
			case NOT_CLAIMED -> "failed unclaimed";
		};
	}
}
