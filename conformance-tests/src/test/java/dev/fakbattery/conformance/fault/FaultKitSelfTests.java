package dev.fakbattery.conformance.fault;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Set;

import dev.fakbattery.conformance.wire.SelfTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The fault kit's control: the reference gateway behind a faithful {@link TcpPipe} passes every fault rule, so each
 * broken pipe of {@link BrokenFaultGatewayTests} fails only by its own fault. Runs beside other classes: its rules
 * wait (F02's stalls, F05's slow reader) far more than they compute, and their margins (F01's 200 ms cancel
 * included) hold beside two CPU burners (tools/verify-under-load/timing-classes.sh).
 */
@Tag("fault")
@DisplayName("fault kit self-test: a faithful pipe fails no rule")
@Execution(ExecutionMode.CONCURRENT)
class FaultKitSelfTests {

	@Test
	@DisplayName("the reference gateway behind a faithful pipe passes F01..F07 in both modes")
	void faithfulPipePassesAll() {
		Events tests = EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(BrokenFaultGateways.FaithfulPipeTestCase.class))
				.execute()
				.testEvents();
		SelfTest.assertFailed(tests, Set.of());
		tests.assertStatistics(stats -> stats.succeeded(12).aborted(2).failed(0));
	}
}
