package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.fakbattery.api.NestedReport;
import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.ReportLabels;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult.Status;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

/**
 * The wire rung's one kit run for its artifact and the report ({@link KitLaunch}, {@link NestedReport}): each rule
 * run comes back for the artifact and, with a lifecycle to report on, is one entry of the report with the wire labels
 * and its own outcome (a failed rule failed there too), while the running test's own Allure case stays current.
 */
@DisplayName("the wire rung's kit run: one run for the artifact and the report")
class KitLaunchTests {

	@Test
	@DisplayName("each rule run comes back and is one report entry with its rule, target and outcome; the running test keeps its case")
	void ruleRunsReportedOnce() {
		AllureLifecycle global = Allure.getLifecycle();
		Optional<String> ours = global.getCurrentTestCase();
		assertThat(ours).as("this test's own Allure case (Allure's JUnit listener runs in this build)").isPresent();
		Recorder recorder = new Recorder();

		List<KitLaunch.RuleRun> runs = KitLaunch.run(Rules.class,
				HarnessConfig.hermeticParameters(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1")),
				Optional.of(new AllureLifecycle(recorder))).rules();

		assertThat(runs).extracting(r -> r.rule() + " [" + r.target() + "] " + r.status())
				.containsExactlyInAnyOrder("W98 held [vllm stream] SUCCESSFUL", "W99 broken [vllm stream] FAILED",
						"W97 not applicable [sglang non-stream] ABORTED");
		assertThat(runs).filteredOn(r -> r.status() == Status.FAILED)
				.singleElement()
				.satisfies(r -> assertThat(r.detail()).isEqualTo("W99 [vllm stream] observed a dropped call"));
		assertThat(recorder.results).extracting(r -> label(r, "feature") + " [" + label(r, "story") + "] " + r.getStatus())
				.as("one report entry per rule run, with its own outcome")
				.containsExactlyInAnyOrder("W98 held [vllm stream] PASSED", "W99 broken [vllm stream] FAILED",
						"W97 not applicable [sglang non-stream] SKIPPED");
		assertThat(recorder.results).allSatisfy(r -> {
			assertThat(label(r, "epic")).isEqualTo(ReportLabels.WIRE);
			assertThat(r.getParameters()).anySatisfy(p -> assertThat(p.getValue()).isEqualTo("gateway.url http://127.0.0.1:9/v1"));
		});
		assertThat(global.getCurrentTestCase()).as("the running test's Allure case after the nested run").isEqualTo(ours);
		assertThat(Allure.getLifecycle()).isSameAs(global);
	}

	@Test
	@DisplayName("without a lifecycle to report on, the rule runs come back and nothing is reported")
	void notReported() {
		Recorder recorder = new Recorder();
		KitLaunch.Runs runs = KitLaunch.run(Rules.class,
				HarnessConfig.hermeticParameters(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1")), Optional.empty());
		assertThat(runs.rules()).hasSize(3);
		assertThat(runs.containerFailures()).isEmpty();
		assertThat(recorder.results).isEmpty();
	}

	@Test
	@DisplayName("a class that fails before any rule runs: no rule run, and the container's failure with its reason")
	void containerFailure() {
		KitLaunch.Runs runs = KitLaunch.run(NoStart.class, HarnessConfig.hermeticParameters(Map.of()), Optional.empty());
		assertThat(runs.rules()).isEmpty();
		assertThat(runs.containerFailures()).singleElement().asString().contains("the gateway did not start");
	}

	@Test
	@DisplayName("the report shows rule runs under the measuring profiles and with a gateway named, not for the embedded gateway in verify")
	void whereRuleRunsAreReported() {
		assertThat(WireRungTests.reportsRuleRuns(config(Map.of()))).isFalse();
		assertThat(WireRungTests.reportsRuleRuns(config(Map.of(HarnessConstants.PROFILE, "battery")))).isTrue();
		assertThat(WireRungTests.reportsRuleRuns(config(Map.of(HarnessConstants.PROFILE, "gpu")))).isTrue();
		assertThat(WireRungTests.reportsRuleRuns(config(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1")))).isTrue();
		assertThat(WireRungTests.reportsRuleRuns(config(Map.of(HarnessConstants.GATEWAY_CMD, "gw --port {port}")))).isTrue();
	}

	@Test
	@DisplayName("a rung is in the report itself only when Allure's current case is a test of its own class")
	void reportsOnlyItsOwnClass() {
		assertThat(NestedReport.reports(KitLaunchTests.class)).isTrue();
		assertThat(NestedReport.reports(WireRungTests.class)).as("a rung run inside this test").isFalse();
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	private static String label(TestResult result, String name) {
		return result.getLabels().stream().filter(l -> l.getName().equals(name)).map(Label::getValue).findFirst().orElse("none");
	}

	/** Allure results kept in memory. */
	static final class Recorder implements AllureResultsWriter {

		final List<TestResult> results = new CopyOnWriteArrayList<>();

		@Override
		public void write(TestResult result) {
			results.add(result);
		}

		@Override
		public void write(TestResultContainer container) {
		}

		@Override
		public void write(String source, InputStream attachment) {
		}
	}

	/** A class whose set-up fails, as the kit's does when its gateway does not start. */
	static class NoStart {

		@org.junit.jupiter.api.BeforeAll
		static void start() {
			throw new IllegalStateException("the gateway did not start");
		}

		@Test
		void rule() {
		}
	}

	/** Three rule runs with known outcomes, labelled as the kit's classes against the gateway under test are. */
	@WireRuleReport
	static class Rules {

		@ParameterizedTest(name = "vllm stream")
		@ValueSource(strings = "vllm stream")
		@DisplayName("W98 held")
		void held(String target) {
		}

		@ParameterizedTest(name = "vllm stream")
		@ValueSource(strings = "vllm stream")
		@DisplayName("W99 broken")
		void broken(String target) {
			throw new AssertionError("W99 [" + target + "] observed a dropped call");
		}

		@ParameterizedTest(name = "sglang non-stream")
		@ValueSource(strings = "sglang non-stream")
		@DisplayName("W97 not applicable")
		void notApplicable(String target) {
			Assumptions.abort("not applicable here");
		}
	}
}
