package dev.fakbattery.conformance.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.EnumMap;
import java.util.Map;

import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.RuleOutcome;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

@DisplayName("standalone kit: the outcome summary counts each outcome apart")
@org.junit.jupiter.api.parallel.Isolated("the summary is the JVM's, as the standalone kit's runs use it")
class OutcomeSummaryTests {

	@Test
	@DisplayName("a launch's rule runs are counted by outcome, a disabled one as not applicable, and printed in one line")
	void countsOneLaunch() {
		StringWriter printed = new StringWriter();
		OutcomeSummary.to(new PrintWriter(printed), java.util.EnumSet.allOf(dev.fakbattery.conformance.rules.ConformanceClass.class));
		try {
			launchRuleRuns();
		}
		finally {
			OutcomeSummary.to(null, java.util.Set.of());
		}
		assertThat(printed.toString()).startsWith("kit outcomes: 2 rule runs passed, 1 failed, 1 pending, 1 not judged, 2 not applicable"
				+ System.lineSeparator());
	}

	@Test
	@DisplayName("the counts of the last launch printed are read back by outcome; a new summary forgets them")
	void countsReadBack() {
		OutcomeSummary.to(new PrintWriter(new StringWriter()),
				java.util.EnumSet.allOf(dev.fakbattery.conformance.rules.ConformanceClass.class));
		try {
			launchRuleRuns();
			assertThat(OutcomeSummary.count(RuleOutcome.PASS)).isEqualTo(2);
			assertThat(OutcomeSummary.count(RuleOutcome.NOT_JUDGED)).isOne();
			assertThat(OutcomeSummary.count(RuleOutcome.PENDING_MEASUREMENT)).isOne();
			assertThat(OutcomeSummary.count(RuleOutcome.NOT_APPLICABLE)).isEqualTo(2);
		}
		finally {
			OutcomeSummary.to(null, java.util.Set.of());
		}
		assertThat(OutcomeSummary.count(RuleOutcome.PASS)).isZero();
	}

	@Test
	@DisplayName("nothing is printed, and nothing is kept, while no standalone kit asked for the summary")
	void silentWithoutWriter() {
		OutcomeSummary.to(null, java.util.Set.of());
		launchRuleRuns();
		assertThat(OutcomeSummary.count(RuleOutcome.PASS)).isZero();
	}

	@Test
	@DisplayName("one listener over two launches counts each launch afresh, and its line is flushed to the writer at the end")
	void eachLaunchAfresh() {
		java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
		OutcomeSummary.to(new PrintWriter(new java.io.OutputStreamWriter(bytes, java.nio.charset.StandardCharsets.UTF_8)),
				java.util.EnumSet.allOf(dev.fakbattery.conformance.rules.ConformanceClass.class));
		try {
			var launcher = LauncherFactory.create(LauncherConfig.builder()
					.enableTestExecutionListenerAutoRegistration(false)
					.addTestExecutionListeners(new OutcomeSummary())
					.build());
			launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(RuleRunsTestCase.class)).build());
			launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(RuleRunsTestCase.class)).build());
		}
		finally {
			OutcomeSummary.to(null, java.util.Set.of());
		}
		String line = "kit outcomes: 2 rule runs passed, 1 failed, 1 pending, 1 not judged, 2 not applicable" + System.lineSeparator();
		String printed = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
		assertThat(printed).startsWith(line);
		assertThat(printed.split(java.util.regex.Pattern.quote(line), -1)).as("the line, once per launch").hasSize(3);
	}

	@Test
	@DisplayName("an outcome no rule run ended with is printed as 0")
	void zeroCounts() {
		Map<RuleOutcome, Integer> counts = new EnumMap<>(RuleOutcome.class);
		counts.put(RuleOutcome.NOT_JUDGED, 16);
		assertThat(OutcomeSummary.line(counts))
				.isEqualTo("kit outcomes: 0 rule runs passed, 0 failed, 0 pending, 16 not judged, 0 not applicable");
	}

	/**
	 * Runs {@link RuleRunsTestCase} through a launcher with the summary as its one listener, as the standalone kit's
	 * launcher has it among those registered on the class path (the others, Allure's, would report the fixture's runs).
	 */
	private static void launchRuleRuns() {
		LauncherFactory.create(LauncherConfig.builder()
				.enableTestExecutionListenerAutoRegistration(false)
				.addTestExecutionListeners(new OutcomeSummary())
				.build()).execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(RuleRunsTestCase.class)).build());
	}

	/** Rule runs ending each way, run by the tests above through their own launcher. */
	static class RuleRunsTestCase {

		@Test
		void kept() {
		}

		@Test
		void keptToo() {
		}

		@Test
		void broken() {
			throw new AssertionError("W03 [vllm stream]: expected 403, observed 200");
		}

		@Test
		void instrumentBehind() {
			throw new AssertionError(RuleOutcome.PENDING_PREFIX + "W14: the kit's upstream fell behind its pace");
		}

		@Test
		void sawNothing() {
			throw new NotJudged("W13 [vllm stream]: nothing reached the kit's upstream");
		}

		@Test
		void notConcerned() {
			Assumptions.assumeTrue(false, "concerns streaming");
		}

		@Test
		@Disabled("not this target's")
		void disabled() {
		}
	}
}
