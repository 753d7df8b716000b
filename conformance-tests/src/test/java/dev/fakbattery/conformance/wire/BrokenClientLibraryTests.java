package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.eachChunk;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingEvents;
import static dev.fakbattery.conformance.wire.BrokenGateways.toolCalls;
import static dev.fakbattery.conformance.wire.SelfTest.assertFailed;
import static dev.fakbattery.conformance.wire.SelfTest.message;
import static dev.fakbattery.conformance.wire.SelfTest.runClients;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.wire.BrokenGateways.BrokenClientsTestCase;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Events;

/**
 * The client rules' self-test: broken gateways (the reference gateway behind a wrong hop, vLLM streams) and which of the
 * real clients notice each, as they were run and recorded here (2026-12-02): a rule fails only for the clients that read
 * the broken answer otherwise than the kit. The reference gateway passes all four ({@code GatewayUnderTestClientTests}).
 * The JavaScript clients need {@code node} and the build's {@code npm ci}; without them (or with
 * {@code -Dkit.node.clients=off}) C02..C04 skip, naming why, and LangChain4j's C01, which runs in the JVM, is still
 * judged; {@code withoutNode} proves that on every machine.
 */
@Tag("wire")
@DisplayName("client rules self-test: broken gateways each real client notices")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class BrokenClientLibraryTests {

	private static final String ALL = "C01 C02 C03 C04";

	/** Why the JavaScript clients cannot run here (C02..C04 then skip, naming it; C01 runs in the JVM); empty when they can. */
	private static final Optional<String> NODE_MISSING = SelfTest.nodeMissing();

	@Test
	@DisplayName("sends an SSE event of its own whose data is not JSON (event: ping, data: keep-alive): every client fails")
	void pingEvent() {
		Events tests = runClients(PingEventTestCase.class);
		assertFailed(tests, failing(ALL));
		assertThat(message(tests, "C01", "vllm stream")).startsWith("C01 [vllm stream]: 9 failing cases\n")
				.contains("  - C01 [vllm stream] on broken: sends event: ping: expected " + LangChain4jReader.CLIENT
						+ " to read kit:text as the kit did: [The capital of France is Paris., [], STOP, no usage]",
						"to read kit:reasoning as the kit did")
				.contains("observed it threw RuntimeException: com.fasterxml.jackson.core.JsonParseException: Unrecognized token 'keep'");
		if (nodeSkipped(tests)) {
			return;
		}
		assertThat(message(tests, "C02", "vllm stream"))
				.contains("observed it threw OpenAIError: Unexpected token 'k', \"keep-alive\" is not valid JSON");
		assertThat(message(tests, "C03", "vllm stream"))
				.contains("observed it threw JSONParseError: JSON parsing failed: Text: keep-alive.");
		assertThat(message(tests, "C04", "vllm stream"))
				.contains("observed it threw SyntaxError: Unexpected token 'k', \"keep-alive\" is not valid JSON");
	}

	@Test
	@DisplayName("sends an SSE event of its own whose data is JSON but no chunk (the old adjudication record): the OpenAI Node SDK and the Vercel AI SDK fail")
	void ownEvent() {
		Events tests = runClients(OwnEventTestCase.class);
		assertFailed(tests, failing("C02 C03"));
		if (nodeSkipped(tests)) {
			return;
		}
		assertThat(message(tests, "C02", "vllm stream")).endsWith("observed it threw OpenAIError: chunk.choices is not iterable");
		assertThat(message(tests, "C03", "vllm stream"))
				.contains("observed it threw _TypeValidationError: Type validation failed: Value: {\"calls\":[]}.");
	}

	@Test
	@DisplayName("re-emits usage chunks with \"usage\": null (per-chunk usage on tool chunks, the usage chunk's) and drops [DONE]: the OpenAI Node SDK fails on the usage it keeps null; no client notices the rest (W20, W22 do)")
	void nullsUsageDropsDone() {
		Events tests = runClients(NullsUsageDropsDoneTestCase.class);
		assertFailed(tests, failing("C02"));
		if (nodeSkipped(tests)) {
			return;
		}
		// the answers before kit:continuous-usage (text, tool calls) it read as the kit did, without [DONE]
		assertThat(message(tests, "C02", "vllm stream")).contains("to read kit:continuous-usage as the kit did: ")
				.contains(", tool_calls, 36], observed it read [")
				.endsWith(", tool_calls, no usage]");
	}

	@Test
	@DisplayName("drops index from continuation tool-call deltas: the kit cannot read it; the OpenAI Node SDK loses the arguments, LangChain.js makes each fragment a call")
	void missingIndex() {
		Events tests = runClients(MissingIndexTestCase.class);
		assertFailed(tests, failing(ALL));
		// LangChain4j (and the Vercel AI SDK) assemble the call right: they do not notice
		assertThat(message(tests, "C01", "vllm stream"))
				.endsWith("[allow_read chatcmpl-tool-9a3f61d2c8e04b7a {\"path\": \"/etc/hosts\"}], TOOL_EXECUTION, 27]");
		if (nodeSkipped(tests)) {
			return;
		}
		String kitCannot = "expected an answer to kit:allow the kit can read, observed the kit cannot (streamed tool_calls[] delta without 'index'";
		assertThat(message(tests, "C02", "vllm stream")).contains(kitCannot)
				.endsWith("read [, [allow_read chatcmpl-tool-9a3f61d2c8e04b7a ], tool_calls, 27]");
		assertThat(message(tests, "C04", "vllm stream")).contains(kitCannot)
				.contains("read [, [allow_read chatcmpl-tool-9a3f61d2c8e04b7a {},  null {\",  null path,");
		assertThat(message(tests, "C03", "vllm stream"))
				.endsWith("[allow_read chatcmpl-tool-9a3f61d2c8e04b7a {\"path\":\"/etc/hosts\"}], tool_calls, 27]");
	}

	@Test
	@DisplayName("sends [DONE] twice: no client notices (W20 does)")
	void doneTwiceTolerated() {
		Events tests = runClients(DoneTwiceTestCase.class);
		assertFailed(tests, Set.of());
		nodeSkipped(tests);
	}

	@Test
	@DisplayName("without node (kit.node.clients=off): LangChain4j, in the JVM, still judges and fails the ping event; C02..C04 skip, naming the key")
	void withoutNode() {
		Events tests = runClients(PingEventTestCase.class, "off");
		assertFailed(tests, Set.of("C01 [vllm stream]"));
		assertThat(message(tests, "C01", "vllm stream")).contains("Unrecognized token 'keep'");
		assertThat(skipped(tests)).containsOnlyKeys("C02 [vllm stream]", "C03 [vllm stream]", "C04 [vllm stream]")
				.allSatisfy((rule, reason) -> assertThat(reason).endsWith("not run: Not configured: kit.node.clients=off"));
	}

	/** {@code ids} failing on vLLM streams, as labels; without node, only C01's. */
	private static Set<String> failing(String ids) {
		return Arrays.stream(ids.split(" "))
				.filter(id -> NODE_MISSING.isEmpty() || id.equals("C01"))
				.map(id -> id + " [vllm stream]")
				.collect(Collectors.toSet());
	}

	/**
	 * Whether the JavaScript clients could not run here; then asserts C02..C04 each skipped naming why (node, or the
	 * key that turned them off), and nothing else skipped.
	 */
	private static boolean nodeSkipped(Events tests) {
		if (NODE_MISSING.isEmpty()) {
			assertThat(skipped(tests)).as("skipped with node present").isEmpty();
			return false;
		}
		assertThat(skipped(tests)).containsOnlyKeys("C02 [vllm stream]", "C03 [vllm stream]", "C04 [vllm stream]")
				.allSatisfy((rule, reason) -> assertThat(reason).endsWith(rule.substring(0, 3) + " not run: " + NODE_MISSING.get()));
		return true;
	}

	/**
	 * The rule runs that ended PENDING_MEASUREMENT (a client that cannot run here measured nothing: aborted where pending
	 * is allowed, failed with the PENDING_MEASUREMENT prefix where it is not), as labels, with the reason.
	 */
	private static Map<String, String> skipped(Events tests) {
		Map<String, String> skipped = new TreeMap<>();
		tests.finished()
				.stream()
				.filter(e -> e.getPayload(TestExecutionResult.class).map(RuleOutcome::of).orElseThrow() == RuleOutcome.PENDING_MEASUREMENT)
				.forEach(e -> skipped.put(SelfTest.label(e),
						RuleOutcome.message(e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable))));
		return skipped;
	}

	// -------------------------------------------------------------------------

	static class PingEventTestCase extends BrokenClientsTestCase {
		PingEventTestCase() {
			super("broken: sends event: ping", rewritingEvents(e -> e.equals("data: [DONE]") ? "event: ping\ndata: keep-alive\n\n" + e : e),
					FAITHFUL);
		}
	}

	static class OwnEventTestCase extends BrokenClientsTestCase {
		OwnEventTestCase() {
			super("broken: sends its own event",
					rewritingEvents(e -> e.equals("data: [DONE]") ? "event: adjudication\ndata: {\"calls\":[]}\n\n" + e : e), FAITHFUL);
		}
	}

	static class NullsUsageDropsDoneTestCase extends BrokenClientsTestCase {
		NullsUsageDropsDoneTestCase() {
			super("broken: nulls re-emitted usage, drops [DONE]", rewritingEvents(e -> e.equals("data: [DONE]")
					? null
					: e.contains("\"choices\":[]") || e.contains("\"tool_calls\":[") ? eachChunk(e, chunk -> {
						if (chunk.has("usage")) {
							chunk.putNull("usage");
						}
						return chunk;
					}) : e), FAITHFUL);
		}
	}

	static class MissingIndexTestCase extends BrokenClientsTestCase {
		MissingIndexTestCase() {
			super("broken: drops index from continuation deltas", rewritingEvents(e -> eachChunk(e, chunk -> {
				for (JsonNode call : toolCalls(chunk)) {
					if (!call.hasNonNull("id")) {
						((ObjectNode) call).remove("index");
					}
				}
				return chunk;
			})), FAITHFUL);
		}
	}

	static class DoneTwiceTestCase extends BrokenClientsTestCase {
		DoneTwiceTestCase() {
			super("broken: sends [DONE] twice", rewritingEvents(e -> e.equals("data: [DONE]") ? e + "\n\n" + e : e), FAITHFUL);
		}
	}
}
