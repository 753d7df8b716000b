package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.engine.hop.RelayHop;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit reads its configuration the way the rungs do (JUnit configuration parameters, then system properties), so
 * the gateway a run names is the gateway the kit talks to, however it was named.
 */
@Tag("wire")
@DisplayName("wire kit configuration: read like the rungs read it")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class KitConfigurationTests {

	private static final String PARAMETERS = "dev.fakbattery.wire.Dialect, java.lang.String";

	@Test
	@DisplayName("gateway.url given as a JUnit configuration parameter (no system property) is the gateway the kit talks to")
	void gatewayUrlAsConfigurationParameter() {
		int upstreamPort = ManagedProcess.freePort();
		try (GatewayUnderTest operators = GatewayLauncher.embedded(URI.create("http://127.0.0.1:" + upstreamPort + "/v1"), Dialect.VLLM);
				RelayHop counting = new RelayHop(operators.baseUrl())) {
			Map<String, String> parameters = HarnessConfig
					.hermeticParameters(Map.of(HarnessConstants.GATEWAY_URL, counting.url().toString(),
							HarnessConstants.KIT_UPSTREAM_PORT, String.valueOf(upstreamPort), HarnessConstants.ENGINE, "vllm",
							HarnessConstants.GATEWAY_DECLARES_RECORD, "true"));
			assertThat(System.getProperty(HarnessConstants.GATEWAY_URL)).as("this test needs gateway.url unset as a system property")
					.isNull();

			Events tests = EngineTestKit.engine("junit-jupiter")
					.selectors(selectMethod(GatewayUnderTestWireTests.class, "required_W15_requestId", PARAMETERS),
							selectMethod(GatewayUnderTestWireTests.class, "required_W02_allowKept", PARAMETERS))
					.configurationParameters(parameters)
					.execute()
					.testEvents();

			tests.assertStatistics(stats -> stats.started(4).succeeded(4).failed(0));
			assertThat(counting.forwardedBodies()).as("requests the kit sent through the configured gateway")
					.hasSizeGreaterThanOrEqualTo(4)
					.anySatisfy(body -> assertThat(body).contains(Scenario.ALLOW.marker()));
		}
	}

	@Test
	@DisplayName("the wire rung hands every name it resolved on to the kit it runs, configuration parameters included")
	void rungHandsItsConfigurationOn() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1",
				HarnessConstants.WIRE_CAPTURES, "/captures", HarnessConstants.ENGINE, "sglang").get(name)));

		assertThat(KitRun.parameters(config))
				.containsExactlyInAnyOrderEntriesOf(Map.of(HarnessConstants.GATEWAY_URL, "http://127.0.0.1:9/v1",
						HarnessConstants.WIRE_CAPTURES, "/captures", HarnessConstants.ENGINE, "sglang"));
	}

}
