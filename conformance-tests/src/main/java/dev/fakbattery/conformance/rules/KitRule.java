package dev.fakbattery.conformance.rules;

import org.apiguardian.api.API;

/**
 * One rule of the kit's index: its id (the test method's and the report's), the MUST sentence it holds a gateway to,
 * the modes it runs in, when it is skipped and what to check when it fails. RULES.md's rule tables are generated from
 * the index ({@link RulesMarkdown}); {@code RuleIndexTests} proves index, test methods and RULES.md agree.
 *
 * @since 0.6
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public interface KitRule {

	/** The rule's constant in its index (every index is an enum): its {@link Enum#name()}, the id. */
	String name();

	/** The id, e.g. {@code W01}: the test method carries it ({@code required_W01_...}), its display name begins with it. */
	default String id() {
		return name();
	}

	/** The rule's words: kind, title, MUST sentence, modes, skip condition, what to check when it fails. */
	Text text();

	/** The test's display name after the id. */
	default String title() {
		return text().title();
	}

	/** What a conforming gateway MUST do. */
	default String must() {
		return text().must();
	}

	/** The modes it judges: {@code both} (non-stream and stream) or {@code stream}. */
	default String modes() {
		return text().modes();
	}

	/** When it does not apply, and is skipped with that reason ({@code never} when it always applies). */
	default String skippedWhen() {
		return text().skippedWhen();
	}

	/** What to look for in the gateway when it fails. */
	default String ifItFails() {
		return text().ifItFails();
	}

	/** Whether a conforming gateway must keep it ({@code required_}), keeps it when it declares the kit's record ({@code optional_}), or it depends on timing ({@code stochastic_}). */
	default Kind kind() {
		return text().kind();
	}

	/**
	 * What a run of the rule must have seen before it can pass ({@link Evidence}); a run that passed its checks without it
	 * is {@link RuleOutcome#NOT_JUDGED}. {@link Evidence#DELIVERED} unless the rule says otherwise.
	 */
	default Evidence evidence() {
		return Evidence.DELIVERED;
	}

	/**
	 * The class of promise the rule holds a gateway to ({@link ConformanceClass}): a gateway that does not claim it
	 * still runs the rule, but its failure fails nothing.
	 */
	ConformanceClass conformanceClass();

	/** The test's display name: the id, a space, the title. */
	default String displayName() {
		return id() + " " + title();
	}

	/**
	 * The words of one rule, as RULES.md's tables show them.
	 *
	 * @param kind how binding it is
	 * @param title the test's display name after the id
	 * @param must what a conforming gateway MUST do
	 * @param modes {@code both} or {@code stream}
	 * @param skippedWhen when it does not apply ({@code never} when it always applies)
	 * @param ifItFails what to look for in the gateway when it fails
	 */
	@API(status = API.Status.EXPERIMENTAL, since = "0.6")
	record Text(Kind kind, String title, String must, String modes, String skippedWhen, String ifItFails) {
	}

	/** How binding a rule is; the test method's name begins with it. */
	@API(status = API.Status.EXPERIMENTAL, since = "0.6")
	enum Kind {
		/** A MUST for every gateway. */
		REQUIRED,
		/** Applies to gateways that declare the kit's adjudication record ({@code gateway.declares.record}). */
		OPTIONAL,
		/** A MUST that depends on timing; tagged {@code wire-timing}. */
		STOCHASTIC;

		/** The test method's prefix: {@code required_}, {@code optional_} or {@code stochastic_}. */
		public String prefix() {
			return name().toLowerCase(java.util.Locale.ROOT) + "_";
		}
	}
}
