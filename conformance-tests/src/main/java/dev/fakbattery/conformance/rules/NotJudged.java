package dev.fakbattery.conformance.rules;

import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * Ends a rule run that saw none of the evidence its rule needs ({@link Evidence}): JUnit reports it aborted (skipped in
 * the XML) with a message that begins {@value RuleOutcome#NOT_JUDGED_PREFIX}, the kit counts it
 * {@link RuleOutcome#NOT_JUDGED}, and it is never a pass.
 *
 * @since 0.8
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.8")
public final class NotJudged extends TestAbortedException {

	private static final long serialVersionUID = 1L;

	/** {@code why}: what was missing, naming the rule and the target. */
	public NotJudged(String why) {
		super(RuleOutcome.NOT_JUDGED_PREFIX + why);
	}
}
