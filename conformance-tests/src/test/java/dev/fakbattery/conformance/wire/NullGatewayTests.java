package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.SelfTest.label;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.conformance.fault.FaultVerification;
import dev.fakbattery.conformance.rules.Evidence;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.standalone.StandaloneKit;
import dev.fakbattery.conformance.wire.NullGateways.Kind;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Evidence before verdict, the Reactive Streams TCK way: gateways that carry no wire ({@link NullGateways}) pass no rule
 * of the wire, fault or client kit, in any dialect or mode. With the kit's probe, every rule of theirs is NOT_JUDGED
 * naming the probe's line; with the probe relayed to its upstream (past the probe's gate), each rule's own evidence still
 * keeps every one from passing (the rules that passed here before: W03, W13, W19, W20 and W22, whose checks find nothing
 * wrong in nothing delivered; F06 and F07 against a gateway that holds its limits and cans the rest), and a fault rule
 * that failed only for want of its evidence (the fault upstream never saw the fault) is not judged, not failed.
 */
@Tag("wire")
@DisplayName("wire, fault and client kits against null gateways: no rule passes without evidence")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class NullGatewayTests {

	@Test
	@DisplayName("a gateway that answers 500 to everything: every wire rule not judged, naming the probe")
	void answers500() {
		Map<String, RuleOutcome> outcomes = outcomes(run(NullWireTestCase.class, Kind.ANSWERS_500, false));
		assertThat(outcomes).hasSize(112).allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
	}

	@Test
	@DisplayName("a gateway that answers a canned 200 without calling its upstream: every wire rule not judged")
	void canned200() {
		Events tests = run(NullWireTestCase.class, Kind.CANNED_200, false);
		assertThat(outcomes(tests)).hasSize(112)
				.allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
		assertThat(messages(tests).get("W03 [vllm stream]")).startsWith("NOT_JUDGED: W03 [vllm stream]: the kit's probe did not reach "
				+ "its upstream through the gateway, so no rule is judged (kit probe [vllm] on null gateway: answers a canned 200 "
				+ "without calling its upstream: the kit's upstream was NOT reached; the gateway answered HTTP 200 application/json, ");
	}

	@Test
	@DisplayName("a gateway that never answers: every wire rule not judged, after one probe per dialect")
	void neverAnswers() {
		Events tests = run(NullWireTestCase.class, Kind.NEVER_ANSWERS, false);
		assertThat(outcomes(tests)).hasSize(112)
				.allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
		assertThat(messages(tests).get("W01 [sglang non-stream]"))
				.contains("the kit's upstream was NOT reached; the gateway answered no answer (");
	}

	@Test
	@DisplayName("past the probe, a gateway that answers 500 passes no rule: W03, W13, W19, W20, W22 not judged on their own evidence")
	void answers500WithoutProbe() {
		Events tests = run(NullWireTestCase.class, Kind.ANSWERS_500, true);
		Map<String, RuleOutcome> outcomes = outcomes(tests);
		assertThat(outcomes).hasSize(112).doesNotContainValue(RuleOutcome.PASS);
		for (String rule : new String[]{ "W03", "W13", "W19" }) {
			assertThat(outcomes).containsEntry(rule + " [vllm non-stream]", RuleOutcome.NOT_JUDGED)
					.containsEntry(rule + " [sglang stream]", RuleOutcome.NOT_JUDGED);
		}
		assertThat(outcomes).containsEntry("W20 [vllm stream]", RuleOutcome.NOT_JUDGED)
				.containsEntry("W22 [sglang stream]", RuleOutcome.NOT_JUDGED);
		assertThat(messages(tests).get("W03 [vllm stream]")).startsWith("NOT_JUDGED: W03 [vllm stream]: its checks passed without the "
				+ "evidence it needs (the kit's upstream received every request the rule sent, and each normal answer reached the "
				+ "client as HTTP 200 of the kind asked (a JSON body, or a stream of events)): kit:deny-only: the kit's "
				+ "upstream never received the request; the gateway answered HTTP 500 application/json");
	}

	@Test
	@DisplayName("past the probe, a gateway that answers a canned 200 passes no rule: W14 says no stream came from the upstream")
	void canned200WithoutProbe() {
		Events tests = run(NullWireTestCase.class, Kind.CANNED_200, true);
		Map<String, RuleOutcome> outcomes = outcomes(tests);
		assertThat(outcomes).hasSize(112).doesNotContainValue(RuleOutcome.PASS);
		assertThat(outcomes).containsEntry("W03 [sglang non-stream]", RuleOutcome.NOT_JUDGED)
				.containsEntry("W14 [vllm stream]", RuleOutcome.NOT_JUDGED);
		assertThat(messages(tests).get("W14 [vllm stream]"))
				.contains("the kit's upstream wrote 0 of the 21 paced events (it was not reached)");
	}

	@Test
	@DisplayName("a relay that answers 500 to every stream: its bodies are judged, and no stream rule passes (W17, W18: it declares no record)")
	void streams500() {
		Map<String, RuleOutcome> outcomes = outcomes(run(NullWireTestCase.class, Kind.STREAMS_500, false));
		assertThat(outcomes).containsEntry("W01 [vllm non-stream]", RuleOutcome.PASS)
				.containsEntry("W03 [vllm non-stream]", RuleOutcome.FAIL);
		assertThat(outcomes.entrySet().stream().filter(e -> e.getKey().endsWith(" stream]")))
				.isNotEmpty()
				.allSatisfy(e -> assertThat(e.getValue()).as(e.getKey())
						.isIn(e.getKey().startsWith("W17 ") || e.getKey().startsWith("W18 ")
								? new RuleOutcome[]{ RuleOutcome.NOT_APPLICABLE }
								: new RuleOutcome[]{ RuleOutcome.FAIL, RuleOutcome.NOT_JUDGED }));
		assertThat(outcomes).containsEntry("W13 [sglang stream]", RuleOutcome.NOT_JUDGED)
				.containsEntry("W20 [vllm stream]", RuleOutcome.NOT_JUDGED);
	}

	@Test
	@DisplayName("the fault kit against each null gateway: every fault rule not judged")
	void faultKit() {
		for (Kind kind : new Kind[]{ Kind.ANSWERS_500, Kind.CANNED_200, Kind.NEVER_ANSWERS }) {
			assertThat(outcomes(run(NullFaultTestCase.class, kind, false))).as(kind.what)
					.hasSize(28)
					.allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
		}
	}

	@Test
	@DisplayName("past the probe, a gateway that answers a canned 200 and holds its limits passes no fault rule: each not judged on its own evidence")
	void canned200FaultKitWithoutProbe() {
		Events tests = run(NullFaultTestCase.class, Kind.CANNED_200, true);
		Map<String, RuleOutcome> outcomes = outcomes(tests);
		assertThat(outcomes).hasSize(28)
				.allSatisfy((run, outcome) -> assertThat(outcome).as(run)
						.isEqualTo(run.matches("F0[15] \\[\\w+ non-stream]") ? RuleOutcome.NOT_APPLICABLE : RuleOutcome.NOT_JUDGED));
		Map<String, String> messages = messages(tests);
		assertThat(messages.get("F02 [vllm stream]")).startsWith("NOT_JUDGED: F02 [vllm stream] on null gateway: answers a canned 200 "
				+ "without calling its upstream: the fault upstream never received the stall-headers request within "
				+ NullGateways.EVIDENCE_WAIT.toMillis() + " ms, so the "
				+ "gateway never saw the fault the rule judges; the gateway answered status 200 after ");
		assertThat(messages.get("F01 [sglang stream]")).contains("the fault upstream never received the paced request")
				.endsWith("the gateway answered status 200");
		assertThat(messages.get("F06 [vllm non-stream]")).startsWith("NOT_JUDGED: F06 [vllm non-stream]: its checks passed without the "
				+ "evidence it needs (" + Evidence.DELIVERED.text() + "): text request: the fault upstream never received it; the "
				+ "gateway answered status 200 after ");
		assertThat(messages.get("F07 [sglang stream]")).contains("its checks passed without the evidence it needs")
				.contains("text request: the fault upstream never received it");
	}

	@Test
	@DisplayName("past the probe, a gateway that answers 500 fails every fault rule it is given: a 5xx where the rule expects another answer is a failure seen")
	void answers500FaultKitWithoutProbe() {
		Events tests = run(NullFaultTestCase.class, Kind.ANSWERS_500, true);
		assertThat(outcomes(tests)).hasSize(28)
				.allSatisfy((run, outcome) -> assertThat(outcome).as(run)
						.isEqualTo(run.matches("F0[15] \\[\\w+ non-stream]") ? RuleOutcome.NOT_APPLICABLE : RuleOutcome.FAIL));
		assertThat(messages(tests).get("F03 [vllm non-stream]")).contains("expected 502 with an OpenAI-shaped error, observed status 500");
	}

	@Test
	@DisplayName("past the probe, a gateway that never answers is not judged on F02: it never saw the upstream's stall")
	void neverAnswersFaultKitWithoutProbe() {
		Events tests = run(Kind.NEVER_ANSWERS, true, "off",
				selectMethod(NullFaultTestCase.class, "required_F02_stallAnswered",
						Dialect.class.getName() + "," + String.class.getName()));
		assertThat(outcomes(tests)).hasSize(4)
				.allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
		assertThat(messages(tests).get("F02 [sglang non-stream]")).contains("the gateway answered no answer (");
	}

	@Test
	@DisplayName("past the probe, a relay that answers 500 to every stream passes no fault rule")
	void streams500FaultKitWithoutProbe() {
		Map<String, RuleOutcome> outcomes = outcomes(run(NullFaultTestCase.class, Kind.STREAMS_500, true));
		assertThat(outcomes).hasSize(28).doesNotContainValue(RuleOutcome.PASS).containsEntry("F03 [vllm stream]", RuleOutcome.FAIL);
	}

	@Test
	@DisplayName("past the probe, the client rules on a gateway that answers 500 are not judged: the upstream never saw a request")
	void clientKitWithoutProbe() {
		Map<String, RuleOutcome> outcomes = outcomes(run(NullClientTestCase.class, Kind.ANSWERS_500, true));
		assertThat(outcomes).hasSize(16).doesNotContainValue(RuleOutcome.PASS).containsEntry("C01 [vllm stream]", RuleOutcome.NOT_JUDGED);
	}

	@Test
	@DisplayName("the standalone kit against a gateway that answers 500: every run counted not judged on its last line, exit 3, not 0")
	void standaloneKit(@TempDir Path reports) throws IOException {
		int upstreamPort = ManagedProcess.freePort();
		StringWriter out = new StringWriter();
		try (GatewayUnderTest gateway = Kind.ANSWERS_500.start(URI.create("http://127.0.0.1:" + upstreamPort + "/v1"))) {
			int exit = StandaloneKit.run(new String[]{ "--gateway-url", gateway.baseUrl().toString(), "--upstream-port",
				String.valueOf(upstreamPort), "--reports-dir", reports.toString() }, new PrintWriter(out, true),
					new PrintWriter(new StringWriter(), true));
			assertThat(exit).as(out.toString()).isEqualTo(StandaloneKit.UNJUDGED);
		}
		assertThat(out.toString()).contains("kit probe [vllm] on gateway.url http://127.0.0.1:")
				.contains("the kit's upstream was NOT reached; the gateway answered HTTP 500 application/json")
				.contains("kit outcomes: 0 rule runs passed, 0 failed, 0 pending, 56 not judged, 0 not applicable");
	}

	/** {@code testCase} with every rule against a {@code kind} null gateway, which relays the kit's probe if told. */
	static Events run(Class<?> testCase, Kind kind, boolean relaysProbe) {
		return run(kind, relaysProbe, "off", selectClass(testCase));
	}

	/** {@code selectors}, timing included, hermetic but for {@code kit.node.clients} and the null gateway's parameters. */
	private static Events run(Kind kind, boolean relaysProbe, String nodeClients, DiscoverySelector... selectors) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectors)
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(ConfigKeys.KIT_NODE_DIR.name(), SelfTest.NODE_DIR,
						ConfigKeys.KIT_NODE_CLIENTS.name(), nodeClients, NullGateways.KIND, kind.name(), NullGateways.RELAYS_PROBE,
						String.valueOf(relaysProbe))))
				.execute()
				.testEvents();
	}

	/** Each finished rule run's outcome, by label ({@code W03 [vllm stream]}). */
	static Map<String, RuleOutcome> outcomes(Events tests) {
		Map<String, RuleOutcome> outcomes = new TreeMap<>();
		tests.finished()
				.stream()
				.forEach(e -> outcomes.put(label(e), RuleOutcome.of(e.getPayload(TestExecutionResult.class).orElseThrow())));
		return outcomes;
	}

	/** Each finished rule run's message, by label. */
	static Map<String, String> messages(Events tests) {
		Map<String, String> messages = new TreeMap<>();
		tests.finished()
				.stream()
				.forEach(e -> messages.put(label(e),
						RuleOutcome.message(e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable))));
		return messages;
	}

	// -------------------------------------------------------------------------

	static class NullWireTestCase extends WireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return NullGateways.start(config(), upstream);
		}

		@Override
		protected Duration probeTimeout() {
			return NullGateways.PROBE_TIMEOUT;
		}
	}

	static class NullClientTestCase extends ClientVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return NullGateways.start(config(), upstream);
		}

		@Override
		protected Duration probeTimeout() {
			return NullGateways.PROBE_TIMEOUT;
		}
	}

	static class NullFaultTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return NullGateways.start(config(), upstream);
		}

		@Override
		protected Duration probeTimeout() {
			return NullGateways.PROBE_TIMEOUT;
		}

		@Override
		protected Duration evidenceWait() {
			return NullGateways.EVIDENCE_WAIT;
		}
	}
}
