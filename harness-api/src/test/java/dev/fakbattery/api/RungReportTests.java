package dev.fakbattery.api;

import static dev.fakbattery.api.AllureRecorder.label;
import static dev.fakbattery.api.AllureRecorder.parameter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.ReportLabels;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.stats.ConfidenceInterval;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;

import io.qameta.allure.model.Status;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResult;

/**
 * What the battery report shows of a rung and of a wire rule, read from Allure results of a real launcher run; and
 * that a rung or rule run inside another test (an EngineTestKit self-test) does not move that test into the battery.
 */
@Isolated("swaps Allure's global lifecycle")
@DisplayName("battery report: a rung's page, a wire rule's labels, nothing from nested runs")
class RungReportTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a rung is Battery > its rung > its test, verdict in name, label and parameter, headline as description")
	void rungPage() {
		TestResult result = run(RungTestCase.class).result("tax witness");
		assertThat(result.getName()).isEqualTo("tax witness [FAIL]");
		assertThat(label(result, "epic")).hasValue(ReportLabels.BATTERY);
		assertThat(label(result, "feature")).hasValue("rung 3 tax");
		assertThat(label(result, "story")).hasValue("tax witness");
		assertThat(label(result, ReportLabels.VERDICT)).hasValue("FAIL");
		assertThat(parameter(result, "verdict")).hasValue("FAIL");
		assertThat(result.getDescription()).startsWith("FAIL: latency_tax 1.0700 [1.0400, 1.1000]")
				.contains("FAIL: rung 3 tax failed check decode_measured: expected a decode tax, observed no gateway arm");
	}

	@Test
	@DisplayName("parameters say what the rung ran against; what is not known reads unknown")
	void rungParameters() {
		TestResult result = run(RungTestCase.class).result("tax witness");
		assertThat(parameter(result, "engine")).hasValue("none measured by this rung");
		assertThat(parameter(result, "engine version")).hasValue("unknown");
		assertThat(parameter(result, "workload")).hasValue("8 streamed samples per arm");
		assertThat(parameter(result, "run id")).hasValue("20261130T201500Z");
		assertThat(parameter(result, "gateway")).hasValueSatisfying(g -> assertThat(g).startsWith("embedded reference gateway"));
		assertThat(result.getParameters()).extracting(p -> p.getName())
				.contains("model", "precision", "batching", "commit");
	}

	@Test
	@DisplayName("each check, measurement and pending reason is a step with its own status; the artifact is attached")
	void rungSteps() {
		AllureRecorder recorder = run(RungTestCase.class);
		TestResult result = recorder.result("tax witness");
		assertThat(result.getSteps()).extracting(StepResult::getName, StepResult::getStatus)
				.containsExactly(
						org.assertj.core.groups.Tuple.tuple("check tax_measured", Status.PASSED),
						org.assertj.core.groups.Tuple.tuple("check decode_measured", Status.FAILED),
						org.assertj.core.groups.Tuple.tuple("measured latency_tax = 1.0700 ratio, 95% CI [1.0400, 1.1000]", Status.PASSED));
		assertThat(result.getSteps().get(1).getParameters()).extracting(p -> p.getName() + "=" + p.getValue())
				.containsExactlyInAnyOrder("expected=a decode tax", "observed=no gateway arm");
		assertThat(result.getAttachments()).extracting(a -> a.getName()).containsExactly("adjudication-tax-witness.json");
	}

	@Test
	@DisplayName("a file the rung attached is attached beside the artifact; one it never wrote is left out, not a failed report")
	void attachedFiles() {
		TestResult result = run(AttachingRungTestCase.class).result("tax witness");
		assertThat(result.getStatus()).isEqualTo(Status.PASSED);
		assertThat(result.getAttachments()).extracting(a -> a.getName()).containsExactly("adjudication-tax-witness.json", "tax-plot.svg");
		assertThat(result.getAttachments().get(1).getType()).isEqualTo("image/svg+xml");
	}

	@Test
	@DisplayName("the artifact carries the interval as ci95 beside the value, and the workload")
	void artifactInterval() throws Exception {
		run(RungTestCase.class);
		com.fasterxml.jackson.databind.JsonNode doc = dev.fakbattery.wire.Json.MAPPER
				.readTree(dir.resolve("adjudication-tax-witness.json").toFile());
		assertThat(doc.path("measurements").get(0).path("ci95").toString()).isEqualTo("{\"low\":1.04,\"high\":1.1}");
		assertThat(doc.path("workload").asText()).isEqualTo("8 streamed samples per arm");
	}

	private static ConfidenceInterval bounds(double lo, double hi) {
		return ConfidenceInterval.ofBounds("ratio of medians", lo, lo, hi, 0.95);
	}

	@Test
	@DisplayName("an interval is finite and ordered; two overlap when they share a point")
	void interval() {
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> bounds(1.1, 1.0))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessage("confidence interval [1.1, 1.0] is not finite and ordered");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> Measurement.of("n", 1, "u", "s",
				ConfidenceInterval.undefined("ratio of medians", "no samples", 0.95, 0, 1)))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessage("measurement n: confidence interval [NaN, NaN] is not defined, finite and ordered (no samples)");
		assertThat(bounds(1.0, 1.1).overlaps(bounds(1.1, 1.2))).isTrue();
		assertThat(bounds(1.0, 1.1).overlaps(bounds(1.11, 1.2))).isFalse();
		assertThat(bounds(1.0, 1.1).overlaps(ConfidenceInterval.undefined("ratio of medians", "no samples", 0.95, 0, 1))).isFalse();
		assertThat(new Measurement.Measured("n", 1, "u", "s").ci()).isEmpty();
		RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, HarnessConfig.of(name -> java.util.Optional.empty()));
		assertThat(run.measured("latency_tax", 1, "ratio", "s", ConfidenceInterval.undefined("ratio of medians", "no samples", 0.95, 0, 1))
				.ci()).as("an interval that could not be computed is left out").isEmpty();
	}

	@Test
	@DisplayName("a wire rule is Wire conformance > its rule > its target, with the gateway under test")
	void wireRule() {
		TestResult result = run(WireRuleTestCase.class).result("W99 fixture rule");
		assertThat(label(result, "epic")).hasValue(ReportLabels.WIRE);
		assertThat(label(result, "feature")).hasValue("W99 fixture rule");
		assertThat(label(result, "story")).hasValue("vllm stream");
		assertThat(parameter(result, "gateway")).hasValueSatisfying(g -> assertThat(g).startsWith("embedded reference gateway"));
	}

	@Test
	@DisplayName("a SIMULATED or PENDING_MEASUREMENT rung is skipped in the report, with its verdict and reason; PASS passes, FAIL fails")
	void verdictIsTheReportStatus() {
		TestResult simulated = run(SimulatedRungTestCase.class).result("tax witness");
		assertThat(simulated.getName()).isEqualTo("tax witness [SIMULATED]");
		assertThat(simulated.getStatus()).as("a SIMULATED rung whose JUnit test passed").isEqualTo(Status.SKIPPED);
		assertThat(simulated.getStatusDetails().getMessage())
				.isEqualTo("SIMULATED: the engine at http://127.0.0.1:5/v1 is the engine double");
		TestResult pending = run(PendingRungTestCase.class).result("tax witness");
		assertThat(pending.getStatus()).isEqualTo(Status.SKIPPED);
		assertThat(pending.getStatusDetails().getMessage()).startsWith("PENDING_MEASUREMENT: raw engine base URL is not configured");
		TestResult pass = run(PassRungTestCase.class).result("tax witness");
		assertThat(pass.getName()).isEqualTo("tax witness [PASS]");
		assertThat(pass.getStatus()).isEqualTo(Status.PASSED);
		assertThat(run(RungTestCase.class).result("tax witness").getStatus()).isEqualTo(Status.FAILED);
	}

	@Test
	@DisplayName("a wire rule that held against the embedded reference gateway is SIMULATED, skipped; against a named gateway it passes")
	void wireRuleOnEmbeddedIsSimulated() {
		TestResult embedded = run(WireRuleTestCase.class).result("W99 fixture rule");
		assertThat(embedded.getStatus()).isEqualTo(Status.SKIPPED);
		assertThat(embedded.getStatusDetails().getMessage()).startsWith("SIMULATED: the rule ran against the embedded reference gateway");
		assertThat(label(embedded, ReportLabels.VERDICT)).hasValue("SIMULATED");
		TestResult named = AllureRecorder.run(WireRuleTestCase.class, Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
				HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1")).result("W99 fixture rule");
		assertThat(named.getStatus()).isEqualTo(Status.PASSED);
		assertThat(label(named, ReportLabels.VERDICT)).isEmpty();
	}

	@Test
	@DisplayName("the verdict status is Allure's lifecycle listener, and it never turns a failure into a skip")
	void listenerRegisteredAndFailuresStay() {
		assertThat(
				java.util.ServiceLoader.load(io.qameta.allure.listener.TestLifecycleListener.class).stream().map(p -> p.type().getName()))
				.contains(VerdictStatus.class.getName());
		TestResult failed = new TestResult().setStatus(Status.FAILED);
		VerdictStatus.apply(failed, "SIMULATED: x");
		assertThat(failed.getStatus()).isEqualTo(Status.FAILED);
		TestResult passed = new TestResult().setStatus(Status.PASSED);
		VerdictStatus.apply(passed, "PLANNED: dry run");
		assertThat(passed.getStatus()).isEqualTo(Status.SKIPPED);
		assertThat(passed.getStatusDetails().getMessage()).isEqualTo("PLANNED: dry run");
	}

	@Test
	@DisplayName("a rung or a rule run inside another test labels nothing and attaches nothing to it")
	void nestedRunsStayOut() {
		AllureRecorder recorder = run(NestedTestCase.class);
		for (String name : new String[]{ "runs a rung inside", "runs a rule inside" }) {
			TestResult outer = recorder.result(name);
			assertThat(outer.getLabels()).extracting(l -> l.getName()).doesNotContain("epic", "feature", "story", ReportLabels.VERDICT);
			assertThat(outer.getAttachments()).isEmpty();
			assertThat(outer.getSteps()).isEmpty();
		}
		assertThat(recorder.results).hasSize(2);
	}

	private AllureRecorder run(Class<?> testClass) {
		return AllureRecorder.run(testClass, Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(), HarnessConstants.PROFILE, "battery",
				HarnessConstants.ALLOW_PENDING, "true", HarnessConstants.RUN_ID, "20261130T201500Z"));
	}

	// -------------------------------------------------------------------------

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class RungTestCase {

		@Test
		@DisplayName("tax witness")
		void witness(RungRecorder run) {
			run.workload("8 streamed samples per arm");
			run.measured("latency_tax", 1.07, "ratio", "median(gateway)/median(raw)",
					new ConfidenceInterval("ratio of medians", 1.07, 1.04, 1.10, 0.95, 1000, 1, java.util.Optional.empty()));
			run.check("tax_measured", true, "a latency tax", "1.07");
			run.check("decode_measured", false, "a decode tax", "no gateway arm");
			run.headline("latency_tax 1.0700 [1.0400, 1.1000]");
		}
	}

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class SimulatedRungTestCase {

		@Test
		@DisplayName("tax witness")
		void witness(RungRecorder run) {
			run.simulated("the engine at http://127.0.0.1:5/v1 is the engine double");
			run.check("tax_measured", true, "a latency tax", "1.07");
		}
	}

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class PassRungTestCase {

		@Test
		@DisplayName("tax witness")
		void witness(RungRecorder run) {
			run.check("tax_measured", true, "a latency tax", "1.07");
		}
	}

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class AttachingRungTestCase {

		@Test
		@DisplayName("tax witness")
		void witness(RungRecorder run) {
			run.attach(ArtifactFiles.writeString(run.config().experimentsDir().resolve("tax-plot.svg"), "<svg/>"));
			run.attach(run.config().experimentsDir().resolve("never-written.png"));
			run.check("tax_measured", true, "a latency tax", "1.07");
		}
	}

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class PendingRungTestCase {

		@Test
		@DisplayName("tax witness")
		void witness(RungRecorder run) {
			run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
			run.check("tax_measured", true, "a latency tax", "1.07");
		}
	}

	@WireRuleReport
	static class WireRuleTestCase {

		static Stream<Arguments> targets() {
			return Stream.of(Arguments.of(Named.of("vllm", "vllm"), Named.of("stream", "stream")));
		}

		@ParameterizedTest(name = "{0} {1}")
		@MethodSource("targets")
		@DisplayName("W99 fixture rule")
		void rule(String engine, String mode) {
		}
	}

	static class NestedTestCase {

		@TempDir
		Path nested;

		@Test
		@DisplayName("runs a rung inside")
		void rungInside() {
			EngineTestKit.engine("junit-jupiter")
					.selectors(selectClass(RungTestCase.class))
					.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, nested.toString())))
					.execute();
		}

		@Test
		@DisplayName("runs a rule inside")
		void ruleInside() {
			EngineTestKit.engine("junit-jupiter")
					.selectors(selectClass(WireRuleTestCase.class))
					.configurationParameters(HarnessConfig.hermeticParameters(Map.of()))
					.execute();
		}
	}
}
