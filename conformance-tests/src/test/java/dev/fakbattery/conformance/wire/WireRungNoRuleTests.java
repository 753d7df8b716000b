package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.WireRung;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The wire rung over a kit whose gateway never started (its class fails before any rule runs): the rung fails on a
 * check that names the gateway and why no rule ran, not on an empty artifact.
 */
@DisplayName("wire rung self-test: a gateway that never started fails the rung with the reason")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class WireRungNoRuleTests {

	static final String WHY = "the gateway command exited with status 1 before answering /healthz";

	@TempDir
	Path dir;

	@Test
	@DisplayName("no rule ran: wire_rules_ran fails, naming the gateway and the kit's own failure")
	void noRuleRanFails() throws IOException {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, "noGateway", RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
						HarnessConstants.PROFILE, "battery", HarnessConstants.ALLOW_PENDING, "true", HarnessConstants.GATEWAY_CMD,
						"my-gateway --port {port} --upstream {upstream}")))
				.execute()
				.testEvents()
				.assertStatistics(stats -> stats.failed(1));
		JsonNode doc = Json.MAPPER.readTree(dir.resolve(ArtifactId.WIRE_CONFORMANCE.fileName()).toFile());
		assertThat(doc.path("verdict").asText()).isEqualTo("FAIL");
		JsonNode check = doc.path("acceptance").path("wire_rules_ran");
		assertThat(check.path("status").asText()).isEqualTo("FAIL");
		assertThat(check.toString()).contains("gateway.cmd my-gateway --port {port} --upstream {upstream}").contains(WHY);
		assertThat(doc.path("rules")).isEmpty();
	}

	/** The wire rung's recording of a kit whose gateway fails to start, run as a rung so its artifact is written. */
	@WireRung
	@RungArtifact(ArtifactId.WIRE_CONFORMANCE)
	static class RungTestCase {

		@org.junit.jupiter.api.Test
		void noGateway(RungRecorder run) {
			WireRungTests.wireRules(run, NoGateway.class);
			run.headline("the kit's gateway never started");
		}
	}

	/** A kit whose gateway does not start. */
	static class NoGateway extends WireVerification {

		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			throw new IllegalStateException(WHY);
		}
	}
}
