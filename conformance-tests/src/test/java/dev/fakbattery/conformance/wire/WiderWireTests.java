package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingBodies;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.gateway.ReferenceGateway;
import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.gateway.policy.Decision;
import dev.fakbattery.gateway.policy.Policy;
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
 * Wires from the wider OpenAI-compatible world ({@code fixtures/wire/wider}: DashScope's empty ids, null and empty
 * fields, a finish chunk that repeats the arguments, a whole call in one delta, usage on the finish chunk and twice,
 * {@code x_groq}, llama.cpp's {@code __verbose} and {@code timings}), replayed with {@code wire.captures} as a user
 * would: the kit reads each as one call per {@code index}, the reference gateway passes every captured-wire rule, and a
 * gateway that starts a new call on an empty id fails the rules it breaks, with their messages.
 */
@Tag("wire")
@DisplayName("wider-world captures: shapes real servers send, one call per index")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class WiderWireTests {

	static final Path CAPTURES = LlamaCppCaptureTests.fixturesWire().resolve("wider");

	static final String EMPTY_ID = "dashscope-empty-id";

	static final String MIXED = "null-and-empty-fields";

	@Test
	@DisplayName("the kit reads each shape as one call per index, with the name and arguments the server meant")
	void kitReadsOneCallPerIndex() {
		Map<String, Capture> captures = new TreeMap<>();
		Capture.load(CAPTURES).forEach(c -> captures.put(c.id(), c));

		assertThat(captures.keySet()).containsExactly(EMPTY_ID, "groq-usage-twice", "llamacpp-verbose", "mistral-whole-call", MIXED,
				"vllm-finish-repeats-arguments");
		assertThat(captures.values()).allSatisfy(c -> assertThat(c.tools()).containsExactly("get_weather"));
		String args = "{\"city\": \"Paris\", \"unit\": \"celsius\"}";
		assertThat(captures.get(EMPTY_ID).truth(true, "deny").calls())
				.containsExactly(new Exchange.Call("call_0f1e2d3c4b5a69788796a5b4", "deny_get_weather", args, 0));
		assertThat(captures.get(MIXED).truth(true, "allow").calls()).extracting(Exchange.Call::name, Exchange.Call::index)
				.containsExactly(tuple("allow_get_weather", 0),
						tuple("allow_get_weather", 1));
		Exchange repeat = captures.get("vllm-finish-repeats-arguments").truth(true, "allow");
		assertThat(repeat.calls()).singleElement().satisfies(call -> assertThat(call.arguments()).isEqualTo(args + args));
		assertThat(repeat.violations()).singleElement().asString().contains("arguments sent again whole");
		assertThat(captures.get("mistral-whole-call").truth(true, "allow").usage()).map(u -> u.path("total_tokens").asInt()).contains(121);
		assertThat(captures.get("groq-usage-twice").truth(true, "allow").usage()).map(u -> u.path("total_tokens").asInt()).contains(255);
	}

	@Test
	@DisplayName("the reference gateway passes every captured-wire rule on every shape; what does not apply says why")
	void referenceGatewayPasses() {
		Events tests = run(CapturedWireTests.class);

		SelfTest.assertFailed(tests, Set.of());
		Map<String, Set<String>> passed = new TreeMap<>();
		tests.succeeded().stream().forEach(event -> {
			String label = SelfTest.label(event);
			passed.computeIfAbsent(label.substring(label.indexOf('[') + 1, label.lastIndexOf(' ')), k -> new TreeSet<>())
					.add(label.split(" ")[0] + " " + label.substring(label.lastIndexOf(' ') + 1, label.length() - 1));
		});
		Set<String> toolRules = new TreeSet<>();
		for (String rule : List.of("W02", "W04", "W05", "W07", "W08", "W13", "W19", "W21")) {
			toolRules.add(rule + " stream");
		}
		toolRules.add("W20 stream");
		Set<String> withBodies = new TreeSet<>(toolRules);
		for (String rule : List.of("W02", "W04", "W05", "W07", "W08", "W13", "W19", "W21")) {
			withBodies.add(rule + " non-stream");
		}
		assertThat(passed).as("rule runs that applied and passed, per capture")
				.isEqualTo(Map.of(EMPTY_ID, withBodies,
						"groq-usage-twice", withBodies, VERBOSE, withBodies, "mistral-whole-call",
						union(withBodies, Set.of("W22 stream")), MIXED, toolRules,
						"vllm-finish-repeats-arguments", toolRules));
		assertThat(tests.aborted()
				.stream()
				.map(e -> e.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::getMessage)
						.orElse("?")))
				.hasSize(6 * 2 * 11 - 87)
				.allSatisfy(reason -> assertThat(reason).startsWith("Assumption failed: Not applicable"));
	}

	@Test
	@DisplayName("a gateway that starts a new call on an empty id and lets a call with no name through fails W02, W04, W07, W13,"
			+ " W19 and W21 on both empty-id captures; W13 names subject, expected and observed, no NullPointerException")
	void emptyIdStartsANewCall() {
		Events tests = run(NewCallOnEmptyIdTestCase.class);

		Set<String> expected = new TreeSet<>();
		for (String rule : List.of("W02", "W04", "W07", "W13", "W19", "W21")) {
			expected.addAll(List.of(rule + " [" + EMPTY_ID + " stream]", rule + " [" + MIXED + " stream]"));
		}
		SelfTest.assertFailed(tests, expected);
		assertThat(SelfTest.message(tests, "W13", EMPTY_ID + " stream"))
				.isEqualTo("W13 [vllm stream] on broken: starts a new call on an empty id: expected no call and none of "
						+ "[call_0f1e2d3c4b5a69788796a5b4, deny_get_weather, {\"city\": \"Paris\", \"unit\": \"celsius\"}] ("
						+ EMPTY_ID
						+ " deny), observed [Call[id=null, name=null, arguments={\"city\": \"Paris\", \"unit\": \"celsius\"}, index=0]]");
		assertThat(SelfTest.message(tests, "W02", EMPTY_ID + " stream")).endsWith("observed [allow_get_weather "
				+ "call_0f1e2d3c4b5a69788796a5b4 , null null {\"city\": \"Paris\", \"unit\": \"celsius\"}]");
	}

	@Test
	@DisplayName("the finding: a gateway that starts a new call on an empty id and denies it by default delivers the allowed call's"
			+ " name without its arguments, W02 and W21 on both empty-id captures")
	void emptyIdDropsArguments() {
		Events tests = run(DropsArgumentsOnEmptyIdTestCase.class);

		Set<String> expected = new TreeSet<>();
		for (String rule : List.of("W02", "W21")) {
			expected.addAll(List.of(rule + " [" + EMPTY_ID + " stream]", rule + " [" + MIXED + " stream]"));
		}
		SelfTest.assertFailed(tests, expected);
		assertThat(SelfTest.message(tests, "W02", EMPTY_ID + " stream")).endsWith(
				"(" + EMPTY_ID + " allow), observed [allow_get_weather call_0f1e2d3c4b5a69788796a5b4 ]");
		assertThat(SelfTest.message(tests, "W21", EMPTY_ID + " stream")).contains("expected the captured chunks unchanged ("
				+ EMPTY_ID + " allow), observed ");
	}

	@Test
	@DisplayName("a gateway that forwards llama.cpp's non-stream __verbose beside a denied or transformed call fails W13 and W04:"
			+ " its content carries the call's arguments JSON-escaped, which W13 finds as a client decodes it")
	void verboseLeaksDeniedCall() {
		Events tests = run(ForwardsVerboseTestCase.class);

		SelfTest.assertFailed(tests, Set.of("W13 [" + VERBOSE + " non-stream]", "W04 [" + VERBOSE + " non-stream]"));
		assertThat(SelfTest.message(tests, "W13", VERBOSE + " non-stream"))
				.isEqualTo("W13 [llamacpp non-stream] on broken: forwards __verbose beside a denied call: expected no call and none of "
						+ "[CtHf8h2lzOsIvd2onfNhtjygT2pHNEzk, deny_get_weather, {\"city\":\"Tokyo\",\"unit\":\"c\"}] (" + VERBOSE
						+ " deny), observed [{\"city\":\"Tokyo\",\"unit\":\"c\"}]");
		assertThat(SelfTest.message(tests, "W04", VERBOSE + " non-stream")).endsWith("observed the original arguments in the answer");
	}

	private static Set<String> union(Set<String> a, Set<String> b) {
		Set<String> all = new TreeSet<>(a);
		all.addAll(b);
		return all;
	}

	private static Events run(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.WIRE_CAPTURES, CAPTURES.toString())))
				.execute()
				.testEvents();
	}

	// -------------------------------------------------------------------------

	/** llama.cpp's non-stream answer with {@code __verbose}: its {@code content} is the model's raw text, the call in it. */
	static final String VERBOSE = "llamacpp-verbose";

	/**
	 * Broken: forwards {@code __verbose} on every answer, as the reference gateway did before it dropped it beside a call
	 * it changed (the hop behind it renames the key, so it passes as an unknown key; the hop in front of it renames it
	 * back).
	 */
	static class ForwardsVerboseTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return BrokenGateways.broken("broken: forwards __verbose beside a denied call",
					rewritingBodies(body -> body.replace("\"x_kit_verbose\":", "\"__verbose\":")),
					rewritingBodies(body -> body.replace("\"__verbose\":", "\"x_kit_verbose\":")), upstream, engine);
		}
	}

	/** The id the upstream-side hop gives an empty-id delta, so that the gateway behind it reads a new call there. */
	static final String NEW_CALL = "kit-new-call-on-empty-id";

	/**
	 * Broken: reads a delta with {@code "id":""} as the start of a new call (the hop in front of the reference gateway gives
	 * each such delta an id of its own, the hop behind it puts the empty id back), and decides a call it cannot name by
	 * its default: allow here (the kit's convention leaves other names to the gateway's default, so only the empty-id
	 * reading is wrong).
	 */
	static class NewCallOnEmptyIdTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return newCallOnEmptyId("broken: starts a new call on an empty id", Action.ALLOW, upstream, engine);
		}
	}

	/** The reference gateway before the fix: the same reading, the nameless call denied by the default, as the kit's policy does. */
	static class DropsArgumentsOnEmptyIdTestCase extends CapturedWireVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return newCallOnEmptyId("broken: drops the arguments that came with an empty id", Action.DENY, upstream, engine);
		}
	}

	static GatewayUnderTest newCallOnEmptyId(String what, Action fallback, URI upstream, Dialect engine) {
		Policy policy = Policy.builder()
				.allow("allow_*")
				.deny("deny_*", "POLICY_BLOCK")
				.rule("transform_*", new Decision(Action.TRANSFORM, "transform_*", "transformed by rule transform_*",
						JsonNodeFactory.instance.objectNode().put("redacted", true), List.of()))
				.fallback(new Decision(fallback, "<default>", "no rule matches this tool", null, List.of()))
				.build();
		return BrokenGateways.broken(what, rewritingEvents(event -> event.replace("\"id\":\"" + NEW_CALL + "\"", "\"id\":\"\"")),
				rewritingEvents(event -> event.replace("\"id\":\"\"", "\"id\":\"" + NEW_CALL + "\"")), upstream, engine,
				url -> ReferenceGateway.builder().upstream(url).engine(engine).policy(policy).port(0).build().start());
	}
}
