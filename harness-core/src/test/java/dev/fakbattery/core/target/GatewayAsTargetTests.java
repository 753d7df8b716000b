package dev.fakbattery.core.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A gateway where a rung expects the engine (found with {@code fak serve} or the reference gateway passed as
 * {@code -Dbase.url}: its {@code /version} relays the engine's, so only its own metric families give it away) is a
 * misconfiguration of that parameter, never a verdict about a server the harness did not start.
 */
@DisplayName("A gateway at base.url: a misconfiguration, never a verdict")
class GatewayAsTargetTests {

	/** What the reference gateway answers in front of vLLM: the engine's version relayed, its own metrics. */
	private static ProbedEngine referenceGateway() throws Exception {
		return ProbedEngine.start()
				.models("\"owned_by\":\"vllm\"")
				.on("/version", "{\"version\":\"0.11.0\"}")
				.on("/metrics", "# HELP fak_gateway_requests_total requests\nfak_gateway_requests_total{route=\"chat\"} 3\n"
						+ "fak_gateway_quarantines_total 0\nfak_gateway_active_streams 0\n");
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	@DisplayName("the probe records a gateway's own metric families as evidence, beside the engine version it relays")
	void probeNamesTheGateway() throws Exception {
		try (ProbedEngine gateway = referenceGateway()) {
			TargetIdentity id = TargetProbe.probe(gateway.baseUrl(), HarnessConstants.BASE_URL, Optional.empty());
			assertThat(id.engineVersion()).isEqualTo("0.11.0");
			assertThat(id.gatewayEvidence())
					.isEqualTo("GET /metrics: 3 metric families named fak_gateway_* (the fak reference gateway's)");
			assertThat(id.gatewayInstead()).hasValueSatisfying(why -> assertThat(why).contains("is a gateway, not an engine"));
			assertThat(id.probed()).contains("GET /metrics: HTTP 200, 3 fak_gateway_ families");
		}
	}

	@Test
	@DisplayName("an engine's own metrics are no gateway evidence")
	void engineIsNoGateway() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/metrics", "vllm:num_requests_running 0\n")) {
			TargetIdentity id = TargetProbe.probe(engine.baseUrl(), HarnessConstants.BASE_URL, Optional.empty());
			assertThat(id.gatewayInstead()).isEmpty();
			assertThat(id.gatewayEvidence()).isNull();
		}
	}

	@Test
	@DisplayName("a rung told base.url is the engine stops before measuring: misconfiguration naming base.url and the fix, verdict PENDING, not FAIL")
	void rungRefusesToMeasureAGateway() throws Exception {
		try (ProbedEngine gateway = referenceGateway()) {
			RungRecorder run = new RungRecorder(ArtifactId.SERVING_WITNESS,
					config(Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.BASE_URL, gateway.baseUrl().toString())));
			Throwable thrown = catchThrowable(() -> run.target(gateway.baseUrl(), HarnessConstants.BASE_URL));
			assertThat(thrown).isInstanceOf(ConfigurationException.class)
					.hasMessageContaining("is a gateway, not an engine")
					.hasMessageContaining("-Dbase.url at the engine itself")
					.hasMessageContaining("-D" + HarnessConstants.GATEWAY_URL);
			assertThat(run.pendings()).singleElement()
					.satisfies(p -> assertThat(p.name()).isEqualTo(HarnessConstants.BASE_URL));
			// what a rung that went on would have seen through the stacked gateways: a failed check, still not a verdict
			run.check("quarantine_flow", false, "HTTP 200", "HTTP 502");
			assertThat(RungOutcome.verdict(run, Optional.of(thrown))).isEqualTo(Verdict.PENDING_MEASUREMENT);
		}
	}

	@Test
	@DisplayName("the same evidence from an engine the harness started (engine.cmd) names engine.cmd")
	void startedGatewayNamesItsOrigin() throws Exception {
		try (ProbedEngine gateway = referenceGateway()) {
			RungRecorder run = new RungRecorder(ArtifactId.SERVING_WITNESS, config(Map.of()));
			assertThatThrownBy(() -> run.target(gateway.baseUrl(), HarnessConstants.ENGINE_CMD))
					.isInstanceOf(ConfigurationException.class)
					.hasMessageContaining("(engine.cmd) is a gateway")
					.hasMessageContaining("-Dengine.cmd at the engine itself");
		}
	}
}
