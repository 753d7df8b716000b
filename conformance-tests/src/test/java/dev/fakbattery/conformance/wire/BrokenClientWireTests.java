package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.eachChunk;
import static dev.fakbattery.conformance.wire.BrokenGateways.requests;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewriting;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingBodies;
import static dev.fakbattery.conformance.wire.BrokenGateways.rewritingEvents;
import static dev.fakbattery.conformance.wire.BrokenGateways.toolCalls;
import static dev.fakbattery.conformance.wire.SelfTest.BOTH;
import static dev.fakbattery.conformance.wire.SelfTest.NON_STREAM;
import static dev.fakbattery.conformance.wire.SelfTest.STREAM;
import static dev.fakbattery.conformance.wire.SelfTest.assertFailed;
import static dev.fakbattery.conformance.wire.SelfTest.expand;
import static dev.fakbattery.conformance.wire.SelfTest.message;
import static dev.fakbattery.conformance.wire.SelfTest.run;
import static dev.fakbattery.conformance.wire.SelfTest.union;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.wire.BrokenGateways.BrokenTestCase;
import dev.fakbattery.engine.hop.RelayHop;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit's self-test for the rules real clients and real wires brought (W19 to W25, W27, W28, and the stricter W09 and
 * W13): each broken gateway fails exactly the rules it breaks, with the rule's message. The timing rules are
 * {@link BrokenTimingWireTests}'.
 */
@Tag("wire")
@DisplayName("wire conformance kit self-test: broken gateways real clients would notice")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class BrokenClientWireTests {

	@Test
	@DisplayName("sends its own SSE event (the old adjudication record) before [DONE]")
	void sendsOwnEvent() {
		Events tests = run(SendsOwnEventTestCase.class);
		assertFailed(tests, expand(List.of("W19", "W20"), STREAM));
		assertThat(message(tests, "W19", "vllm stream")).as("every answer the SDK misread, each a case")
				.startsWith("W19 [vllm stream]: 9 failing cases\n")
				.contains(
						"  - W19 [vllm stream] on broken: sends its own event: expected " + SdkReader.SDK
								+ " to read kit:text as the kit did: ",
						"to read kit:reasoning as the kit did: ")
				.endsWith("observed it threw IllegalStateException: Already accumulated the final chunk(s).");
		assertThat(message(tests, "W20", "sglang stream")).endsWith("observed [event: adjudication data: {\"calls\":[]}]");
	}

	@Test
	@DisplayName("sends [DONE] twice")
	void doneTwice() {
		Events tests = run(DoneTwiceTestCase.class);
		assertFailed(tests, expand(List.of("W20"), STREAM));
		assertThat(message(tests, "W20", "vllm stream")).contains("observed [2 [DONE], last event [DONE]]");
	}

	@Test
	@DisplayName("nulls per-chunk usage on re-emitted tool chunks")
	void nullsChunkUsage() {
		Events tests = run(NullsChunkUsageTestCase.class);
		assertFailed(tests, expand(List.of("W22"), STREAM));
		assertThat(message(tests, "W22", "sglang stream"))
				.contains("expected every chunk with one of the upstream's usage objects, in order, observed ");
	}

	@Test
	@DisplayName("repeats the first tool call under another index")
	void duplicatesFirstCall() {
		Events tests = run(DuplicatesFirstCallTestCase.class);
		assertFailed(tests, union(expand(List.of("W06", "W23"), BOTH), expand(List.of("W21"), BOTH)));
		assertThat(message(tests, "W23", "vllm non-stream"))
				.startsWith("W23 [vllm non-stream]: 6 failing cases\n")
				.contains("  - W23 [vllm non-stream] on broken: repeats the first call: expected calls "
						+ "[allow_read chatcmpl-tool-9a3f61d2c8e04b7a] (kit:allow), observed [allow_read chatcmpl-tool-9a3f61d2c8e04b7a, allow_read chatcmpl-tool-9a3f61d2c8e04b7a]");
	}

	@Test
	@DisplayName("leaks a denied call's arguments into the content")
	void leaksDeniedArguments() {
		Events tests = run(LeaksDeniedArgumentsTestCase.class);
		assertFailed(tests, expand(List.of("W05", "W13"), BOTH));
		assertThat(message(tests, "W13", "sglang stream")).endsWith("(kit:interleaved), observed [KITDENYTOKEN4e1f]");
	}

	@Test
	@DisplayName("decodes \\uXXXX escapes in streamed arguments")
	void decodesEscapes() {
		Events tests = run(DecodesEscapesTestCase.class);
		assertFailed(tests, expand(List.of("W24"), STREAM));
		assertThat(message(tests, "W24", "sglang stream")).contains("characters of arguments byte-identical, observed ")
				.contains("first difference at ");
	}

	@Test
	@DisplayName("cuts strings longer than 32 KiB in whole bodies")
	void capsLongStrings() {
		Events tests = run(CapsLongStringsTestCase.class);
		assertFailed(tests, expand(List.of("W24"), NON_STREAM));
	}

	@Test
	@DisplayName("turns finish_reason length into stop")
	void lengthToStop() {
		Events tests = run(LengthToStopTestCase.class);
		assertFailed(tests, expand(List.of("W25"), BOTH));
		assertThat(message(tests, "W25", "vllm stream"))
				.endsWith(", length], observed [" + "The user asks for the capital. France's capital is Paris."
						+ ", The capital of France is, stop]");
	}

	@Test
	@DisplayName("drops stream_options on the way to the engine")
	void dropsStreamOptions() {
		Events tests = run(DropsStreamOptionsTestCase.class);
		assertFailed(tests, expand(List.of("W27"), STREAM));
		assertThat(message(tests, "W27", "vllm stream")).endsWith("observed [stream_options null]");
	}

	@Test
	@DisplayName("re-serialises requests through OpenAI's schema: the engine-specific parameters never reach the engine")
	void dropsEngineParameters() {
		Events tests = run(DropsEngineParametersTestCase.class);
		assertFailed(tests, expand(List.of("W28"), BOTH));
		assertThat(message(tests, "W28", "vllm stream")).endsWith(
				"observed [top_k null, min_p null, repetition_penalty null, chat_template_kwargs null, structured_outputs null]");
		assertThat(message(tests, "W28", "sglang non-stream"))
				.endsWith("observed [top_k null, min_p null, repetition_penalty null, chat_template_kwargs null]");
	}

	@Test
	@DisplayName("drops Retry-After from a 429")
	void dropsRetryAfter() {
		Events tests = run(DropsRetryAfterTestCase.class);
		assertFailed(tests, expand(List.of("W09"), BOTH));
		assertThat(message(tests, "W09", "sglang stream")).endsWith("expected Retry-After: 7 with the 429, observed no Retry-After");
	}

	// -------------------------------------------------------------------------

	static class SendsOwnEventTestCase extends BrokenTestCase {
		SendsOwnEventTestCase() {
			super("broken: sends its own event",
					rewritingEvents(e -> e.equals("data: [DONE]") ? "event: adjudication\ndata: {\"calls\":[]}\n\n" + e : e),
					FAITHFUL);
		}
	}

	static class DoneTwiceTestCase extends BrokenTestCase {
		DoneTwiceTestCase() {
			super("broken: sends [DONE] twice", rewritingEvents(e -> e.equals("data: [DONE]") ? e + "\n\n" + e : e), FAITHFUL);
		}
	}

	static class NullsChunkUsageTestCase extends BrokenTestCase {
		NullsChunkUsageTestCase() {
			super("broken: nulls usage on tool chunks", rewritingEvents(e -> e.contains("\"tool_calls\":[") ? eachChunk(e, chunk -> {
				if (chunk.hasNonNull("usage")) {
					chunk.putNull("usage");
				}
				return chunk;
			}) : e), FAITHFUL);
		}
	}

	static class DuplicatesFirstCallTestCase extends BrokenTestCase {
		DuplicatesFirstCallTestCase() {
			super("broken: repeats the first call", new RelayHop.Mangle() {
				@Override
				public String event(String event) {
					String again = eachChunk(event, chunk -> {
						for (JsonNode call : toolCalls(chunk)) {
							((ObjectNode) call).put("index", call.path("index").asInt() + 7);
						}
						return chunk;
					});
					return event.contains("\"index\":0,\"function\":{\"name\"")
							|| event.contains("\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"")
									&& !event.contains("\"name\":null") ? event + "\n\n" + again : event;
				}

				@Override
				public String body(String body) {
					ObjectNode json = WireJson.read(body).filter(JsonNode::isObject).map(ObjectNode.class::cast).orElse(null);
					if (json == null || !json.path("choices").path(0).path("message").path("tool_calls").isArray()) {
						return body;
					}
					ArrayNode calls = (ArrayNode) json.path("choices").path(0).path("message").path("tool_calls");
					if (!calls.isEmpty()) {
						calls.add(calls.get(0).deepCopy());
					}
					return WireJson.write(json);
				}
			}, FAITHFUL);
		}
	}

	static class LeaksDeniedArgumentsTestCase extends BrokenTestCase {
		LeaksDeniedArgumentsTestCase() {
			super("broken: leaks denied arguments", FAITHFUL, rewriting(text -> !text.contains("KITDENYTOKEN4e1f")
					? text
					: eachChunk(text.startsWith("data: ") ? text : "data: " + text, json -> {
						json.path("choices").forEach(choice -> {
							ObjectNode message = (ObjectNode) (choice.has("delta") ? choice.get("delta") : choice.get("message"));
							message.put("content", message.path("content").asText("") + "KITDENYTOKEN4e1f");
						});
						return json;
					}).substring(text.startsWith("data: ") ? 0 : "data: ".length())));
		}
	}

	static class DecodesEscapesTestCase extends BrokenTestCase {
		private static final Pattern LATIN = Pattern.compile("\\\\\\\\u00([a-f][0-9a-f])");

		DecodesEscapesTestCase() {
			super("broken: decodes escapes", rewritingEvents(e -> {
				Matcher m = LATIN.matcher(e);
				return m.replaceAll(r -> Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(r.group(1), 16))));
			}), FAITHFUL);
		}
	}

	static class CapsLongStringsTestCase extends BrokenTestCase {
		CapsLongStringsTestCase() {
			super("broken: cuts long strings", rewritingBodies(body -> WireJson.read(body)
					.map(json -> WireJson.write(BrokenGateways.capStrings(json, 32 * 1024)))
					.orElse(body)), FAITHFUL);
		}
	}

	static class LengthToStopTestCase extends BrokenTestCase {
		LengthToStopTestCase() {
			super("broken: rewrites length to stop",
					rewriting(text -> text.replace("\"finish_reason\":\"length\"", "\"finish_reason\":\"stop\"")),
					FAITHFUL);
		}
	}

	static class DropsStreamOptionsTestCase extends BrokenTestCase {
		DropsStreamOptionsTestCase() {
			super("broken: drops stream_options", FAITHFUL, requests(body -> WireJson.read(body)
					.filter(JsonNode::isObject)
					.map(json -> WireJson.write(((ObjectNode) json).without("stream_options")))
					.orElse(body)));
		}
	}

	static class DropsEngineParametersTestCase extends BrokenTestCase {
		DropsEngineParametersTestCase() {
			super("broken: keeps only OpenAI's request parameters", FAITHFUL, requests(body -> WireJson.read(body)
					.filter(JsonNode::isObject)
					.map(json -> WireJson.write(((ObjectNode) json).without(
							List.of("top_k", "min_p", "repetition_penalty", "chat_template_kwargs", "structured_outputs"))))
					.orElse(body)));
		}
	}

	static class DropsRetryAfterTestCase extends BrokenTestCase {
		DropsRetryAfterTestCase() {
			super("broken: drops Retry-After", new RelayHop.Mangle() {
				@Override
				public boolean returns(String header) {
					return !header.equalsIgnoreCase("Retry-After");
				}
			}, FAITHFUL);
		}
	}
}
