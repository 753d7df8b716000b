package dev.fakbattery.conformance.wire;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.fakbattery.api.NestedReport;
import dev.fakbattery.conformance.rules.RuleOutcome;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.junitplatform.AllureJunitPlatform;

/**
 * A kit class run inside the running test (a rung) through a JUnit launcher: every rule run that finished, in the
 * order they finished. With a lifecycle to report on, each rule run is also an entry of the battery report, as if the
 * class had run on its own (Allure's JUnit listener on that lifecycle, {@link NestedReport}): the rung's artifact and
 * the report then read the same run, and the kit runs once.
 */
final class KitLaunch {

	private KitLaunch() {
	}

	/**
	 * One rule run: the rule (the test method's display name, {@code W03 deny dropped}), the target (the invocation's,
	 * {@code vllm stream}) and how it ended.
	 */
	record RuleRun(String rule, String target, TestExecutionResult result) {

		TestExecutionResult.Status status() {
			return result.getStatus();
		}

		/** The failure's or the skip's message, empty for a pass. */
		String detail() {
			return RuleOutcome.message(result.getThrowable());
		}

		/** How it ended, in the kit's five outcomes. */
		RuleOutcome outcome() {
			return RuleOutcome.of(result);
		}
	}

	/**
	 * A kit run: each rule run that finished, in the order they finished, and why any container failed (a gateway that
	 * did not start fails the class before any rule runs).
	 */
	record Runs(List<RuleRun> rules, List<String> containerFailures) {

		long count(TestExecutionResult.Status status) {
			return rules.stream().filter(r -> r.status() == status).count();
		}

		long count(RuleOutcome outcome) {
			return rules.stream().filter(r -> r.outcome() == outcome).count();
		}
	}

	/**
	 * Runs {@code kit} with the configuration {@code parameters}. {@code report}: the lifecycle each rule run is
	 * reported on, none to leave them out of the report.
	 */
	static Runs run(Class<?> kit, Map<String, String> parameters, Optional<AllureLifecycle> report) {
		Recorder recorder = new Recorder();
		Map<String, String> all = new HashMap<>(parameters);
		Optional<String> key = report.map(NestedReport::open);
		key.ifPresent(k -> all.put(NestedReport.PARAMETER, k));
		try {
			LauncherConfig config = LauncherConfig.builder()
					.enableTestExecutionListenerAutoRegistration(false)
					.enablePostDiscoveryFilterAutoRegistration(false)
					.enableLauncherSessionListenerAutoRegistration(false)
					.enableLauncherDiscoveryListenerAutoRegistration(false)
					.build();
			List<TestExecutionListener> listeners = new java.util.ArrayList<>(List.of(recorder));
			report.ifPresent(lifecycle -> listeners.add(new AllureJunitPlatform(lifecycle)));
			NestedRun.call(() -> {
				LauncherFactory.create(config)
						.execute(LauncherDiscoveryRequestBuilder.request()
								.selectors(selectClass(kit))
								.filters(EngineFilter.includeEngines("junit-jupiter"))
								.configurationParameters(all)
								.build(), listeners.toArray(TestExecutionListener[]::new));
				return null;
			});
		}
		finally {
			key.ifPresent(NestedReport::close);
		}
		return new Runs(List.copyOf(recorder.runs), List.copyOf(recorder.failures));
	}

	/** Keeps each finished test with its parent's display name (the rule of a templated or parameterized run). */
	private static final class Recorder implements TestExecutionListener {

		final List<RuleRun> runs = new CopyOnWriteArrayList<>();

		final List<String> failures = new CopyOnWriteArrayList<>();

		private volatile TestPlan plan;

		@Override
		public void testPlanExecutionStarted(TestPlan testPlan) {
			plan = testPlan;
		}

		@Override
		public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
			if (identifier.isTest()) {
				String rule = plan.getParent(identifier).map(TestIdentifier::getDisplayName).orElse("?");
				runs.add(new RuleRun(rule, identifier.getDisplayName(), result));
			}
			else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
				failures.add(identifier.getDisplayName() + ": " + result.getThrowable().map(String::valueOf).orElse("failed"));
			}
		}
	}
}
