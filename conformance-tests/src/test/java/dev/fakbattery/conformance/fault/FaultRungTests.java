package dev.fakbattery.conformance.fault;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.WireRung;
import dev.fakbattery.conformance.rules.ClassResults;
import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.wire.KitRun;
import dev.fakbattery.conformance.wire.NestedRun;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.gateway.GatewayLauncher;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Fault rung: runs every fault rule of {@link GatewayUnderTestFaultTests} with the rung's own configuration and writes
 * each rule and target into {@code fault-rules.json} (rule, target, outcome, reason), every one that was judged as an
 * acceptance check. A limit rule (F02, F04, F06, F07) against a gateway that declares no limits and was given none is
 * PENDING_MEASUREMENT naming the four limits to set; on the embedded reference gateway the result says nothing about an
 * operator's gateway, so it is SIMULATED (and pending under -Pgpu, where a gateway must be named). Runs beside other
 * classes: the kit it runs is isolated within its own run (its rules one at a time, F01's 200 ms cancel included), and
 * its time is mostly waiting (F02's stalls, F05's slow reader).
 */
@WireRung
@Tag("fault")
@RungArtifact(ArtifactId.FAULT_RULES)
@DisplayName("fault rules")
class FaultRungTests {

	static final String PASS = "PASS";

	static final String FAIL = "FAIL";

	static final String PENDING_MEASUREMENT = "PENDING_MEASUREMENT";

	static final String NOT_APPLICABLE = "NOT_APPLICABLE";

	static final String NOT_JUDGED = "NOT_JUDGED";

	static final String NOT_CLAIMED = "NOT_CLAIMED";

	@Test
	@DisplayName("runs the fault rules against the gateway under test")
	void faultRules(RungRecorder run) {
		HarnessConfig config = run.config();
		boolean embedded = config.string(HarnessConstants.GATEWAY_URL).isEmpty() && config.string(HarnessConstants.GATEWAY_CMD).isEmpty();
		if (embedded && !config.profile().embeddedTargetAllowed()) {
			run.pending(HarnessConstants.GATEWAY_CMD, "no gateway under test is named (the embedded reference gateway proves only the kit)",
					"set -Dgateway.cmd=\"... {port} {upstream} {model}\" or -Dgateway.url=http://HOST:PORT/v1");
			return;
		}
		EngineExecutionResults results = NestedRun.call(() -> EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(GatewayUnderTestFaultTests.class))
				.configurationParameters(claimingAll(KitRun.parameters(config)))
				.execute());
		String gateway = embedded
				? GatewayLauncher.EMBEDDED + ", upstream timeout shortened to " + GatewayUnderTestFaultTests.EMBEDDED_TIMEOUT_MS
						+ " ms"
				: GatewayLauncher.describe(config);
		record(run, results, gateway);
		if (embedded) {
			run.simulated(
					"the system under test is the embedded reference gateway in front of the kit's fault upstream, not an operator's gateway");
		}
	}

	/** {@code parameters} claiming every conformance class: the battery's gateway adjudicates, and resilience is claimed. */
	static Map<String, String> claimingAll(Map<String, String> parameters) {
		Map<String, String> all = new HashMap<>(parameters);
		all.put(HarnessConstants.GATEWAY_CLASSES, ConformanceClass.ALL);
		return all;
	}

	/**
	 * Each finished rule run into the artifact's {@code rules} (rule, target, outcome, reason), every passed or failed
	 * one as a check, the limit rules that had no limits as one pending naming them and the four limits, and the counts;
	 * a kit that ran no rule at all (its gateway did not start) fails the rung with the reason.
	 */
	static void record(RungRecorder run, EngineExecutionResults results, String gateway) {
		ArrayNode rules = run.body().putArray("rules");
		Map<String, List<String>> pending = new TreeMap<>();
		Map<String, Integer> counts = new TreeMap<>(Map.of(PASS, 0, FAIL, 0, PENDING_MEASUREMENT, 0, NOT_JUDGED, 0, NOT_APPLICABLE, 0));
		List<String> notJudged = new ArrayList<>();
		ClassResults classes = new ClassResults(EnumSet.allOf(ConformanceClass.class));
		for (Event event : results.testEvents().finished().list()) {
			TestDescriptor invocation = event.getTestDescriptor();
			String title = invocation.getParent().map(TestDescriptor::getDisplayName).orElse("?");
			String rule = title.split(" ")[0];
			String target = invocation.getDisplayName();
			TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
			String reason = result.getThrowable().isPresent() ? RuleOutcome.message(result.getThrowable()) : "held";
			String outcome = RuleOutcome.of(result).name();
			counts.merge(outcome, 1, Integer::sum);
			classes.add(rule, RuleOutcome.valueOf(outcome));
			rules.addObject()
					.put("rule", rule)
					.put("must", title.substring(rule.length()).strip())
					.put("target", target)
					.put("outcome", outcome)
					.put("reason", reason);
			if (outcome.equals(PASS) || outcome.equals(FAIL) || outcome.equals(NOT_CLAIMED)) {
				run.check(rule + " [" + target + "]", outcome.equals(PASS), title, reason);
			}
			else if (outcome.equals(PENDING_MEASUREMENT)) {
				pending.computeIfAbsent(rule, r -> new ArrayList<>()).add(target);
			}
			else if (outcome.equals(NOT_JUDGED)) {
				notJudged.add(rule + " [" + target + "]: " + reason);
			}
		}
		if (!notJudged.isEmpty()) {
			run.pending("fault_rules_not_judged", notJudged.size() + " fault rule runs saw none of the evidence their rule needs, so "
					+ "they say nothing of " + gateway + ": " + String.join("; ", notJudged.stream().limit(4).toList())
					+ (notJudged.size() > 4 ? "; and " + (notJudged.size() - 4) + " more" : ""),
					"make the gateway reach the fault upstream (its routing headers, its upstream URL), then rerun");
		}
		if (!pending.isEmpty()) {
			run.pending("gateway_limits", "fault rules " + String.join(", ", pending.keySet()) + " hold " + gateway
					+ " to the limits it documents, and it declares none", FaultKit.LIMITS_FIX);
		}
		int ran = counts.values().stream().mapToInt(Integer::intValue).sum();
		if (ran == 0) {
			List<String> why = results.containerEvents()
					.failed()
					.stream()
					.flatMap(e -> e.getPayload(TestExecutionResult.class).stream())
					.flatMap(r -> r.getThrowable().stream())
					.map(Throwable::getMessage)
					.toList();
			run.check("fault_rules_ran", false, "the fault rules run against " + gateway, "no rule ran: " + why);
		}
		run.body().put("gateway", gateway);
		run.body()
				.put("upstream",
						"FaultUpstream: plain sockets on loopback speaking the recorded vLLM and SGLang wire, misbehaving on purpose");
		ObjectNode outcomes = run.body().putObject("outcomes");
		counts.forEach(outcomes::put);
		classes.writeTo(run.body().putObject("classes"));
		run.body().put("classes_summary", classes.line());
		run.measured("rule_runs_passed", counts.get(PASS), "rule runs", "EngineTestKit run of the fault rules");
		run.measured("rule_runs_failed", counts.get(FAIL), "rule runs", "EngineTestKit run of the fault rules");
		run.headline(counts.get(PASS) + " fault rule runs passed, " + counts.get(FAIL) + " failed, " + counts.get(PENDING_MEASUREMENT)
				+ " pending (no limits), " + counts.get(NOT_JUDGED) + " not judged, " + counts.get(NOT_APPLICABLE) + " not applicable ("
				+ gateway + ")");
	}
}
