package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.conformance.rules.ClaimedClasses;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.TestResult;

/**
 * The claim inside JUnit ({@link ClaimedClasses}), as the wire rung reads it and the report shows it: a failed rule of
 * a class not claimed is NOT_CLAIMED, skipped in the report with its failure's text and tagged with its class and
 * {@code not claimed}, beside the rung tag {@code battery} every {@code @WireRuleReport} class carries; a claimed rule's failure stays a failure; a pass stays a pass.
 */
@DisplayName("claimed classes inside JUnit: an unclaimed failure reported NOT_CLAIMED with its text, tagged with its class")
class ClaimedClassesReportTests {

	@Test
	@DisplayName("gateway.classes=relay: the adjudication rule's failure is NOT_CLAIMED (skipped, its text kept), the relay rule's failure and pass unchanged")
	void unclaimedFailureReported() {
		KitLaunchTests.Recorder recorder = new KitLaunchTests.Recorder();

		List<KitLaunch.RuleRun> runs = KitLaunch.run(Rules.class,
				HarnessConfig.hermeticParameters(
						Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1", HarnessConstants.GATEWAY_CLASSES, "relay")),
				Optional.of(new AllureLifecycle(recorder))).rules();

		assertThat(runs).extracting(r -> r.rule().split(" ")[0] + " " + r.outcome())
				.containsExactlyInAnyOrder("W01 PASS", "W15 FAIL", "W03 NOT_CLAIMED");
		assertThat(runs).filteredOn(r -> r.outcome() == RuleOutcome.NOT_CLAIMED)
				.singleElement()
				.satisfies(
						r -> assertThat(r.detail()).isEqualTo("NOT_CLAIMED: W03 is of the adjudication class, which the gateway does not "
								+ "claim (gateway.classes=relay), so this failure fails nothing: W03 [vllm stream] observed deny_write delivered"));
		assertThat(recorder.results).extracting(r -> r.getName().split(" ")[0] + " " + r.getStatus() + " " + tags(r))
				.containsExactlyInAnyOrder("W01 " + Status.PASSED + " [battery, relay]", "W15 " + Status.FAILED + " [battery, relay]",
						"W03 " + Status.SKIPPED + " [battery, adjudication, not claimed]");
		assertThat(recorder.results).filteredOn(r -> r.getStatus() == Status.SKIPPED)
				.singleElement()
				.satisfies(r -> assertThat(r.getStatusDetails().getMessage()).startsWith("NOT_CLAIMED: W03")
						.endsWith("observed deny_write delivered"));
	}

	@Test
	@DisplayName("the default claim (every class): the adjudication rule's failure is a failure")
	void everyClassClaimedByDefault() {
		List<KitLaunch.RuleRun> runs = KitLaunch.run(Rules.class,
				HarnessConfig.hermeticParameters(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1")), Optional.empty()).rules();

		assertThat(runs).extracting(r -> r.rule().split(" ")[0] + " " + r.outcome())
				.containsExactlyInAnyOrder("W01 PASS", "W15 FAIL", "W03 FAIL");
	}

	private static List<String> tags(TestResult result) {
		return result.getLabels().stream().filter(l -> l.getName().equals(ClaimedClasses.LABEL)).map(Label::getValue).toList();
	}

	/** Three rules of known classes and outcomes, as a kit class names them. */
	@WireRuleReport
	@ExtendWith(ClaimedClasses.class)
	static class Rules {

		@ParameterizedTest(name = "vllm stream")
		@ValueSource(strings = "vllm stream")
		@DisplayName("W01 model alias")
		void required_W01_modelAlias(String target) {
		}

		@ParameterizedTest(name = "vllm stream")
		@ValueSource(strings = "vllm stream")
		@DisplayName("W15 X-Request-Id")
		void required_W15_requestId(String target) {
			throw new AssertionError("W15 [" + target + "] observed no X-Request-Id upstream");
		}

		@ParameterizedTest(name = "vllm stream")
		@ValueSource(strings = "vllm stream")
		@DisplayName("W03 deny dropped")
		void required_W03_denyDropped(String target) {
			throw new AssertionError("W03 [" + target + "] observed deny_write delivered");
		}
	}
}
