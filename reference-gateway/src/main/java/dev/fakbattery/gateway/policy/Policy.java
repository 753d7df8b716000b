package dev.fakbattery.gateway.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Adjudication policy: rules by tool-name glob, first match in file order wins; a tool no rule
 * names gets the default decision (deny unless the policy says otherwise, as fak folds DEFER
 * into deny).
 *
 * <h2>Example</h2>
 * <pre>
 * Policy policy = PolicyLoader.load(Path.of("policy.yaml"));
 * Decision d = policy.decide("deny_write");   // DENY, reason POLICY_BLOCK
 * </pre>
 *
 * @since 0.1
 */
public final class Policy {

	private final List<Decision> decisions;
	private final GlobIndex index = new GlobIndex();
	private final Decision fallback;

	Policy(List<String> globs, List<Decision> decisions, Decision fallback) {
		this.decisions = List.copyOf(decisions);
		this.fallback = fallback;
		for (int i = 0; i < globs.size(); i++) {
			index.add(globs.get(i), i);
		}
	}

	/** The decision for a proposed call to {@code toolName}; allocates nothing. */
	public Decision decide(String toolName) {
		int order = index.firstMatch(toolName == null ? "" : toolName);
		return order == GlobIndex.NONE ? fallback : decisions.get(order);
	}

	public Decision defaultDecision() {
		return fallback;
	}

	public int ruleCount() {
		return decisions.size();
	}

	/** Starts a policy in code (tests, benchmarks). */
	public static Builder builder() {
		return new Builder();
	}

	/** Collects rules in order. */
	public static final class Builder {
		private final List<String> globs = new ArrayList<>();
		private final List<Decision> decisions = new ArrayList<>();
		private Decision fallback = new Decision(Action.DENY, "<default>", "no rule matches this tool (default deny)", null, List.of());

		public Builder rule(String glob, Decision decision) {
			globs.add(glob);
			decisions.add(decision);
			return this;
		}

		public Builder allow(String glob) {
			return rule(glob, new Decision(Action.ALLOW, glob, "allowed by rule " + glob, null, List.of()));
		}

		public Builder deny(String glob, String reason) {
			return rule(glob, new Decision(Action.DENY, glob, reason, null, List.of()));
		}

		public Builder fallback(Decision decision) {
			this.fallback = decision;
			return this;
		}

		public Policy build() {
			return new Policy(globs, decisions, fallback);
		}
	}
}
