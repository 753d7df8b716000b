package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.RequestDetail;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestStats;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The gateway's adjudication share as the wire shows it: both arms sent the same conversations, so each turn the raw
 * engine answered with calls can be set beside the same turn through the gateway. Of the calls the engine proposed
 * (the raw arm's), the gateway passed some unchanged, rewrote some ({@code {"redacted":true}}, the kit's transform)
 * and dropped the rest (denied: no byte on the wire). {@code share} = calls not passed unchanged over calls proposed.
 * Only turns both arms reached count (a gateway may end a conversation early by denying all of a round's calls).
 *
 * @param turns turns compared
 * @param proposed calls in the raw arm's answers at those turns
 * @param passed calls the gateway passed with the same name and arguments
 * @param redacted calls the gateway passed with the kit's redacted arguments
 * @param dropped proposed calls the gateway's answer lacked
 * @since 0.3
 */
public record Adjudication(int turns, long proposed, long passed, long redacted, long dropped) {

	/** The comparison; empty when the raw arm saw no tool call. */
	public static Optional<Adjudication> of(List<RequestOutcome> raw, List<RequestOutcome> gateway) {
		Map<List<Integer>, RequestOutcome> byTurn = new HashMap<>();
		gateway.stream().filter(RequestOutcome::ok).forEach(o -> byTurn.put(key(o), o));
		int turns = 0;
		long proposed = 0;
		long passed = 0;
		long redacted = 0;
		long dropped = 0;
		for (RequestOutcome r : raw) {
			RequestOutcome g = byTurn.get(key(r));
			if (!r.ok() || g == null || r.detail().toolCalls().isEmpty()) {
				continue;
			}
			turns++;
			List<RequestDetail.Call> left = new ArrayList<>(g.detail().toolCalls());
			proposed += r.detail().toolCalls().size();
			for (RequestDetail.Call call : r.detail().toolCalls()) {
				if (left.removeIf(same(call))) {
					passed++;
				}
			}
			long rewritten = left.stream().filter(c -> RequestStats.REDACTED.equals(c.arguments().replaceAll("\\s", ""))).count();
			redacted += rewritten;
			dropped += Math.max(0, r.detail().toolCalls().size() - g.detail().toolCalls().size());
		}
		return proposed == 0 ? Optional.empty() : Optional.of(new Adjudication(turns, proposed, passed, redacted, dropped));
	}

	private static java.util.function.Predicate<RequestDetail.Call> same(RequestDetail.Call call) {
		boolean[] taken = new boolean[1];
		return c -> !taken[0] && (taken[0] = c.name().equals(call.name()) && c.arguments().equals(call.arguments()));
	}

	private static List<Integer> key(RequestOutcome o) {
		return List.of(o.detail().conversation(), o.turn());
	}

	/** Calls not passed unchanged over calls proposed. */
	public double share() {
		return proposed == 0 ? Double.NaN : (proposed - passed) / (double) proposed;
	}

	/** {@code method, turns_compared, proposed, passed, redacted, dropped, share}. */
	public void writeTo(ObjectNode node) {
		node.put("method", "raw arm's calls vs the gateway arm's at the same conversation and turn (same seeded workload)");
		node.put("turns_compared", turns);
		node.put("proposed", proposed);
		node.put("passed", passed);
		node.put("redacted", redacted);
		node.put("dropped", dropped);
		JsonNumbers.put(node, "share", share(), 4);
	}
}
