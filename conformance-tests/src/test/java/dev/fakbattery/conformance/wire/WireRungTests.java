package dev.fakbattery.conformance.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.WireRung;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Wire conformance rung: runs every rule of {@link GatewayUnderTestWireTests} and records each
 * rule and target as an acceptance check of the artifact. On the embedded reference gateway the
 * result says nothing about an operator's gateway, so it is SIMULATED (and pending under -Pgpu,
 * where a gateway must be named).
 */
@WireRung
@RungArtifact(ArtifactId.WIRE_CONFORMANCE)
@DisplayName("wire conformance")
class WireRungTests {

	@Test
	@DisplayName("runs the wire conformance rules against the gateway under test")
	void wireConformance(RungRun run) {
		HarnessConfig config = run.config();
		boolean embedded = config.string(HarnessConstants.GATEWAY_URL).isEmpty() && config.string(HarnessConstants.GATEWAY_CMD).isEmpty();
		if (embedded && !config.profile().embeddedTargetAllowed()) {
			run.pending(HarnessConstants.GATEWAY_CMD, "no gateway under test is named (the embedded reference gateway proves only the kit)",
					"set -Dgateway.cmd=\"... {port} {upstream} {model}\" or -Dgateway.url=http://HOST:PORT/v1");
			return;
		}
		Events tests = KitRun.run(GatewayUnderTestWireTests.class, config);
		ArrayNode rules = run.body().putArray("rules");
		for (Event event : tests.finished().list()) {
			TestDescriptor invocation = event.getTestDescriptor();
			String rule = invocation.getParent().map(TestDescriptor::getDisplayName).orElse("?");
			String target = invocation.getDisplayName();
			TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
			String detail = result.getThrowable().map(Throwable::getMessage).orElse("");
			rules.addObject().put("rule", rule).put("target", target).put("status", result.getStatus().name()).put("detail", detail);
			if (result.getStatus() != TestExecutionResult.Status.ABORTED) {
				run.check(rule.split(" ")[0] + " [" + target + "]", result.getStatus() == TestExecutionResult.Status.SUCCESSFUL,
						rule, result.getStatus() == TestExecutionResult.Status.SUCCESSFUL ? "kept" : detail);
			}
		}
		long failed = tests.failed().count();
		run.measured("rule_runs_passed", tests.succeeded().count(), "rule runs", "EngineTestKit run of the wire rules");
		run.measured("rule_runs_failed", failed, "rule runs", "EngineTestKit run of the wire rules");
		run.body().put("gateway", embedded ? "embedded reference gateway" : config.string(HarnessConstants.GATEWAY_URL)
			.map(u -> "gateway.url " + u).orElse("gateway.cmd " + config.string(HarnessConstants.GATEWAY_CMD).orElse("")));
		run.body().put("upstream", "WireMock replaying fixtures/wire (recorded and reconstructed vLLM and SGLang wire)");
		if (embedded) {
			run.simulated("the system under test is the embedded reference gateway on recorded wires, not an operator's gateway");
		}
		run.headline(tests.succeeded().count() + " rule runs passed, " + failed + " failed, " + tests.aborted().count()
				+ " not applicable (" + run.body().path("gateway").asText() + ")");
	}
}
