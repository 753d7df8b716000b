package dev.fakbattery.conformance.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar's fault rules against a running gateway (a URL declares no limits): each rule asks only for the limit it holds
 * the gateway to, a rule without its limit is pending (exit 3, not 1), and the fix names the jar's {@code --config}.
 */
@DisplayName("standalone kit: each fault rule asks for its own limit, and pending exits 3")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class StandaloneFaultLimitsTests {

	@Test
	@DisplayName("--only F02,F07 with the header limit given: F07 judged, F02 pending naming --config gateway.upstream.timeout.ms, exit 3")
	void eachRuleItsOwnLimit(@TempDir Path reports) throws Exception {
		int upstreamPort = ManagedProcess.freePort();
		URI upstream = URI.create("http://127.0.0.1:" + upstreamPort + "/v1");
		try (GatewayUnderTest gateway = GatewayLauncher.embedded(upstream, Dialect.VLLM)) {
			int headerLimit = gateway.limits().orElseThrow().maxHeaderBytes();
			StringWriter out = new StringWriter();
			int exit = StandaloneKit.run(new String[]{ "--gateway-url", gateway.baseUrl().toString(), "--upstream-port",
				String.valueOf(upstreamPort), "--rules", "fault", "--only", "F02,F07", "--config",
				"gateway.max.header.bytes=" + headerLimit,
				"--reports-dir", reports.toString() }, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));

			assertThat(exit).as(out.toString()).isEqualTo(StandaloneKit.UNJUDGED);
			assertThat(out.toString()).contains("kit outcomes: 2 rule runs passed, 0 failed, 2 pending")
					.contains("F02 holds gateway.url " + gateway.baseUrl()
							+ " to its documented gateway.upstream.timeout.ms, and it declares "
							+ "none (set --config gateway.upstream.timeout.ms=MS, the limit the gateway documents)")
					.doesNotContain("-Dgateway.");
		}
	}
}
