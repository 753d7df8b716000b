package dev.fakbattery.conformance.rules;

import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * Ends a failed rule run whose class the gateway does not claim ({@link ConformanceClass}): JUnit reports it aborted
 * (skipped in the XML), so it fails neither the build nor the standalone jar's exit code, with a message that begins
 * {@value RuleOutcome#NOT_CLAIMED_PREFIX}, names the class and the claim, and carries the failure's own text; the
 * failure is its cause. The kit counts it {@link RuleOutcome#NOT_CLAIMED}, never a pass.
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public final class NotClaimed extends TestAbortedException {

	private static final long serialVersionUID = 1L;

	/** The run of {@code rule} failed with {@code failure}, and the gateway claims only {@code claim}. */
	public NotClaimed(KitRule rule, String claim, String failure, Throwable cause) {
		super(RuleOutcome.NOT_CLAIMED_PREFIX + rule.id() + " is of the " + rule.conformanceClass().id()
				+ " class, which the gateway does not claim (gateway.classes=" + claim + "), so this failure fails nothing: " + failure,
				cause);
	}
}
