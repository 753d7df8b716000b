package dev.fakbattery.conformance.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import dev.fakbattery.core.ConfigurationException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/** The claim ({@code gateway.classes}) as it is parsed, and a kit run's result per class as it is counted. */
@DisplayName("conformance classes: the claim parsed, the result counted per class, an unclaimed failure never a pass")
class ClassResultsTests {

	@Test
	@DisplayName("a rule is failed when one of its runs failed, claimed or not; pending when one is pending; passed only when its applicable runs passed")
	void rulesCountedByTheirWorstRun() {
		ClassResults results = new ClassResults(EnumSet.of(ConformanceClass.RELAY, ConformanceClass.RESILIENCE))
				.add("W01", RuleOutcome.PASS)
				.add("W01", RuleOutcome.PASS)
				.add("W10", RuleOutcome.NOT_APPLICABLE)
				.add("W10", RuleOutcome.PASS)
				.add("W15", RuleOutcome.PASS)
				.add("W15", RuleOutcome.FAIL)
				.add("W14", RuleOutcome.NOT_APPLICABLE)
				.add("W14", RuleOutcome.PENDING_MEASUREMENT)
				.add("W03", RuleOutcome.PASS)
				.add("W03", RuleOutcome.NOT_CLAIMED)
				.add("W04", RuleOutcome.PASS)
				.add("F02", RuleOutcome.PENDING_MEASUREMENT)
				.add("F01", RuleOutcome.NOT_JUDGED)
				.add("F03", RuleOutcome.PASS)
				.add("probe", RuleOutcome.FAIL);

		assertThat(results.line()).isEqualTo("relay 2/4 rules passed (1 failed, 1 pending), adjudication not claimed (1/2 passed), "
				+ "resilience 1/3 rules passed (1 pending, 1 not judged)");
		assertThat(results.classes()).filteredOn(c -> c.conformanceClass() == ConformanceClass.ADJUDICATION)
				.singleElement()
				.satisfies(c -> assertThat(c).isEqualTo(new ClassResults.ClassResult(ConformanceClass.ADJUDICATION, false, 1, 1, 0, 0, 0)));
		assertThat(new ClassResults(Set.of()).line()).isEqualTo("no rule ran");
	}

	@Test
	@DisplayName("self-test: a rule whose only failure is NOT_CLAIMED is failed, never passed, and its class not claimed")
	void unclaimedFailureIsNoPass() {
		ClassResults results = new ClassResults(EnumSet.of(ConformanceClass.RELAY)).add("W13", RuleOutcome.PASS)
				.add("W13", RuleOutcome.NOT_CLAIMED);

		assertThat(ClassResults.verdict(java.util.List.of(RuleOutcome.PASS, RuleOutcome.NOT_CLAIMED))).isEqualTo(RuleOutcome.NOT_CLAIMED);
		assertThat(results.classes()).singleElement().satisfies(c -> {
			assertThat(c.passed()).isZero();
			assertThat(c.failed()).isOne();
			assertThat(c.claimed()).isFalse();
		});
	}

	@Test
	@DisplayName("a NOT_CLAIMED run is aborted with its prefix, read back as NOT_CLAIMED, its failure's text and cause kept")
	void notClaimedReadBack() {
		AssertionError failure = new AssertionError("W03 [vllm stream] on relay: expected no deny_* call, observed deny_delete");
		NotClaimed notClaimed = new NotClaimed(WireRule.W03, "relay,resilience", failure.getMessage(), failure);

		assertThat(RuleOutcome.of(TestExecutionResult.aborted(notClaimed))).isEqualTo(RuleOutcome.NOT_CLAIMED);
		assertThat(RuleOutcome.message(Optional.of(notClaimed))).startsWith("NOT_CLAIMED: W03 is of the adjudication class")
				.contains("(gateway.classes=relay,resilience)")
				.endsWith("expected no deny_* call, observed deny_delete");
		assertThat(notClaimed).hasCause(failure);
		assertThat(RuleOutcome.of(TestExecutionResult.failed(failure))).isEqualTo(RuleOutcome.FAIL);
	}

	@Test
	@DisplayName("the claim: a comma list of classes or all; a name that is no class names the parameter, the value and the classes")
	void claimParsed() {
		assertThat(ConformanceClass.parse(" relay , resilience", "gateway.classes")).containsExactly(ConformanceClass.RELAY,
				ConformanceClass.RESILIENCE);
		assertThat(ConformanceClass.parse("all", "gateway.classes")).containsExactlyInAnyOrder(ConformanceClass.values());
		assertThat(ConformanceClass.claim(ConformanceClass.parse("clients,relay", "x"))).isEqualTo("relay,clients");
		assertThatThrownBy(() -> ConformanceClass.parse("relay,wire", "gateway.classes")).isInstanceOf(ConfigurationException.class)
				.hasMessage("gateway.classes: wire is not a conformance class; the classes are relay, adjudication, record, resilience, "
						+ "clients (or all), e.g. gateway.classes=relay,resilience");
		assertThatThrownBy(() -> ConformanceClass.parse(" , ", "--classes")).isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("--classes claims no class");
	}
}
