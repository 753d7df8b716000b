package dev.fakbattery.conformance.failclosed;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.core.RungRecorder;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The wire and fault rungs run the way {@code -Pgpu} runs them with nothing configured: each
 * fails with PENDING_MEASUREMENT naming the property to set (the contract rung, in bench-tests, is checked there).
 */
@DisplayName("-Pgpu with nothing configured fails closed on the wire and fault rungs")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class GpuProfileFailsClosedTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("the wire rung names the gateway under test")
	void wireNamesGateway() {
		run("dev.fakbattery.conformance.wire.WireRungTests", "wireConformance",
				"PENDING_MEASUREMENT: no gateway under test is named (the embedded reference gateway proves only the kit) "
						+ "(set -Dgateway.cmd=\"... {port} {upstream} {model}\" or -Dgateway.url=http://HOST:PORT/v1)");
	}

	@Test
	@DisplayName("the fault rung names the gateway under test")
	void faultsNameGateway() {
		run("dev.fakbattery.conformance.fault.FaultRungTests", "faultRules",
				"PENDING_MEASUREMENT: no gateway under test is named (the embedded reference gateway proves only the kit) "
						+ "(set -Dgateway.cmd=\"... {port} {upstream} {model}\" or -Dgateway.url=http://HOST:PORT/v1)");
	}

	private void run(String className, String method, String expected) {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(className, method, RungRecorder.class.getName()))
				.configurationParameters(nothingConfigured(dir))
				.execute()
				.testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test(method),
						finishedWithFailure(instanceOf(PendingMeasurementError.class), message(expected))));
	}

	static Map<String, String> nothingConfigured(Path dir) {
		return HarnessConfig.hermeticParameters(Map.of(HarnessConstants.ALLOW_PENDING, "false", HarnessConstants.PROFILE, "gpu",
				HarnessConstants.EXPERIMENTS_DIR, dir.toString()));
	}
}
