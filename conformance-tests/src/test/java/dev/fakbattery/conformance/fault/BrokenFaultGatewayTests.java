package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.conformance.wire.SelfTest;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The fault kit tested the Reactive Streams TCK way: each deliberately broken gateway ({@link BrokenFaultGateways})
 * fails its rule on every target the rule applies to, with the rule's message; {@link FaultKitSelfTests} shows the
 * same gateway behind a faithful pipe fails none. Its gateways run concurrently with each other and beside other
 * classes: each waits on its rule's deadline (a never-answered stall, an unbounded line) far more than it computes.
 * Not {@code @Isolated}: an isolated class runs its methods one at a time, whatever its execution mode.
 */
@Tag("fault")
@DisplayName("fault kit self-test: broken gateways fail their rules")
@Execution(ExecutionMode.CONCURRENT)
@Order(1) // mostly waiting (paced streams, stalls, slow readers): started first, beside the busy classes
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class BrokenFaultGatewayTests {

	private static final String PARAMETERS = Dialect.class.getName() + ", java.lang.String";

	@Test
	@DisplayName("F01: a gateway that keeps reading the upstream after the client left")
	void keepsUpstreamAfterClientLeft() {
		assertThat(SelfTest.message(f01(BrokenFaultGateways.KeepsUpstreamAfterClientLeftTestCase.class), "F01", "vllm stream"))
				.startsWith("F01 [vllm stream] on broken: does not cancel the upstream when the "
						+ "client leaves: expected the upstream request cancelled within 200 ms of the client leaving, observed the upstream "
						+ "connection still open 3000 ms later (");
	}

	@Test
	@DisplayName("F01: a gateway that cancels the upstream a second late fails, the kit's own stall not explaining it, and again when rerun")
	void cancelsLate() {
		Events tests = f01(BrokenFaultGateways.CancelsLateTestCase.class);
		assertThat(SelfTest.message(tests, "F01", "vllm stream"))
				.startsWith("F01 [vllm stream] on broken: cancels the upstream a second after the client leaves: expected the upstream "
						+ "request cancelled within 200 ms of the client leaving, observed cancelled after ")
				.containsPattern("after 1[0-9]{3} ms \\(the kit's own longest stall meanwhile [0-9]+ ms\\)$");
		// the faithful pipe's F01 reruns (FaultKitSelfTests) cannot hide a gateway that cancels late: it does so again
		List<String> log = new ArrayList<>();
		assertThat(SelfTest.failuresAfterReruns(tests, 1, FaultKitSelfTests.F01, "F01 (the 200 ms cancel)", FaultKitSelfTests::run,
				log::add)).containsExactlyInAnyOrderElementsOf(expand("F01", List.of("stream")));
		assertThat(log).singleElement()
				.asString()
				.startsWith("rerun 1 of at most 1 of F01 (the 200 ms cancel), after [F01 [sglang stream], F01 [vllm stream]] failed: ");
	}

	/** Runs F01 against {@code broken}: it fails on every stream target. */
	private static Events f01(Class<?> broken) {
		Events tests = run(broken, "required_F01_disconnectCancelsUpstream");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F01", List.of("stream")));
		return tests;
	}

	@Test
	@DisplayName("F02: a gateway that never times out a stalled upstream")
	void neverTimesOut() {
		Events tests = run(BrokenFaultGateways.NeverTimesOutTestCase.class, "required_F02_stallAnswered");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F02", List.of("non-stream", "stream")));
		assertThat(SelfTest.message(tests, "F02", "sglang non-stream"))
				.isEqualTo("F02 [sglang non-stream] on broken: never times out a stalled "
						+ "upstream: expected 504 with an OpenAI-shaped error within 4000 ms of an upstream that never sends its headers "
						+ "(upstream timeout 2000 ms), observed no answer (no answer by the deadline) after 4000 ms");
	}

	@Test
	@DisplayName("F03: a gateway that resets its client when the upstream resets")
	void resetsClient() {
		Events tests = run(BrokenFaultGateways.ResetsClientTestCase.class, "required_F03_resetAnswered");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F03", List.of("non-stream", "stream")));
		assertThat(SelfTest.message(tests, "F03", "vllm stream"))
				.startsWith("F03 [vllm stream] on broken: resets the client when the upstream "
						+ "resets: expected an error frame then [DONE] (or 502 with an OpenAI-shaped error before anything was streamed), observed status 200 after ");
	}

	@Test
	@DisplayName("F03: a gateway that streams the call it must rewrite before the call is complete")
	void streamsCallItMustRewrite() {
		Events tests = run(BrokenFaultGateways.StreamsCallItMustRewriteTestCase.class, "required_F03_resetAnswered");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F03", List.of("stream")));
		assertThat(SelfTest.message(tests, "F03", "vllm stream"))
				.startsWith("F03 [vllm stream] on broken: streams the call it must rewrite "
						+ "before the call is complete: expected no byte of the cut tool call (transform_read), observed it in the answer: ");
	}

	@Test
	@DisplayName("F04: a gateway that reads an endless line without bound")
	void unboundedLines() {
		Events tests = run(BrokenFaultGateways.UnboundedLinesTestCase.class, "required_F04_endlessLineBounded");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F04", List.of("non-stream", "stream")));
		assertThat(SelfTest.message(tests, "F04", "sglang stream"))
				.startsWith("F04 [sglang stream] on broken: reads endless lines without bound: "
						+ "expected the gateway to stop reading an endless-line within 4194304 bytes (its event limit) + "
						+ FaultVerification.BUFFER_SLACK + " bytes of socket buffers (" + SocketBuffers.ofThisMachine().source()
						+ "), observed it took all ");
	}

	@Test
	@DisplayName("F05: a gateway that buffers a slow client's stream without bound")
	void buffersForSlowClient() {
		Events tests = run(BrokenFaultGateways.BuffersForSlowClientTestCase.class, "required_F05_slowClientBounded");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F05", List.of("stream")));
		assertThat(SelfTest.message(tests, "F05", "vllm stream"))
				.startsWith("F05 [vllm stream] on broken: buffers without bound for a slow client: "
						+ "expected the stream of a client reading one byte a second to take at most " + FaultVerification.SLOW_CLIENT_BOUND
						+ " bytes from its upstream (socket buffers from " + SocketBuffers.ofThisMachine().source()
						+ "), observed it took ");
	}

	@Test
	@DisplayName("F05: a gateway that reads a slow client's stream without bound, but slowly (2 MiB/s): still taking bytes when F05 looks")
	void tricklesForSlowClient() {
		Events tests = run(BrokenFaultGateways.TricklesForSlowClientTestCase.class, "required_F05_slowClientBounded");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F05", List.of("stream")));
		for (String target : List.of("vllm stream", "sglang stream")) {
			// still taking bytes at F05's 20 s, or past the bound where this machine's socket buffers make it lower
			assertThat(SelfTest.message(tests, "F05", target)).startsWith("F05 [" + target + "] on broken: reads a slow client's stream at "
					+ "2 MiB/s without bound: expected the stream of a client reading one byte a second to take at most "
					+ FaultVerification.SLOW_CLIENT_BOUND + " bytes from its upstream");
		}
	}

	@Test
	@DisplayName("F06: a gateway that takes any request body")
	void takesAnyBody() {
		Events tests = run(BrokenFaultGateways.TakesAnyBodyTestCase.class, "required_F06_bodyLimit");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F06", List.of("non-stream", "stream")));
		assertThat(SelfTest.message(tests, "F06", "vllm non-stream"))
				.startsWith("F06 [vllm non-stream] on broken: takes any body: expected 413 with "
						+ "an OpenAI-shaped error for a body of 8389632 bytes (limit 8388608), observed status 200 after ");
	}

	@Test
	@DisplayName("F07: a gateway that takes any request headers")
	void takesAnyHeaders() {
		Events tests = run(BrokenFaultGateways.TakesAnyHeadersTestCase.class, "required_F07_headerLimit");
		assertThat(failedRules(tests)).containsExactlyInAnyOrderElementsOf(expand("F07", List.of("non-stream", "stream")));
		assertThat(SelfTest.message(tests, "F07", "sglang stream"))
				.startsWith("F07 [sglang stream] on broken: takes any headers: expected 431 with "
						+ "an OpenAI-shaped error for 33792 bytes of headers (limit 32768), observed status 200 after ");
	}

	static Events run(Class<?> testCase, String rule) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectMethod(testCase, rule, PARAMETERS)).execute().testEvents();
	}

	/** Failed invocations as {@code F03 [vllm stream]}. */
	static Set<String> failedRules(Events tests) {
		Set<String> failed = new TreeSet<>();
		tests.failed().stream().forEach(event -> failed.add(SelfTest.label(event)));
		return failed;
	}

	private static List<String> expand(String rule, List<String> modes) {
		return FaultKit.DIALECTS.stream().flatMap(e -> modes.stream().map(m -> rule + " [" + e + " " + m + "]")).toList();
	}
}
