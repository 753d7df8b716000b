package dev.fakbattery.gateway;

import java.util.Optional;

import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.gateway.policy.Decision;
import dev.fakbattery.gateway.policy.Policy;

/**
 * Adjudicates whole tool calls against the policy, writes each decision to the request's record and counts it. A
 * transform that cannot be applied (redactions on arguments that are not a JSON object) fails closed: the call is
 * denied and the record says why.
 */
final class CallAdjudicator {

	/** What happens to one call: {@code arguments} is what goes out (null for DENY). */
	record Outcome(Action action, String arguments) {

		boolean survives() {
			return action != Action.DENY;
		}
	}

	private final Policy policy;

	private final AdjudicationRecord record;

	private final GatewayMetrics metrics;

	CallAdjudicator(Policy policy, AdjudicationRecord record, GatewayMetrics metrics) {
		this.policy = policy;
		this.record = record;
		this.metrics = metrics;
	}

	/**
	 * Decides a call by its tool name alone when the name decides it (ALLOW, DENY: a name rule), recorded and counted
	 * like {@link #adjudicate}; empty for TRANSFORM, whose outcome needs the whole arguments.
	 */
	Optional<Outcome> byName(String id, String tool) {
		Decision decision = policy.decide(tool);
		if (decision.action() == Action.TRANSFORM) {
			return Optional.empty();
		}
		record.call(id, tool, decision.action(), decision.rule(), decision.reason());
		metrics.adjudicated(decision.action());
		return Optional.of(new Outcome(decision.action(), null));
	}

	/** Decides a complete call; {@code arguments} is the whole arguments text (possibly not JSON). */
	Outcome adjudicate(String id, String tool, String arguments) {
		Decision decision = policy.decide(tool);
		Outcome outcome;
		String reason = decision.reason();
		try {
			outcome = switch (decision.action()) {
				case ALLOW -> new Outcome(Action.ALLOW, arguments);
				case DENY -> new Outcome(Action.DENY, null);
				case TRANSFORM -> new Outcome(Action.TRANSFORM, decision.apply(arguments == null ? "" : arguments));
			};
		}
		catch (IllegalArgumentException e) {
			outcome = new Outcome(Action.DENY, null);
			reason = "transform failed, denied: " + e.getMessage();
		}
		record.call(id, tool, outcome.action(), decision.rule(), reason);
		metrics.adjudicated(outcome.action());
		return outcome;
	}
}
