package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.WireRung;
import dev.fakbattery.conformance.wire.KitRun;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The fault rung's artifact tested on gateways whose outcome is known: a broken gateway's failures are in
 * {@code fault-rules.json} with rule, target, outcome and reason, and fail the rung; a gateway without limits leaves
 * the four limit rules PENDING_MEASUREMENT naming the four limits, never skipped, and fails under {@code -Pgpu}.
 */
@Tag("fault")
@DisplayName("fault rung self-test: the artifact counts every rule run")
@Isolated
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class FaultRungSelfTests {

	private static final String PARAMETERS = Dialect.class.getName() + ", java.lang.String";

	private static final List<String> LIMIT_RULES = List.of("required_F02_stallAnswered", "required_F04_endlessLineBounded",
			"required_F06_bodyLimit", "required_F07_headerLimit");

	@TempDir
	Path dir;

	@Test
	@DisplayName("a broken gateway's fault failure is in the artifact, with rule, target, outcome and reason, and fails the rung")
	void brokenGatewayRecorded() throws IOException {
		Events rung = runRung("takesAnyHeaders", "battery", true);
		rung.assertStatistics(stats -> stats.failed(1));
		JsonNode doc = artifact();
		assertThat(doc.path("verdict").asText()).isEqualTo("FAIL");
		assertThat(doc.path("schema").asText()).isEqualTo(ArtifactId.FAULT_RULES.schema());
		List<String> failed = new ArrayList<>();
		doc.path("rules").forEach(r -> {
			if (r.path("outcome").asText().equals(FaultRungTests.FAIL)) {
				failed.add(r.path("rule").asText() + " [" + r.path("target").asText() + "]");
			}
		});
		assertThat(failed).containsExactlyInAnyOrder("F07 [vllm non-stream]", "F07 [vllm stream]", "F07 [sglang non-stream]",
				"F07 [sglang stream]");
		JsonNode entry = doc.path("rules").get(0);
		assertThat(entry.path("must").asText()).isEqualTo("request headers over the limit get 431");
		assertThat(entry.path("reason").asText()).startsWith("F07 [" + entry.path("target").asText() + "] on broken: takes any headers: "
				+ "expected 431 with an OpenAI-shaped error for 33792 bytes of headers (limit 32768), observed status 200 after ");
		assertThat(doc.path("acceptance").path("F07 [vllm stream]").path("status").asText()).isEqualTo("FAIL");
		assertThat(doc.path("outcomes").path(FaultRungTests.FAIL).asInt()).isEqualTo(4);
		assertThat(doc.path("classes").path("resilience").toString())
				.isEqualTo("{\"claimed\":true,\"passed\":0,\"failed\":1,\"pending\":0,\"not_judged\":0,\"not_applicable\":0}");
		assertThat(doc.path("classes_summary").asText()).isEqualTo("resilience 0/1 rules passed (1 failed)");
		assertThat(doc.path("summary").path("failure").asText()).contains("F07 [vllm stream]");
	}

	@Test
	@DisplayName("a gateway without limits leaves F02, F04, F06, F07 PENDING_MEASUREMENT naming the four limits, in the artifact")
	void missingLimitsPending() throws IOException {
		runRung("declaresNoLimits", "battery", true).assertStatistics(stats -> stats.aborted(1));
		JsonNode doc = artifact();
		assertThat(doc.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(doc.path("rules")).hasSize(16).allSatisfy(r -> {
			assertThat(r.path("outcome").asText()).isEqualTo(FaultRungTests.PENDING_MEASUREMENT);
			String limit = switch (r.path("rule").asText()) {
				case "F02" -> "gateway.upstream.timeout.ms=MS";
				case "F04" -> "gateway.max.event.bytes=BYTES";
				case "F06" -> "gateway.max.body.bytes=BYTES";
				default -> "gateway.max.header.bytes=BYTES";
			};
			assertThat(r.path("reason").asText()).startsWith("PENDING_MEASUREMENT: " + r.path("rule").asText() + " holds a gateway that "
					+ "declares no limits to its documented " + limit.substring(0, limit.indexOf('=')) + ", and it declares none (set -D"
					+ limit + ", the limit the gateway documents)");
		});
		assertThat(doc.path("classes_summary").asText()).isEqualTo("resilience 0/4 rules passed (4 pending)");
		assertThat(doc.path("summary").path("pending_reason").asText()).isEqualTo("fault rules F02, F04, F06, F07 hold a gateway that "
				+ "declares no limits to the limits it documents, and it declares none (set -Dgateway.upstream.timeout.ms=MS "
				+ "-Dgateway.max.body.bytes=BYTES -Dgateway.max.header.bytes=BYTES -Dgateway.max.event.bytes=BYTES, the limits the gateway "
				+ "documents)");
	}

	@Test
	@DisplayName("under -Pgpu missing limits fail the rung, and each limit rule itself, with PENDING_MEASUREMENT naming the four limits")
	void missingLimitsFailUnderGpu() {
		runRung("declaresNoLimits", "gpu", false).assertThatEvents()
				.haveExactly(1, event(test("declaresNoLimits"),
						finishedWithFailure(instanceOf(PendingMeasurementError.class),
								message(m -> m.startsWith("PENDING_MEASUREMENT: fault rules "
										+ "F02, F04, F06, F07 hold a gateway that declares no limits")
										&& m.contains(FaultKit.LIMITS_FIX)))));
		Events kit = kit(Map.of(HarnessConstants.ALLOW_PENDING, "false")).testEvents();
		kit.assertStatistics(stats -> stats.failed(16).aborted(0).succeeded(0));
		assertThat(kit.failed()
				.stream()
				.map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
						.orElseThrow()
						.getThrowable()
						.orElseThrow()))
				.allSatisfy(t -> assertThat(t).isInstanceOf(PendingMeasurementError.class)
						.hasMessageContaining(", and it declares none (set -Dgateway."));
	}

	@Test
	@DisplayName("a gateway that does not claim resilience: F07's failures end NOT_CLAIMED with their text, none a failure or a pass; a claim naming no class fails the kit, naming the classes")
	void unclaimedFailuresAborted() {
		Events claimed = headerLimitRule(HarnessConstants.GATEWAY_CLASSES, "relay,adjudication");
		claimed.assertStatistics(stats -> stats.started(4).failed(0).succeeded(0).aborted(4));
		assertThat(claimed.aborted()
				.stream()
				.map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
						.orElseThrow()
						.getThrowable()
						.orElseThrow()))
				.allSatisfy(t -> assertThat(t).isInstanceOf(dev.fakbattery.conformance.rules.NotClaimed.class)
						.hasMessageStartingWith("NOT_CLAIMED: F07 is of the resilience class, which the gateway does not claim "
								+ "(gateway.classes=relay,adjudication), so this failure fails nothing: F07 [")
						.hasMessageContaining("expected 431 with an OpenAI-shaped error")
						.hasCauseInstanceOf(AssertionError.class));

		EngineExecutionResults misnamed = EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(BrokenFaultGateways.TakesAnyHeadersTestCase.class, "required_F07_headerLimit", PARAMETERS))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.GATEWAY_CLASSES, "relay,faults")))
				.execute();
		misnamed.testEvents().assertStatistics(stats -> stats.started(0));
		assertThat(misnamed.containerEvents()
				.failed()
				.stream()
				.flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
						.orElseThrow()
						.getThrowable()
						.stream()))
				.anySatisfy(t -> assertThat(t).hasMessage("gateway.classes: faults is not a conformance class; the classes are relay, "
						+ "adjudication, record, resilience, clients (or all), e.g. gateway.classes=relay,resilience"));
	}

	private static Events headerLimitRule(String key, String value) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(BrokenFaultGateways.TakesAnyHeadersTestCase.class, "required_F07_headerLimit", PARAMETERS))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(key, value)))
				.execute()
				.testEvents();
	}

	private Events runRung(String method, String profile, boolean allowPending) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, method, RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
						HarnessConstants.PROFILE, profile, HarnessConstants.ALLOW_PENDING, String.valueOf(allowPending))))
				.execute()
				.testEvents();
	}

	private JsonNode artifact() throws IOException {
		return Json.MAPPER.readTree(dir.resolve(ArtifactId.FAULT_RULES.fileName()).toFile());
	}

	/** The four limit rules against a gateway that declares no limits. */
	static EngineExecutionResults kit(Map<String, String> parameters) {
		List<MethodSelector> selectors = LIMIT_RULES.stream()
				.map(m -> DiscoverySelectors.selectMethod(BrokenFaultGateways.DeclaresNoLimitsTestCase.class, m, PARAMETERS))
				.toList();
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectors.toArray(MethodSelector[]::new))
				.configurationParameters(HarnessConfig.hermeticParameters(parameters))
				.execute();
	}

	// -------------------------------------------------------------------------

	/** The fault rung's recording over known gateways, run as a rung so that its artifact is written as the battery's is. */
	@WireRung
	@RungArtifact(ArtifactId.FAULT_RULES)
	static class RungTestCase {

		@Test
		void takesAnyHeaders(RungRecorder run) {
			EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
					.selectors(selectMethod(BrokenFaultGateways.TakesAnyHeadersTestCase.class, "required_F07_headerLimit", PARAMETERS))
					.configurationParameters(KitRun.parameters(run.config()))
					.execute();
			FaultRungTests.record(run, results, "broken: takes any headers");
		}

		@Test
		void declaresNoLimits(RungRecorder run) {
			FaultRungTests.record(run, kit(KitRun.parameters(run.config())), "a gateway that declares no limits");
		}
	}
}
