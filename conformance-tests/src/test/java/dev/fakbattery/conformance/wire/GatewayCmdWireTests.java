package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The whole kit against the reference gateway started the way an operator starts any gateway:
 * {@code -Dgateway.cmd} with its runnable jar, health-checked, logged and stopped by the harness. The kit runs inside its
 * own {@link EngineTestKit} run ({@link FromJar}, isolated there, every rule one at a time, as implementers get it), so
 * that this class, not isolated itself, runs beside the other classes instead of alone at the end of the module: its
 * time is mostly W26's 5 s pauses and W14's paced streams.
 */
@Tag("wire")
@DisplayName("wire conformance: reference gateway started from its jar through gateway.cmd")
@Order(1) // mostly waiting (paced streams, stalls, slow readers): started first, beside the busy classes
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class GatewayCmdWireTests {

	/**
	 * Timing rules that fail are run again, at most {@link BrokenTimingWireTests#RERUNS} times, each rerun and its reason
	 * published to the test report, as for the faithful hop: a gateway that holds deltas does so in every run. Every other
	 * rule must pass at the first run.
	 */
	@Test
	@DisplayName("the reference gateway's jar, started through gateway.cmd, fails no rule, timing rules included")
	void everyRulePasses(TestReporter reporter) {
		Events tests = SelfTest.runWithTiming(FromJar.class);
		Set<String> rerun = SelfTest.failedRules(tests);
		assertThat(SelfTest.timingFailuresAfterReruns(FromJar.class, tests, BrokenTimingWireTests.RERUNS,
				line -> reporter.publishEntry("timing", line)))
				.as("timing rules that failed in each of %d runs", BrokenTimingWireTests.RERUNS + 1)
				.isEmpty();
		tests.assertStatistics(stats -> stats.succeeded(102 - rerun.size()).aborted(10).failed(rerun.size()));
	}

	/** The kit's rules against the reference gateway's jar started from {@code gateway.cmd}. */
	static class FromJar extends WireVerification {

		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			Path jar = jar();
			String command = ChildJava.shellCommand() + " -jar '" + jar + "'"
					+ " --upstream {upstream} --port {port} --engine "
					+ engine;
			// 120 s to answer /healthz, not the default 45: at a load average near 34 on 2 cores (2026-12-02) the jar's
			// JVM printed its first line and then took longer than 45 s to answer
			HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of(HarnessConstants.GATEWAY_CMD, command,
					HarnessConstants.GATEWAY_DECLARES_RECORD, "true", HarnessConstants.GATEWAY_START_TIMEOUT_SEC, "120").get(name)));
			return GatewayLauncher.resolve(config, upstream, GATEWAY_MODEL, engine, Path.of("target", "gateway-logs"));
		}

		private static Path jar() {
			for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
				Path jar = dir.resolve("reference-gateway/target/reference-gateway.jar");
				if (Files.isRegularFile(jar)) {
					return jar;
				}
			}
			throw new IllegalStateException("reference-gateway/target/reference-gateway.jar not found: build it first "
					+ "(./mvnw verify builds it before this module)");
		}
	}
}
