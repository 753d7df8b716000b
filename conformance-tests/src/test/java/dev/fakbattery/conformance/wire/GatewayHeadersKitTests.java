package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.conformance.fault.FaultVerification;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.standalone.StandaloneKit;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.engine.hop.RelayHop;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The request headers a real gateway needs ({@code gateway.header.*}): a gateway that routes a request only when it carries
 * {@value #ROUTE} and names its upstream in {@value #HOST} (and answers 400 otherwise, as Portkey does without its routing
 * headers) is judged when every kit
 * client sends the header (the plain client, the OpenAI Java SDK, LangChain4j, the fault kit's socket client, and the
 * Node clients where node is installed), and not judged when none does.
 */
@Tag("wire")
@DisplayName("request headers for the gateway under test: every kit client sends them")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class GatewayHeadersKitTests {

	static final String ROUTE = "x-kit-route";

	static final String TOKEN = "route-7f3a";

	/** Names the engine the gateway is to reach, as Portkey's {@code x-portkey-custom-host} does; sent as {@code {upstream}}. */
	static final String HOST = "x-kit-host";

	static final String HEADERS = ROUTE + ": " + TOKEN + "\n" + HOST + ": {upstream}";

	@Test
	@DisplayName("the wire kit through a gateway that routes by a header: judged with it, every rule run as on the reference gateway")
	void wireKit() {
		Map<String, RuleOutcome> outcomes = NullGatewayTests.outcomes(run(RoutedWireTestCase.class, "off", true));

		assertThat(outcomes).isNotEmpty().doesNotContainValue(RuleOutcome.NOT_JUDGED).doesNotContainValue(RuleOutcome.FAIL);
		assertThat(outcomes).containsEntry("W01 [vllm stream]", RuleOutcome.PASS)
				.containsEntry("W09 [sglang non-stream]", RuleOutcome.PASS);
	}

	@Test
	@DisplayName("the wire kit through the same gateway without the header: every rule run not judged")
	void wireKitWithoutHeader() {
		Map<String, RuleOutcome> outcomes = NullGatewayTests.outcomes(run(RoutedWireTestCase.class, "off", false));

		assertThat(outcomes).isNotEmpty().allSatisfy((run, outcome) -> assertThat(outcome).as(run).isEqualTo(RuleOutcome.NOT_JUDGED));
	}

	@Test
	@DisplayName("the fault kit's socket client sends it: every fault rule judged")
	void faultKit() {
		Map<String, RuleOutcome> outcomes = NullGatewayTests.outcomes(run(RoutedFaultTestCase.class, "off", true));

		// judged, not necessarily passed: F01 asks the test's relay hops to pass a client's leaving on, which they may not
		assertThat(outcomes).isNotEmpty().doesNotContainValue(RuleOutcome.NOT_JUDGED);
		assertThat(outcomes).containsEntry("F03 [vllm stream]", RuleOutcome.PASS)
				.containsEntry("F03 [sglang non-stream]", RuleOutcome.PASS)
				.containsEntry("F05 [sglang stream]", RuleOutcome.PASS);
	}

	@Test
	@DisplayName("the client kit's libraries send it: LangChain4j, the OpenAI Java SDK, and the Node clients where node is installed")
	void clientKit() {
		String node = SelfTest.nodeClients();
		Map<String, RuleOutcome> outcomes = NullGatewayTests.outcomes(run(RoutedClientTestCase.class, node, true));

		assertThat(outcomes).isNotEmpty().doesNotContainValue(RuleOutcome.NOT_JUDGED).doesNotContainValue(RuleOutcome.FAIL);
		assertThat(outcomes).containsEntry("C01 [vllm stream]", RuleOutcome.PASS)
				.containsEntry("C01 [sglang non-stream]", RuleOutcome.PASS);
		if (!node.equals("off")) {
			assertThat(outcomes).containsEntry("C02 [vllm stream]", RuleOutcome.PASS)
					.containsEntry("C03 [vllm non-stream]", RuleOutcome.PASS)
					.containsEntry("C04 [sglang stream]", RuleOutcome.PASS);
		}
	}

	@Test
	@DisplayName("the standalone jar's --header reaches the gateway: exit 0 with it, 3 (not judged) without; the value is never printed")
	void standalone(@TempDir Path reports) throws Exception {
		int upstreamPort = ManagedProcess.freePort();
		try (GatewayUnderTest gateway = routed(URI.create("http://127.0.0.1:" + upstreamPort + "/v1"), Dialect.VLLM)) {
			List<String> common = List.of("--gateway-url", gateway.baseUrl().toString(), "--upstream-port", String.valueOf(upstreamPort),
					"--only", "W01,W05", "--reports-dir", reports.toString());
			StringWriter with = new StringWriter();
			List<String> args = new java.util.ArrayList<>(common);
			args.addAll(List.of("--header", ROUTE + ": " + TOKEN, "--config", "gateway.header." + HOST + "={upstream}"));
			int exit = StandaloneKit.run(args.toArray(String[]::new), new PrintWriter(with, true),
					new PrintWriter(new StringWriter(), true));
			assertThat(exit).as(with.toString()).isZero();
			assertThat(with.toString()).contains("kit outcomes: 4 rule runs passed, 0 failed").doesNotContain(TOKEN);

			StringWriter without = new StringWriter();
			int unjudged = StandaloneKit.run(common.toArray(String[]::new), new PrintWriter(without, true),
					new PrintWriter(new StringWriter(), true));
			assertThat(unjudged).as(without.toString()).isEqualTo(StandaloneKit.UNJUDGED);
			assertThat(without.toString()).contains("the kit's upstream was NOT reached; the gateway answered HTTP 400");
		}
	}

	/**
	 * The reference gateway behind a hop that answers Portkey's 400 unless the request carries {@value #ROUTE} and names
	 * this gateway's upstream in {@value #HOST}.
	 */
	static GatewayUnderTest routed(URI upstream, Dialect engine) {
		RelayHop.Mangle router = new RelayHop.Mangle() {
			@Override
			public String refusal(Map<String, List<String>> headers) {
				boolean routed = carries(headers, ROUTE, TOKEN) && carries(headers, HOST, upstream.toString());
				return routed
						? null
						: "{\"status\":\"failure\",\"message\":\"Either x-portkey-config or x-portkey-provider header is required\"}";
			}
		};
		return BrokenGateways.broken("routes by " + ROUTE, router, BrokenGateways.FAITHFUL, upstream, engine);
	}

	private static boolean carries(Map<String, List<String>> headers, String name, String value) {
		return headers.entrySet().stream().anyMatch(header -> header.getKey().equalsIgnoreCase(name) && header.getValue().contains(value));
	}

	/** {@code testCase}, hermetic, its timing rules left out, with {@code kit.node.clients=node} and the header or none. */
	private static Events run(Class<?> testCase, String node, boolean header) {
		Map<String, String> parameters = new HashMap<>(Map.of(ConfigKeys.KIT_NODE_DIR.name(), SelfTest.NODE_DIR,
				ConfigKeys.KIT_NODE_CLIENTS.name(), node));
		if (header) {
			parameters.put(HarnessConstants.GATEWAY_HEADERS, HEADERS);
		}
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(parameters))
				.filters(TagFilter.excludeTags(WireVerification.TIMING))
				.execute()
				.testEvents();
	}

	static class RoutedWireTestCase extends WireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return routed(upstream, engine);
		}
	}

	static class RoutedFaultTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return routed(upstream, engine);
		}
	}

	static class RoutedClientTestCase extends ClientVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return routed(upstream, engine);
		}
	}
}
