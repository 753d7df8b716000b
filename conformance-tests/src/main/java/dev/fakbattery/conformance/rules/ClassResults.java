package dev.fakbattery.conformance.rules;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apiguardian.api.API;

/**
 * A kit run's result per conformance class ({@link ConformanceClass}): each rule run added by its rule's id and
 * outcome, each rule judged by all its runs (failed when one failed, claimed or not; else pending when one is pending;
 * else not judged when one saw no evidence; else passed when one passed; else not applicable), and each class counted
 * in rules: {@code relay 17/19 rules passed (2 failed), adjudication not claimed (3/7 passed), resilience 3/7 rules
 * passed (4 pending)}. Runs of ids outside the index (a probe, a self-test) are left out.
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class ClassResults {

	private final Map<String, List<RuleOutcome>> runs = new LinkedHashMap<>();

	private final Set<ConformanceClass> claimed;

	/** Results of a run whose gateway claims {@code claimed}. */
	public ClassResults(Set<ConformanceClass> claimed) {
		this.claimed = Set.copyOf(claimed);
	}

	/** One run of the rule {@code id} ({@code W03}) that ended {@code outcome}; ignored when {@code id} is no rule's. */
	public synchronized ClassResults add(String id, RuleOutcome outcome) {
		if (KitRules.byId(id).isPresent()) {
			runs.computeIfAbsent(id, i -> new ArrayList<>()).add(outcome);
		}
		return this;
	}

	/** Each class with at least one rule run, in the classes' order, with its counts. */
	public synchronized List<ClassResult> classes() {
		Map<ConformanceClass, int[]> counts = new EnumMap<>(ConformanceClass.class);
		runs.forEach((id, outcomes) -> {
			ConformanceClass of = KitRules.byId(id).orElseThrow().conformanceClass();
			counts.computeIfAbsent(of, c -> new int[RuleOutcome.values().length])[verdict(outcomes).ordinal()]++;
		});
		List<ClassResult> out = new ArrayList<>();
		counts.forEach((c, n) -> out.add(new ClassResult(c, claimed.contains(c), n[RuleOutcome.PASS.ordinal()],
				n[RuleOutcome.FAIL.ordinal()] + n[RuleOutcome.NOT_CLAIMED.ordinal()], n[RuleOutcome.PENDING_MEASUREMENT.ordinal()],
				n[RuleOutcome.NOT_JUDGED.ordinal()], n[RuleOutcome.NOT_APPLICABLE.ordinal()])));
		return out;
	}

	/** {@code relay 17/19 rules passed (2 failed), adjudication not claimed (3/7 passed)}; {@code no rule ran} when none did. */
	public String line() {
		List<String> parts = classes().stream().map(ClassResult::words).toList();
		return parts.isEmpty() ? "no rule ran" : String.join(", ", parts);
	}

	/**
	 * Each class with a rule run into {@code out}, by its id: {@code claimed}, then its rules {@code passed},
	 * {@code failed}, {@code pending}, {@code not_judged}, {@code not_applicable}; {@code out} for chaining.
	 */
	public ObjectNode writeTo(ObjectNode out) {
		for (ClassResult result : classes()) {
			out.putObject(result.conformanceClass().id())
					.put("claimed", result.claimed())
					.put("passed", result.passed())
					.put("failed", result.failed())
					.put("pending", result.pending())
					.put("not_judged", result.notJudged())
					.put("not_applicable", result.notApplicable());
		}
		return out;
	}

	/** A rule's outcome from all its runs: a failure outweighs a pending run, which outweighs one without evidence. */
	static RuleOutcome verdict(List<RuleOutcome> outcomes) {
		for (RuleOutcome worst : List.of(RuleOutcome.FAIL, RuleOutcome.NOT_CLAIMED, RuleOutcome.PENDING_MEASUREMENT, RuleOutcome.NOT_JUDGED,
				RuleOutcome.PASS)) {
			if (outcomes.contains(worst)) {
				return worst;
			}
		}
		return RuleOutcome.NOT_APPLICABLE;
	}

	/**
	 * One class's rules counted by their outcome over all their runs; {@code failed} counts the failed rules whether the
	 * class is claimed or not.
	 *
	 * @param conformanceClass the class
	 * @param claimed whether the gateway claims it
	 * @param passed rules every applicable run of which passed
	 * @param failed rules with a failed run
	 * @param pending rules with a pending run and none failed
	 * @param notJudged rules with a run without evidence and none failed or pending
	 * @param notApplicable rules none of whose runs applied
	 */
	@API(status = API.Status.INTERNAL, since = "0.8")
	public record ClassResult(ConformanceClass conformanceClass, boolean claimed, int passed, int failed, int pending, int notJudged,
			int notApplicable) {

		/** The rules that applied: all but the not applicable ones. */
		public int applied() {
			return passed + failed + pending + notJudged;
		}

		/** {@code relay 17/19 rules passed (1 failed, 1 pending)}, or {@code adjudication not claimed (3/7 passed)}. */
		public String words() {
			String ratio = passed + "/" + applied();
			if (!claimed) {
				return conformanceClass.id() + " not claimed (" + ratio + " passed)";
			}
			List<String> rest = new ArrayList<>();
			if (failed > 0) {
				rest.add(failed + " failed");
			}
			if (pending > 0) {
				rest.add(pending + " pending");
			}
			if (notJudged > 0) {
				rest.add(notJudged + " not judged");
			}
			return conformanceClass.id() + " " + ratio + " rules passed" + (rest.isEmpty() ? "" : " (" + String.join(", ", rest) + ")");
		}
	}
}
