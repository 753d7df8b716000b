package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewriting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * llama.cpp, the kit's third dialect: the captured-wire rules on real {@code llama-server} answers committed under
 * fixtures/wire/llamacpp (the capture command's folders and the verbatim {@code curl -si} answers beside them), replayed
 * without a llama-server. The reference gateway passes every rule that applies; broken gateways fail the rules they
 * break on llama.cpp's own wire.
 */
@Tag("wire")
@DisplayName("llama.cpp captures: the kit's rules on real llama-server answers")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class LlamaCppCaptureTests {

	static final Path CAPTURES = fixturesWire().resolve("llamacpp");

	/** What fixtures/wire/llamacpp holds for the kit: chat answers, streamed and not, tool calls among them, and one error. */
	static final List<String> IDS = List.of("captured/tiny-random-llama/llamacpp/text",
			"captured/tiny-scripted-llama/llamacpp/error-invalid-tool-choice",
			"captured/tiny-scripted-llama/llamacpp/parallel-tool-calls", "captured/tiny-scripted-llama/llamacpp/text",
			"captured/tiny-scripted-llama/llamacpp/tool-call-continuous-usage", "captured/tiny-scripted-llama/llamacpp/tool-call-required",
			"captured/tiny-scripted-llama/llamacpp/tool-call", "chat-text-stream", "chat-text", "chat-tool-call-required-stream",
			"chat-tool-call-required");

	static final String REQUIRED = "captured/tiny-scripted-llama/llamacpp/tool-call-required";

	@Test
	@DisplayName("the kit reads every llama.cpp answer, the error with its status, and leaves the server's other endpoints out")
	void loads() {
		List<Capture> captures = Capture.load(CAPTURES);

		assertThat(captures).extracting(Capture::id).containsExactlyElementsOf(IDS);
		assertThat(captures).allSatisfy(c -> assertThat(c.engine()).isEqualTo(Dialect.LLAMACPP));
		Capture error = captures.get(1);
		assertThat(List.of(error.status(false), error.status(true), error.truth(true, "as-sent").status)).containsOnly(400);
		assertThat(error.truth(true, "as-sent").body).isEqualTo("{\"error\":{\"code\":400,\"message\":\"Invalid tool_choice: kit-invalid\","
				+ "\"type\":\"invalid_request_error\"}}");
		assertThat(captures.get(5).tools()).containsExactly("read_file");
		assertThat(captures.get(5).truth(true, "allow").calls()).hasSize(9)
				.last()
				.satisfies(call -> assertThat(call.arguments()).as("the call max_tokens cut").isEqualTo("{\"path\":\""));
		assertThat(captures.get(10).truth(false, "deny").finishReason()).contains("tool_calls");
		assertThat(captures.get(10).provenance().at("/answers/non-stream/file").asText()).isEqualTo("chat-tool-call-required.http");
	}

	@Test
	@DisplayName("the reference gateway passes every captured-wire rule that applies to llama.cpp's answers; the rest say why not")
	void referenceGatewayPasses() {
		Events tests = run(CapturedWireTests.class);

		SelfTest.assertFailed(tests, Set.of());
		Map<String, Long> applied = new TreeMap<>();
		tests.succeeded().stream().forEach(event -> applied.merge(SelfTest.label(event).split(" ")[0], 1L, Long::sum));
		assertThat(applied).as("rule runs that applied, per rule (RULES.md, llama.cpp)")
				.isEqualTo(Map.of("W02", 4L, "W04", 4L, "W05", 15L,
						"W07", 15L, "W08", 15L, "W09", 2L, "W13", 4L, "W19", 17L, "W20", 8L, "W21", 15L));
		assertThat(tests.aborted().stream().map(LlamaCppCaptureTests::reason)).hasSize(143)
				.allSatisfy(reason -> assertThat(reason).startsWith("Assumption failed: Not applicable"));
		assertThat(reason(tests, "W22", REQUIRED + " stream")).isEqualTo("Assumption failed: Not applicable: " + REQUIRED
				+ " has no usage on every chunk (continuous_usage_stats)");
		assertThat(reason(tests, "W02", "captured/tiny-scripted-llama/llamacpp/error-invalid-tool-choice stream"))
				.isEqualTo("Assumption failed: Not applicable: "
						+ "captured/tiny-scripted-llama/llamacpp/error-invalid-tool-choice is the engine's error answer (HTTP 400) in stream mode; W09 and W19 judge it");
	}

	@Test
	@DisplayName("a gateway that lets denied calls through fails W07 and W13 on llama.cpp's tool calls, and nothing else")
	void leakyGatewayFails() {
		Events tests = run(LeaksDeniedTestCase.class);

		Set<String> rules = new TreeSet<>();
		tests.failed().stream().forEach(event -> rules.add(SelfTest.label(event)));
		assertThat(rules).containsExactly("W07 [chat-tool-call-required non-stream]", "W07 [chat-tool-call-required-stream stream]",
				"W13 [" + REQUIRED + " non-stream]", "W13 [" + REQUIRED + " stream]", "W13 [chat-tool-call-required non-stream]",
				"W13 [chat-tool-call-required-stream stream]");
		assertThat(SelfTest.message(tests, "W07", "chat-tool-call-required-stream stream")).isEqualTo("W07 [llamacpp stream] on broken: "
				+ "lets denied calls through: expected finish_reason stop (chat-tool-call-required-stream deny), observed tool_calls");
		assertThat(SelfTest.message(tests, "W13", REQUIRED + " stream"))
				.startsWith("W13 [llamacpp stream] on broken: lets denied calls through: "
						+ "expected no call and none of [")
				.contains(", deny_read_file, ")
				.contains("(" + REQUIRED + " deny), observed [");
	}

	@Test
	@DisplayName("a gateway that drops llama.cpp's timings object fails W21 on every llama.cpp answer, and nothing else")
	void dropsTimings() {
		Events tests = run(DropsTimingsTestCase.class);

		Set<String> rules = new TreeSet<>();
		tests.failed().stream().forEach(event -> rules.add(SelfTest.label(event).split(" ")[0]));
		assertThat(rules).containsExactly("W21");
		assertThat(tests.failed().count()).isEqualTo(tests.finished()
				.stream()
				.filter(e -> SelfTest.label(e).startsWith("W21 ")
						&& e.getPayload(TestExecutionResult.class).orElseThrow().getStatus() != TestExecutionResult.Status.ABORTED)
				.count());
		assertThat(SelfTest.message(tests, "W21", "chat-text non-stream")).startsWith("W21 [llamacpp non-stream] on broken: drops timings: "
				+ "expected the captured body unchanged (chat-text as-sent), observed {\"choices\":");
		assertThat(SelfTest.message(tests, "W21", "chat-text-stream stream")).startsWith("W21 [llamacpp stream] on broken: drops timings: "
				+ "expected the captured chunks unchanged (chat-text-stream as-sent), observed chunk ");
	}

	@Test
	@DisplayName("a gateway that turns llama.cpp's 400 into a 502 fails W09 on the captured error, and nothing else")
	void remapsErrors() {
		Events tests = run(RemapsErrorsTestCase.class);

		String error = "captured/tiny-scripted-llama/llamacpp/error-invalid-tool-choice";
		SelfTest.assertFailed(tests, Set.of("W09 [" + error + " non-stream]", "W09 [" + error + " stream]"));
		String body = "{\"error\":{\"code\":400,\"message\":\"Invalid tool_choice: kit-invalid\",\"type\":\"invalid_request_error\"}}";
		assertThat(SelfTest.message(tests, "W09", error + " stream"))
				.isEqualTo("W09 [llamacpp stream] on broken: turns 400 into 502: expected "
						+ "status 400 and body " + body + " (" + error + " as-sent), observed status 502 body " + body);
	}

	private static Events run(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.WIRE_CAPTURES, CAPTURES.toString())))
				.execute()
				.testEvents();
	}

	private static String reason(org.junit.platform.testkit.engine.Event event) {
		return event.getPayload(TestExecutionResult.class)
				.flatMap(TestExecutionResult::getThrowable)
				.map(Throwable::getMessage)
				.orElse("?");
	}

	private static String reason(Events tests, String rule, String target) {
		return tests.aborted()
				.stream()
				.filter(e -> SelfTest.label(e).equals(rule + " [" + target + "]"))
				.findFirst()
				.map(LlamaCppCaptureTests::reason)
				.orElse("<" + rule + " [" + target + "] was not aborted>");
	}

	// -------------------------------------------------------------------------

	static class LeaksDeniedTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return BrokenGateways.broken("broken: lets denied calls through", FAITHFUL,
					rewriting(text -> text.replace("\"deny_", "\"allow_")),
					upstream, engine);
		}
	}

	static class RemapsErrorsTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return BrokenGateways.broken("broken: turns 400 into 502", BrokenGateways.statuses(status -> status == 400 ? 502 : status),
					FAITHFUL,
					upstream, engine);
		}
	}

	static class DropsTimingsTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return BrokenGateways.broken("broken: drops timings", rewriting(text -> text.replaceAll(",\"timings\":\\{[^{}]*\\}", "")),
					FAITHFUL,
					upstream, engine);
		}
	}

	/** The repository's fixtures/wire, found by walking up from the working directory (the captures are not in the kit's jar). */
	static Path fixturesWire() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (java.nio.file.Files.isDirectory(dir.resolve("fixtures/wire"))) {
				return dir.resolve("fixtures/wire");
			}
		}
		throw new IllegalStateException("fixtures/wire not found above " + Path.of("").toAbsolutePath());
	}
}
