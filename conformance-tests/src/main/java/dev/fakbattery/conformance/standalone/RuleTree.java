package dev.fakbattery.conformance.standalone;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.fakbattery.conformance.rules.RuleOutcome;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The standalone kit's console tree: each rule with the outcome of its runs (JUnit's own tree marks a rule ✔ when its
 * container ran, even when every run of it failed), each run under it with its outcome and, where it did not pass, its
 * whole message (every failing case). It also keeps each run's XML name, {@code W01 model alias ... [vllm stream]}
 * ({@link #xmlNames()}), which {@link XmlNames} writes into the JUnit XML. Registered for every launcher on the class
 * path, it prints only while {@link StandaloneKit} runs one ({@link #to(PrintWriter)}).
 */
@API(status = API.Status.INTERNAL, since = "0.8")
public final class RuleTree implements TestExecutionListener {

	private static volatile PrintWriter out;

	private static volatile Map<String, String> names = Map.of();

	private final Map<String, List<Run>> runs = new ConcurrentHashMap<>();

	private final Map<String, String> xml = new ConcurrentHashMap<>();

	private volatile TestPlan plan;

	/** One finished rule run: its target ({@code vllm stream}), outcome and message. */
	record Run(String target, RuleOutcome outcome, String message) {
	}

	/** Prints the tree of the launches that start from now on to {@code writer}; {@code null} stops it. */
	static void to(PrintWriter writer) {
		names = Map.of();
		out = writer;
	}

	/** The XML name of each rule run of the last launch printed, by its JUnit legacy reporting name. */
	static Map<String, String> xmlNames() {
		return names;
	}

	@Override
	public void testPlanExecutionStarted(TestPlan testPlan) {
		plan = testPlan;
		runs.clear();
		xml.clear();
	}

	@Override
	public void executionSkipped(TestIdentifier identifier, String reason) {
		if (out == null) {
			return;
		}
		if (identifier.isTest()) {
			add(identifier, new Run(identifier.getDisplayName(), RuleOutcome.NOT_APPLICABLE, reason));
		}
		else {
			print(mark(RuleOutcome.NOT_APPLICABLE) + " " + identifier.getDisplayName() + ": " + reason);
		}
	}

	@Override
	public void executionStarted(TestIdentifier identifier) {
		if (identifier.isContainer() && identifier.getSource().filter(ClassSource.class::isInstance).isPresent()) {
			print(identifier.getDisplayName());
		}
	}

	@Override
	public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
		if (out == null) {
			return;
		}
		if (identifier.isTest()) {
			add(identifier, new Run(identifier.getDisplayName(), RuleOutcome.of(result), RuleOutcome.message(result.getThrowable())));
			return;
		}
		List<Run> done = runs.remove(identifier.getUniqueId());
		if (done != null) {
			print(line(identifier.getDisplayName(), done));
		}
		if (result.getStatus() == TestExecutionResult.Status.FAILED) {
			print(mark(RuleOutcome.FAIL) + " " + identifier.getDisplayName() + ": " + RuleOutcome.message(result.getThrowable()));
		}
	}

	@Override
	public void testPlanExecutionFinished(TestPlan testPlan) {
		if (out != null) {
			names = Map.copyOf(xml);
		}
	}

	private void add(TestIdentifier identifier, Run run) {
		String rule = plan.getParent(identifier).map(TestIdentifier::getDisplayName).orElse("?");
		xml.put(identifier.getLegacyReportingName(), rule + " [" + identifier.getDisplayName() + "]");
		runs.computeIfAbsent(identifier.getParentId().orElse("?"), k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(run);
	}

	/**
	 * A rule and its runs: {@code ✘ W01 ...: 2 of 2 runs failed}, ✔ only when every run passed, then one line per run
	 * with its outcome and, where it did not pass, its message.
	 */
	static String line(String rule, List<Run> done) {
		Map<RuleOutcome, Integer> counts = new EnumMap<>(RuleOutcome.class);
		done.forEach(run -> counts.merge(run.outcome(), 1, Integer::sum));
		RuleOutcome worst = counts.keySet()
				.stream()
				.min(java.util.Comparator.comparingInt(RuleTree::severity))
				.orElse(RuleOutcome.NOT_APPLICABLE);
		List<String> parts = new ArrayList<>();
		counts.forEach((outcome, n) -> parts.add(n + " " + outcome.words()));
		StringBuilder text = new StringBuilder("  " + mark(worst) + " " + rule + ": " + done.size() + " run" + (done.size() == 1 ? "" : "s")
				+ ", " + String.join(", ", parts));
		for (Run run : done) {
			text.append("\n    ").append(mark(run.outcome())).append(" [").append(run.target()).append("] ").append(run.outcome().words());
			if (run.outcome() != RuleOutcome.PASS && !run.message().isEmpty()) {
				text.append(": ").append(run.message().replace("\n", "\n        "));
			}
		}
		return text.toString();
	}

	/** Which outcome marks a rule: a failure first, then pending, not judged, a failure outside the claim, a pass, not applicable. */
	private static int severity(RuleOutcome outcome) {
		return switch (outcome) {
			case FAIL -> 0;
			case PENDING_MEASUREMENT -> 1;
			case NOT_JUDGED -> 2;
			case NOT_CLAIMED -> 3;
			case PASS -> 4;
			case NOT_APPLICABLE -> 5;
		};
	}

	static String mark(RuleOutcome outcome) {
		return switch (outcome) {
			case PASS -> "✔";
			case FAIL -> "✘";
			case PENDING_MEASUREMENT, NOT_JUDGED -> "■";
			case NOT_APPLICABLE -> "↷";
			case NOT_CLAIMED -> "○";
		};
	}

	private static void print(String line) {
		PrintWriter writer = out;
		if (writer != null) {
			writer.println(line);
			writer.flush();
		}
	}
}
