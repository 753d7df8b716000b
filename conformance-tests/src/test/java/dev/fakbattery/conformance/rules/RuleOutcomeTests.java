package dev.fakbattery.conformance.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.opentest4j.TestAbortedException;

@DisplayName("rule outcome: five outcomes read from JUnit's three")
class RuleOutcomeTests {

	@Test
	@DisplayName("a successful run passes; a failed one fails, unless its message says its measurement is pending")
	void successfulAndFailed() {
		assertThat(RuleOutcome.of(TestExecutionResult.successful())).isEqualTo(RuleOutcome.PASS);
		assertThat(RuleOutcome.of(TestExecutionResult.failed(new AssertionError("W03 [vllm stream]: expected 403, observed 200"))))
				.isEqualTo(RuleOutcome.FAIL);
		assertThat(RuleOutcome.of(TestExecutionResult.failed(new AssertionError(RuleOutcome.PENDING_PREFIX + "W14 undecided"))))
				.isEqualTo(RuleOutcome.PENDING_MEASUREMENT);
		assertThat(RuleOutcome.of(TestExecutionResult.failed(new AssertionError("W14 " + RuleOutcome.PENDING_PREFIX))))
				.as("the prefix counts only where the message begins with it")
				.isEqualTo(RuleOutcome.FAIL);
		assertThat(RuleOutcome.of(TestExecutionResult.failed(new AssertionError()))).isEqualTo(RuleOutcome.FAIL);
	}

	@Test
	@DisplayName("an aborted run is not judged or pending by its message's prefix, and not applicable otherwise; never a pass")
	void aborted() {
		assertThat(RuleOutcome.of(TestExecutionResult.aborted(new NotJudged("W03 [vllm stream]: nothing reached the upstream"))))
				.isEqualTo(RuleOutcome.NOT_JUDGED);
		assertThat(RuleOutcome.of(TestExecutionResult.aborted(new TestAbortedException("Assumption failed: "
				+ RuleOutcome.NOT_JUDGED_PREFIX + "W13")))).as("JUnit's assumption prefix is taken off first")
				.isEqualTo(RuleOutcome.NOT_JUDGED);
		assertThat(
				RuleOutcome.of(TestExecutionResult.aborted(new TestAbortedException(RuleOutcome.PENDING_PREFIX + "no node on the PATH"))))
				.isEqualTo(RuleOutcome.PENDING_MEASUREMENT);
		assertThat(RuleOutcome.of(TestExecutionResult.aborted(new TestAbortedException("Assumption failed: concerns streaming"))))
				.isEqualTo(RuleOutcome.NOT_APPLICABLE);
		assertThat(RuleOutcome.of(TestExecutionResult.aborted(new TestAbortedException()))).isEqualTo(RuleOutcome.NOT_APPLICABLE);
	}

	@Test
	@DisplayName("a run's message drops JUnit's 'Assumption failed: ' and is empty without a throwable or a message")
	void message() {
		assertThat(RuleOutcome.message(Optional.of(new TestAbortedException("Assumption failed: concerns streaming"))))
				.isEqualTo("concerns streaming");
		assertThat(RuleOutcome.message(Optional.of(new AssertionError("status 500")))).isEqualTo("status 500");
		assertThat(RuleOutcome.message(Optional.of(new IllegalStateException((String) null)))).isEmpty();
		assertThat(RuleOutcome.message(Optional.empty())).isEmpty();
	}

	@Test
	@DisplayName("a not judged rule run's message begins with NOT_JUDGED: and names what was missing")
	void notJudgedMessage() {
		assertThat(new NotJudged("W20 [sglang json]: no answer")).hasMessage("NOT_JUDGED: W20 [sglang json]: no answer")
				.isInstanceOf(TestAbortedException.class);
	}

	@Test
	@DisplayName("each outcome has its own words in counts and tables")
	void words() {
		assertThat(Arrays.stream(RuleOutcome.values()).map(RuleOutcome::words)).containsExactly("passed", "failed", "pending",
				"not judged", "not applicable", "failed unclaimed");
	}

	@Test
	@DisplayName("each kind of evidence states what a rule must have seen, as RULES.md lists it")
	void evidenceText() {
		assertThat(Evidence.DELIVERED.text()).startsWith("the kit's upstream received every request the rule sent, and each normal answer");
		assertThat(Evidence.FORWARDED.text()).startsWith("the kit's upstream received every request the rule sent (");
		assertThat(Evidence.ANSWERED.text()).startsWith("the gateway gave the specific answer the rule demands");
	}
}
