package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewriting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.capture.CaptureMain;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Bring your own wire, end to end: the capture command records the engine double's answers to the kit's prompts, the
 * kit replays that folder ({@code wire.captures}) against the reference gateway, and a broken gateway fails the
 * captured-wire rules it breaks.
 */
@Tag("wire")
@DisplayName("captured wires: what wire-capture records, the kit replays and judges")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class CaptureReplayTests {

	@TempDir
	static Path captures;

	@BeforeAll
	static void captureTheEngineDouble() throws Exception {
		for (Dialect dialect : WireConformanceKit.KIT_DIALECTS) {
			try (EngineDouble engine = EngineDouble.builder().dialect(dialect).timing(TimingModel.instant()).start()) {
				ByteArrayOutputStream err = new ByteArrayOutputStream();
				int status = CaptureMain.run(
						new String[]{ "--base-url", engine.baseUrl(), "--model", engine.model(), "--engine", dialect.id(),
							"--out", captures.toString(), "--parser", dialect == Dialect.VLLM ? "hermes" : "qwen25" },
						new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
						new PrintStream(err, true, StandardCharsets.UTF_8));
				assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
			}
		}
	}

	@Test
	@DisplayName("the reference gateway passes every captured-wire rule on the engine double's captures")
	void referenceGatewayPasses() {
		Events tests = run(CapturedWireTests.class);

		SelfTest.assertFailed(tests, Set.of());
		assertThat(tests.succeeded().count()).as("rule runs that applied").isGreaterThan(100);
		assertThat(Capture.load(captures)).extracting(Capture::id)
				.contains("vllm/tool-call", "sglang/parallel-tool-calls")
				.allSatisfy(id -> assertThat(id).matches("(vllm|sglang)/[a-z-]+"));
	}

	@Test
	@DisplayName("a gateway that lets denied calls through fails W07 and W13 on every captured tool call, and nothing else")
	void leakyGatewayFails() {
		Events tests = run(LeaksDeniedCapturesTestCase.class);

		Set<String> rules = new TreeSet<>();
		tests.failed().stream().forEach(event -> rules.add(SelfTest.label(event).split(" ")[0]));
		assertThat(rules).containsExactly("W07", "W13");
		assertThat(SelfTest.message(tests, "W13", "vllm/tool-call stream"))
				.startsWith("W13 [vllm stream] on broken: lets denied calls through: "
						+ "expected no call and none of [chatcmpl-tool-")
				.contains("(vllm/tool-call deny), observed [");
	}

	private static Events run(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.WIRE_CAPTURES, captures.toString())))
				.execute()
				.testEvents();
	}

	// -------------------------------------------------------------------------

	static class LeaksDeniedCapturesTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return BrokenGateways.broken("broken: lets denied calls through", FAITHFUL,
					rewriting(text -> text.replace("\"deny_", "\"allow_")),
					upstream, engine);
		}
	}
}
