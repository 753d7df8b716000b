package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.gateway.policy.Decision;
import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.WireFormatException;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("stream adjudicator: the wire quirks of NOTES.md")
class StreamAdjudicatorTests {

	private final AdjudicationRecord record = new AdjudicationRecord();

	private StreamAdjudicator adjudicator(Policy policy) {
		return new StreamAdjudicator(new CallAdjudicator(policy, record, new GatewayMetrics()));
	}

	private static List<String> feed(StreamAdjudicator adjudicator, String... choices) {
		List<String> out = new ArrayList<>();
		for (String choice : choices) {
			String chunk = "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + choice + "]}";
			out.addAll(adjudicator.onChunk(Sse.events("data: " + chunk + "\n\n").getFirst()));
		}
		return out;
	}

	private static String frames(List<String> data) {
		return StreamFailureTests.frames(data);
	}

	private static String tool(int choice, String call, String finish) {
		return "{\"index\":" + choice + ",\"delta\":{\"tool_calls\":[" + call + "]},\"finish_reason\":" + finish + "}";
	}

	private static String finish(int choice, String reason) {
		return "{\"index\":" + choice + ",\"delta\":{},\"finish_reason\":\"" + reason + "\"}";
	}

	@Test
	@DisplayName("early-2025 SGLang: every call at index 0 with ids \"0\", \"1\"; survivors renumbered 0..n-1")
	void sameIndexDifferentIds() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"0\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"allow_a\",\"arguments\":\"{}\"}}",
						"null"),
				tool(0, "{\"id\":\"1\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"deny_b\",\"arguments\":\"{}\"}}", "null"),
				tool(0, "{\"id\":\"2\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"allow_c\",\"arguments\":\"{\\\"x\\\":1}\"}}",
						"null"),
				finish(0, "tool_calls"));

		List<AssembledToolCall> calls = Sse.calls(frames(out));
		assertThat(calls).extracting(AssembledToolCall::index).containsExactly(0, 1);
		assertThat(calls).extracting(call -> call.name().orElseThrow()).containsExactly("allow_a", "allow_c");
		assertThat(calls.get(1).arguments()).isEqualTo("{\"x\":1}");
		assertThat(String.join("", out)).doesNotContain("deny_b");
		assertThat(out.getLast())
				.isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + finish(0, "tool_calls") + "]}");
	}

	@Test
	@DisplayName("vLLM <= 0.11: the last arguments flush rides the finish chunk; an allowed call streams through, every chunk as sent")
	void flushInFinishChunk() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\"}}", "null"),
				tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{\\\"p\\\": 1\"}}", "null"),
				tool(0, "{\"index\":0,\"function\":{\"arguments\":\"}\"}}", "\"tool_calls\""));

		assertThat(out).containsExactly(
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
						+ tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\"}}", "null")
						+ "]}",
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
						+ tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{\\\"p\\\": 1\"}}", "null") + "]}",
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
						+ tool(0, "{\"index\":0,\"function\":{\"arguments\":\"}\"}}", "\"tool_calls\"") + "]}");
	}

	@Test
	@DisplayName("DashScope: \"id\":\"\" on every argument fragment continues the call; an allowed call goes out whole, chunk for"
			+ " chunk, a denied one not at all, a transform once, rewritten")
	void emptyIdContinuesTheCall() {
		String[] chunks = {
			tool(0, "{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"NAME\",\"arguments\":\"\"}}",
					"null"),
			tool(0, "{\"index\":0,\"id\":\"\",\"type\":\"function\",\"function\":{\"arguments\":\"{\\\"p\\\": \"}}", "null"),
			tool(0, "{\"index\":0,\"id\":\"\",\"type\":\"function\",\"function\":{\"arguments\":\"1}\"}}", "null"),
			finish(0, "tool_calls") };

		List<String> allowed = feed(adjudicator(PolicyLoader.kitConvention()), named(chunks, "allow_read"));
		List<String> denied = feed(adjudicator(PolicyLoader.kitConvention()), named(chunks, "deny_write"));
		List<String> transformed = feed(adjudicator(PolicyLoader.kitConvention()), named(chunks, "transform_exec"));

		assertThat(allowed).containsExactlyElementsOf(
				java.util.Arrays.stream(named(chunks, "allow_read"))
						.map(c -> "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + c + "]}")
						.toList());
		assertThat(denied).containsExactly("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + finish(0, "stop") + "]}");
		assertThat(Sse.calls(frames(transformed))).singleElement().satisfies(call -> {
			assertThat(call.name()).contains("transform_exec");
			assertThat(call.arguments()).isEqualTo("{\"redacted\":true}");
		});
	}

	@Test
	@DisplayName("a finish chunk repeating an allowed call's whole arguments (id, type, name null) goes out as sent, one call")
	void finishRepeatsArguments() {
		String header = tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\"}}", "null");
		String args = tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{\\\"p\\\": 1}\"}}", "null");
		String repeat = tool(0,
				"{\"id\":null,\"type\":null,\"index\":0,\"function\":{\"name\":null,\"arguments\":\"{\\\"p\\\": 1}\"}}", "\"tool_calls\"");
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()), header, args, repeat);

		assertThat(out).hasSize(3).last().isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + repeat + "]}");
		assertThat(Sse.calls(frames(out))).singleElement()
				.satisfies(call -> assertThat(call.arguments()).isEqualTo("{\"p\": 1}{\"p\": 1}"));
	}

	private static String[] named(String[] chunks, String name) {
		return java.util.Arrays.stream(chunks).map(c -> c.replace("NAME", name)).toArray(String[]::new);
	}

	@Test
	@DisplayName("a transform's last arguments flush in the finish chunk: the call goes out rewritten before the finish")
	void transformFlushInFinishChunk() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\"}}", "null"),
				tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{\\\"cmd\\\": 1\"}}", "null"),
				tool(0, "{\"index\":0,\"function\":{\"arguments\":\"}\"}}", "\"tool_calls\""));

		assertThat(out).containsExactly(
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
						+ tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\"}}", "null")
						+ "]}",
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
						+ tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{\\\"redacted\\\":true}\"}}", "null") + "]}",
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + finish(0, "tool_calls") + "]}");
	}

	@Test
	@DisplayName("an allowed call after a held transform waits for it, so survivors keep their order; a denied one in between is dropped")
	void allowedWaitsBehindHeldTransform() {
		StreamAdjudicator adjudicator = adjudicator(PolicyLoader.kitConvention());
		List<String> out = feed(adjudicator,
				tool(0, "{\"id\":\"t\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{}\"}}",
						"null"),
				tool(0, "{\"id\":\"d\",\"type\":\"function\",\"index\":1,\"function\":{\"name\":\"deny_write\",\"arguments\":\"{}\"}}",
						"null"),
				tool(0, "{\"id\":\"a\",\"type\":\"function\",\"index\":2,\"function\":{\"name\":\"allow_read\",\"arguments\":\"{\\\"p\\\":\"}}",
						"null"),
				tool(0, "{\"index\":2,\"function\":{\"arguments\":\"1}\"}}", "null"),
				finish(0, "tool_calls"));

		List<AssembledToolCall> calls = Sse.calls(frames(out));
		assertThat(calls).extracting(call -> call.name().orElseThrow() + "@" + call.index() + " " + call.arguments())
				.containsExactly("transform_exec@0 {\"redacted\":true}", "allow_read@1 {\"p\":1}");
		assertThat(String.join("", out)).doesNotContain("deny_write");
		assertThat(out.get(2)).isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":["
				+ tool(0, "{\"index\":1,\"function\":{\"arguments\":\"1}\"}}", "null") + "]}");
	}

	@Test
	@DisplayName("interleaved deltas of parallel allowed calls stream through as they come; a transform among them is released at the finish")
	void interleavedParallelCalls() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"a\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\",\"arguments\":\"{\\\"p\\\":\"}}",
						"null"),
				tool(0, "{\"id\":\"b\",\"type\":\"function\",\"index\":1,\"function\":{\"name\":\"allow_list\",\"arguments\":\"{\\\"d\\\":\"}}",
						"null"),
				tool(0, "{\"index\":0,\"function\":{\"arguments\":\"1}\"}}", "null"),
				tool(0, "{\"index\":1,\"function\":{\"arguments\":\"2}\"}}", "null"),
				finish(0, "tool_calls"));

		assertThat(out).hasSize(5);
		List<AssembledToolCall> calls = Sse.calls(frames(out));
		assertThat(calls).extracting(call -> call.name().orElseThrow() + "@" + call.index() + " " + call.arguments())
				.containsExactly("allow_read@0 {\"p\":1}", "allow_list@1 {\"d\":2}");
		assertThat(Sse.assembled(frames(out)).violations()).isEmpty();
	}

	@Test
	@DisplayName("a call released mid-chunk waits for the live deltas before it: survivors first appear in index order")
	void releasedMidChunkKeepsIndexOrder() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"a\",\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"transform_a\",\"arguments\":\"{}\"}}",
						"null"),
				tool(0, "{\"id\":\"b\",\"index\":1,\"type\":\"function\",\"function\":{\"name\":\"allow_b\",\"arguments\":\"{}\"}},"
						+ "{\"id\":\"c\",\"index\":2,\"type\":\"function\",\"function\":{\"name\":\"transform_c\",\"arguments\":\"{}\"}},"
						+ "{\"id\":\"d\",\"index\":3,\"type\":\"function\",\"function\":{\"name\":\"allow_d\",\"arguments\":\"{}\"}}",
						"null"),
				finish(0, "tool_calls"));

		List<AssembledToolCall> calls = Sse.calls(frames(out));
		assertThat(calls).extracting(call -> call.id().orElseThrow()).containsExactly("a", "b", "c", "d");
		assertThat(calls).extracting(AssembledToolCall::index).containsExactly(0, 1, 2, 3);
	}

	@Test
	@DisplayName("vLLM hermes 2026: two deltas with the same index in one chunk go out together in one chunk")
	void twoDeltasOneChunk() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\"}},{\"index\":0,\"function\":{\"arguments\":\"{}\"}}",
						"null"),
				finish(0, "tool_calls"));

		assertThat(out.getFirst()).isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + tool(0,
				"{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\"}},{\"index\":0,\"function\":{\"arguments\":\"{}\"}}",
				"null") + "]}");
		assertThat(out).hasSize(2);
	}

	@Test
	@DisplayName("content sharing a chunk with a held (transformed) delta goes out at once; the delta is held")
	void contentSplitFromHeldDelta() {
		StreamAdjudicator adjudicator = adjudicator(PolicyLoader.kitConvention());
		List<String> first = feed(adjudicator,
				"{\"index\":0,\"delta\":{\"content\":\"Looking.\",\"tool_calls\":[{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}");

		assertThat(first).containsExactly(
				"{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Looking.\"},\"finish_reason\":null}]}");
		assertThat(adjudicator.heldCalls()).isEqualTo(1);
		List<String> rest = feed(adjudicator, finish(0, "tool_calls"));
		assertThat(rest.getFirst())
				.isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":null,"
						+ "\"tool_calls\":[{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{\\\"redacted\\\":true}\"}}]},\"finish_reason\":null}]}");
	}

	@Test
	@DisplayName("a transform of a call streamed in one delta is one delta; its logprobs are nulled")
	void transformSingleDelta() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				"{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{\\\"cmd\\\":\\\"rm\\\"}\"}}]},\"logprobs\":{\"content\":[{\"token\":\"rm\"}]},\"finish_reason\":null}",
				finish(0, "tool_calls"));

		assertThat(out.getFirst())
				.isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":["
						+ "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{\\\"redacted\\\":true}\"}}]},"
						+ "\"logprobs\":null,\"finish_reason\":null}]}");
	}

	@Test
	@DisplayName("continuous_usage_stats: a released (held) call keeps the per-chunk usage of the chunks that carried it")
	void heldChunksKeepTheirUsage() {
		StreamAdjudicator adjudicator = adjudicator(PolicyLoader.kitConvention());
		List<String> out = new ArrayList<>();
		for (String chunk : List.of(
				"{\"id\":\"c\",\"choices\":["
						+ tool(0, "{\"id\":\"t\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\"}}", "null")
						+ "],\"usage\":{\"completion_tokens\":1}}",
				"{\"id\":\"c\",\"choices\":[" + tool(0, "{\"index\":0,\"function\":{\"arguments\":\"{}\"}}", "null")
						+ "],\"usage\":{\"completion_tokens\":2}}",
				"{\"id\":\"c\",\"choices\":[" + finish(0, "tool_calls") + "],\"usage\":{\"completion_tokens\":3}}")) {
			out.addAll(adjudicator.onChunk(Sse.events("data: " + chunk + "\n\n").getFirst()));
		}

		assertThat(out).extracting(data -> WireJson.readObject(data).at("/usage/completion_tokens").asInt()).containsExactly(1, 2, 3);
	}

	@Test
	@DisplayName("a transform that cannot apply fails closed: the call is denied and the record says why")
	void transformFailureDenies() {
		Policy policy = Policy.builder()
				.rule("fetch_*",
						new Decision(Action.TRANSFORM, "fetch_*", "redact headers", null, List.of(JsonPointer.compile("/headers"))))
				.build();
		List<String> out = feed(adjudicator(policy),
				tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"fetch_url\",\"arguments\":\"not json\"}}",
						"null"),
				finish(0, "tool_calls"));

		assertThat(out).containsExactly("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + finish(0, "stop") + "]}");
		ObjectNode call = (ObjectNode) record.toJson().at("/calls/0");
		assertThat(call.get("action").textValue()).isEqualTo("DENY");
		assertThat(call.get("reason").textValue()).startsWith("transform failed, denied: arguments are not JSON, cannot redact: ");
	}

	@Test
	@DisplayName("two choices are adjudicated apart: each gets its own dense indexes and its own finish")
	void choicesApart() {
		List<String> out = feed(adjudicator(PolicyLoader.kitConvention()),
				tool(0, "{\"id\":\"a\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"allow_read\",\"arguments\":\"{}\"}}",
						"null")
						+ ","
						+ tool(1,
								"{\"id\":\"b\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"deny_write\",\"arguments\":\"{}\"}}",
								"null"),
				finish(0, "tool_calls") + "," + finish(1, "tool_calls"));

		assertThat(out.getLast()).isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[" + finish(0, "tool_calls")
				+ "," + finish(1, "stop") + "]}");
		assertThat(Sse.calls(frames(out))).singleElement().satisfies(call -> assertThat(call.choiceIndex()).isZero());
	}

	@Test
	@DisplayName("a held call that never completes is never released; a delta without index is a wire error")
	void neverReleasedAndMissingIndex() {
		StreamAdjudicator adjudicator = adjudicator(PolicyLoader.kitConvention());
		assertThat(feed(adjudicator,
				tool(0, "{\"id\":\"t1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"transform_exec\",\"arguments\":\"{\"}}",
						"null")))
				.isEmpty();
		assertThat(adjudicator.heldCalls()).isEqualTo(1);
		assertThatThrownBy(() -> feed(adjudicator, tool(0, "{\"function\":{\"arguments\":\"x\"}}", "null")))
				.isInstanceOf(WireFormatException.class)
				.hasMessage("streamed tool_calls[] delta without 'index' in choice 0: {\"function\":{\"arguments\":\"x\"}}");
	}
}
