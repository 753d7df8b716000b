package dev.fakbattery.conformance.standalone;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.fakbattery.conformance.rules.ClassResults;
import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.KitRules;
import dev.fakbattery.conformance.rules.RuleOutcome;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The standalone kit's last lines: each rule run counted by its outcome ({@link RuleOutcome}), so NOT_JUDGED,
 * PENDING_MEASUREMENT and NOT_CLAIMED runs, which JUnit's own summary counts among the skipped or the failed, are
 * counted apart; then each conformance class's rules ({@link ClassResults}), the classes the gateway does not claim
 * marked so. Registered for every launcher on the class path, it prints only while {@link StandaloneKit} runs one
 * ({@link #to(PrintWriter)}).
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class OutcomeSummary implements TestExecutionListener {

	private static volatile PrintWriter out;

	private static volatile Set<ConformanceClass> claimed = EnumSet.allOf(ConformanceClass.class);

	private static volatile Map<RuleOutcome, Integer> last = Map.of();

	private static volatile int lastUnjudgedClaimed;

	private final Map<RuleOutcome, Integer> counts = new EnumMap<>(RuleOutcome.class);

	private ClassResults classes = new ClassResults(claimed);

	private int unjudgedClaimed;

	/**
	 * Prints the summary of the launches that start from now on to {@code writer}, for a gateway that claims
	 * {@code classes}; {@code null} stops it.
	 */
	static void to(PrintWriter writer, Set<ConformanceClass> classes) {
		last = Map.of();
		lastUnjudgedClaimed = 0;
		claimed = Set.copyOf(classes);
		out = writer;
	}

	@Override
	public void testPlanExecutionStarted(TestPlan plan) {
		counts.clear();
		classes = new ClassResults(claimed);
		unjudgedClaimed = 0;
	}

	@Override
	public void executionSkipped(TestIdentifier identifier, String reason) {
		if (identifier.isTest()) {
			count(identifier, RuleOutcome.NOT_APPLICABLE);
		}
	}

	@Override
	public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
		if (identifier.isTest()) {
			count(identifier, RuleOutcome.of(result));
		}
	}

	private void count(TestIdentifier identifier, RuleOutcome outcome) {
		counts.merge(outcome, 1, Integer::sum);
		Optional<KitRule> rule = rule(identifier);
		rule.ifPresent(r -> classes.add(r.id(), outcome));
		boolean isClaimed = rule.map(r -> claimed.contains(r.conformanceClass())).orElse(true);
		if (isClaimed && (outcome == RuleOutcome.NOT_JUDGED || outcome == RuleOutcome.PENDING_MEASUREMENT)) {
			unjudgedClaimed++;
		}
	}

	@Override
	public void testPlanExecutionFinished(TestPlan plan) {
		PrintWriter writer = out;
		if (writer != null) {
			last = Map.copyOf(counts);
			lastUnjudgedClaimed = unjudgedClaimed;
			writer.println(line(counts));
			writer.println("kit classes (claimed: " + ConformanceClass.claim(claimed) + "): " + classes.line());
			writer.flush();
		}
	}

	/** How many rule runs of the last launch printed ended {@code outcome}. */
	static int count(RuleOutcome outcome) {
		return last.getOrDefault(outcome, 0);
	}

	/** How many rule runs of a claimed class (or of no rule) in the last launch printed were not judged or pending. */
	static int unjudgedClaimed() {
		return lastUnjudgedClaimed;
	}

	/** The rule a test runs, by its method's name ({@code required_W01_modelAlias}). */
	private static Optional<KitRule> rule(TestIdentifier identifier) {
		return identifier.getSource()
				.filter(MethodSource.class::isInstance)
				.map(MethodSource.class::cast)
				.flatMap(source -> KitRules.byMethod(source.getMethodName()));
	}

	/** {@code kit outcomes: 98 rule runs passed, 0 failed, 0 pending, 0 not judged, 14 not applicable} (and {@code , 3 failed unclaimed} where some did). */
	static String line(Map<RuleOutcome, Integer> counts) {
		StringBuilder line = new StringBuilder("kit outcomes: ");
		for (RuleOutcome outcome : RuleOutcome.values()) {
			int n = counts.getOrDefault(outcome, 0);
			if (outcome == RuleOutcome.NOT_CLAIMED && n == 0) {
				continue;
			}
			line.append(outcome == RuleOutcome.PASS ? n + " rule runs " : ", " + n + " ").append(outcome.words());
		}
		return line.toString();
	}
}
