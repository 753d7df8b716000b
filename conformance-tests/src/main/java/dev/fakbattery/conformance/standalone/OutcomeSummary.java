package dev.fakbattery.conformance.standalone;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Map;

import dev.fakbattery.conformance.rules.RuleOutcome;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The standalone kit's last line: each rule run counted by its outcome ({@link RuleOutcome}), so NOT_JUDGED and
 * PENDING_MEASUREMENT runs, which JUnit's own summary counts among the skipped or the failed, are counted apart.
 * Registered for every launcher on the class path, it prints only while {@link StandaloneKit} runs one
 * ({@link #to(PrintWriter)}).
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class OutcomeSummary implements TestExecutionListener {

	private static volatile PrintWriter out;

	private static volatile Map<RuleOutcome, Integer> last = Map.of();

	private final Map<RuleOutcome, Integer> counts = new EnumMap<>(RuleOutcome.class);

	/** Prints the summary of the launches that start from now on to {@code writer}; {@code null} stops it. */
	static void to(PrintWriter writer) {
		last = Map.of();
		out = writer;
	}

	@Override
	public void testPlanExecutionStarted(TestPlan plan) {
		counts.clear();
	}

	@Override
	public void executionSkipped(TestIdentifier identifier, String reason) {
		if (identifier.isTest()) {
			counts.merge(RuleOutcome.NOT_APPLICABLE, 1, Integer::sum);
		}
	}

	@Override
	public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
		if (identifier.isTest()) {
			counts.merge(RuleOutcome.of(result), 1, Integer::sum);
		}
	}

	@Override
	public void testPlanExecutionFinished(TestPlan plan) {
		PrintWriter writer = out;
		if (writer != null) {
			last = Map.copyOf(counts);
			writer.println(line(counts));
			writer.flush();
		}
	}

	/** How many rule runs of the last launch printed ended {@code outcome}. */
	static int count(RuleOutcome outcome) {
		return last.getOrDefault(outcome, 0);
	}

	/** {@code kit outcomes: 94 rule runs passed, 0 failed, 0 pending, 0 not judged, 14 not applicable}. */
	static String line(Map<RuleOutcome, Integer> counts) {
		StringBuilder line = new StringBuilder("kit outcomes: ");
		for (RuleOutcome outcome : RuleOutcome.values()) {
			int n = counts.getOrDefault(outcome, 0);
			line.append(outcome == RuleOutcome.PASS ? n + " rule runs " : ", " + n + " ").append(outcome.words());
		}
		return line.toString();
	}
}
