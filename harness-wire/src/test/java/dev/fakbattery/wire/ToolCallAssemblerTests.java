package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("ToolCallAssembler")
class ToolCallAssemblerTests {

	private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	static Stream<Arguments> streamsWithTheirBodies() {
		List<Arguments> pairs = new ArrayList<>();
		for (String engine : List.of("vllm", "sglang")) {
			for (String name : List.of("chat-tool-call", "chat-tool-call-parallel")) {
				pairs.add(Arguments.of(engine + "/" + name + ".sse", engine + "/" + name + ".json"));
			}
			for (String name : List.of("tool-call-allow", "tool-call-mixed", "tool-call-deny-only")) {
				pairs.add(Arguments.of("kit/" + engine + "/" + name + ".sse", "kit/" + engine + "/" + name + ".json"));
			}
		}
		return pairs.stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("streamsWithTheirBodies")
	@DisplayName("a fixture stream assembles to the tool calls of its non-stream body")
	void streamMatchesBody(String stream, String body) {
		ToolCallAssembler assembler = assemble(WireFixtures.chunks(stream));
		List<ToolCall> expected = ChatResponse.parse(WireFixtures.read(body)).choices().get(0).message().toolCalls();

		List<AssembledToolCall> calls = assembler.calls();
		assertThat(calls).hasSameSizeAs(expected);
		for (int i = 0; i < calls.size(); i++) {
			AssembledToolCall call = calls.get(i);
			assertThat(call.index()).isEqualTo(i);
			assertThat(call.id()).isEqualTo(expected.get(i).id());
			assertThat(call.type()).contains("function");
			assertThat(call.name()).isEqualTo(expected.get(i).name());
			assertThat(call.arguments()).isEqualTo(expected.get(i).arguments().orElseThrow());
			assertThat(call.argumentsValidJson()).isTrue();
			assertThat(call.isComplete()).isTrue();
		}
		assertThat(assembler.finishReason(0)).contains("tool_calls");
		assertThat(assembler.openCalls()).isEmpty();
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("a call is complete when the next index starts, the last one when finish_reason arrives")
	void completesInOrder() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		List<String> completedAt = new ArrayList<>();
		List<ChatChunk> chunks = WireFixtures.chunks("vllm/chat-tool-call-parallel.sse");
		for (int i = 0; i < chunks.size(); i++) {
			for (AssembledToolCall call : assembler.accept(chunks.get(i))) {
				completedAt.add(call.index() + "@" + i);
			}
			if (i == 2) {
				assertThat(assembler.calls()).singleElement().satisfies(call -> assertThat(call.isComplete()).isFalse());
			}
		}
		int secondName = indexOfFirstDeltaAt(chunks, 1);
		int finish = chunks.size() - 2;

		assertThat(completedAt).containsExactly("0@" + secondName, "1@" + finish);
	}

	@Test
	@DisplayName("a new id at the same index starts a new call (early-2025 SGLang: index 0, ids \"0\" and \"1\")")
	void newIdAtSameIndex() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, sglangFirst(0, "0", "allow_read")));
		assembler.accept(chunk(null, sglangArgs(0, "{\"path\": \"/etc/hosts\"}")));
		List<AssembledToolCall> completed = assembler.accept(chunk(null, sglangFirst(0, "1", "deny_write")));
		assembler.accept(chunk(null, sglangArgs(0, "{\"path\": \"/etc/passwd\", \"data\": \"x\"}")));
		assembler.accept(chunk("tool_calls"));

		assertThat(completed).extracting(call -> call.id().orElseThrow()).containsExactly("0");
		assertThat(assembler.calls()).extracting(call -> call.id().orElseThrow() + ":" + call.name().orElseThrow())
				.containsExactly("0:allow_read", "1:deny_write");
		assertThat(assembler.calls()).allMatch(AssembledToolCall::argumentsValidJson).allMatch(call -> call.index() == 0);
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("null and absent are the same for id, type and name; repeating the same id is the same call")
	void nullEqualsAbsent() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "call_a", "allow_read")));
		assembler.accept(chunk(null, sglangArgs(0, "{\"path\": ")));
		ObjectNode repeat = first(0, "call_a", "allow_read");
		((ObjectNode) repeat.get("function")).put("arguments", "\"/etc/hosts\"}");
		assembler.accept(chunk(null, repeat));

		assertThat(assembler.calls()).singleElement().satisfies(call -> {
			assertThat(call.id()).contains("call_a");
			assertThat(call.name()).contains("allow_read");
			assertThat(call.type()).contains("function");
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(call.deltas()).isEqualTo(3);
		});
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("two entries with the same index in one chunk merge into one call (vLLM hermes 2026)")
	void duplicateIndexInOneChunk() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "chatcmpl-tool-1", "allow_read"), args(0, "{\"path\"")));
		assembler.accept(chunk(null, args(0, ": \"/etc"), args(0, "/hosts\"}")));
		List<AssembledToolCall> completed = assembler.accept(chunk("tool_calls"));

		assertThat(completed).singleElement().satisfies(call -> {
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(call.argumentsValidJson()).isTrue();
			assertThat(call.deltas()).isEqualTo(4);
		});
	}

	@Test
	@DisplayName("an argument flush in the finish chunk is merged before the call completes (vLLM <= 0.11)")
	void flushInFinishChunk() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "chatcmpl-tool-1", "deny_write")));
		assembler.accept(chunk(null, args(0, "{\"path\": \"/etc/passwd\", ")));
		List<AssembledToolCall> completed = assembler.accept(chunk("tool_calls", args(0, "\"data\": \"x\"}")));

		assertThat(completed).singleElement().satisfies(call -> {
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/passwd\", \"data\": \"x\"}");
			assertThat(call.argumentsValidJson()).isTrue();
		});
	}

	@Test
	@DisplayName("the captured vLLM excerpt: arguments in the name delta, an empty flush with finish_reason stop")
	void capturedExcerpt() {
		ToolCallAssembler assembler = assemble(
				WireFixtures.chunks("vllm/captured/2025-12-10_vllm-qwen25coder_tool-call_stream-EXCERPT.sse"));

		assertThat(assembler.calls()).singleElement().satisfies(call -> {
			assertThat(call.id()).contains("chatcmpl-tool-a331788bab1045a8");
			assertThat(call.name()).contains("db_list_databases");
			assertThat(call.arguments()).isEqualTo("{\"catalog\":\"default\"}");
			assertThat(call.isComplete()).isTrue();
		});
		assertThat(assembler.finishReason(0)).contains("stop");
	}

	@Test
	@DisplayName("SGLang \\uXXXX escapes split across fragments are kept as sent and decode once whole")
	void nonAsciiEscapes() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, sglangFirst(0, "call_5a9c1e3f7b2d4068a1c3e5f7", "allow_read")));
		assembler.accept(chunk(null, sglangArgs(0, "{\"path\": \"/home/J\\u00")));
		assembler.accept(chunk(null, sglangArgs(0, "fcrgen/\\u6771\\u4eac\"}")));
		assembler.accept(chunk("tool_calls"));

		AssembledToolCall call = assembler.calls().get(0);
		assertThat(call.arguments()).isEqualTo("{\"path\": \"/home/J\\u00fcrgen/\\u6771\\u4eac\"}");
		assertThat(call.argumentsJson()).map(json -> json.get("path").textValue()).contains("/home/Jürgen/東京");
	}

	@Test
	@DisplayName("a stream cut before finish_reason leaves the last call open, its arguments possibly not JSON")
	void truncatedStream() {
		List<ChatChunk> chunks = WireFixtures.chunks("kit/sglang/tool-call-mixed.sse");
		int cut = chunks.size() - 3;
		ToolCallAssembler assembler = assemble(chunks.subList(0, cut));

		assertThat(assembler.calls()).hasSize(3);
		assertThat(assembler.openCalls()).singleElement().satisfies(call -> {
			assertThat(call.name()).contains("transform_exec");
			assertThat(call.argumentsValidJson()).isFalse();
		});
		assertThat(assembler.finishReason(0)).isEmpty();
	}

	@Test
	@DisplayName("choices are assembled apart; a finish_reason completes only its own choice")
	void choicesApart() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		ObjectNode chunk = JSON.objectNode();
		chunk.putArray("choices").add(choice(0, null, first(0, "a", "allow_read"))).add(choice(1, null, first(0, "b", "deny_write")));
		assembler.accept(ChatChunk.of(chunk));
		List<AssembledToolCall> completed = assembler.accept(chunk("tool_calls"));

		assertThat(completed).extracting(AssembledToolCall::choiceIndex).containsExactly(0);
		assertThat(assembler.calls(1)).singleElement().satisfies(call -> assertThat(call.isComplete()).isFalse());
		assertThat(assembler.calls()).extracting(AssembledToolCall::choiceIndex).containsExactly(0, 1);
	}

	@Test
	@DisplayName("interleaved deltas of parallel calls merge by index, without a violation")
	void interleavedParallelCalls() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "a", "allow_read")));
		assembler.accept(chunk(null, first(1, "b", "allow_list")));
		assembler.accept(chunk(null, args(0, "{\"path\": ")));
		assembler.accept(chunk(null, args(1, "{\"dir\": \"/tmp\"}")));
		assembler.accept(chunk(null, args(0, "\"/etc/hosts\"}")));
		assembler.accept(chunk("tool_calls"));

		assertThat(assembler.calls()).extracting(AssembledToolCall::arguments)
				.containsExactly("{\"path\": \"/etc/hosts\"}", "{\"dir\": \"/tmp\"}");
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("a delta after its choice finished, or a renamed call, is a violation")
	void violations() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "a", "allow_read")));
		assembler.accept(chunk(null, first(1, "b", "deny_write")));
		ObjectNode rename = args(1, "{}");
		((ObjectNode) rename.get("function")).put("name", "allow_write");
		assembler.accept(chunk(null, rename));
		assembler.accept(chunk("tool_calls"));
		assembler.accept(chunk(null, args(0, "{}")));

		assertThat(assembler.violations()).containsExactly(
				"choice 0 index 1: name changed from 'deny_write' to 'allow_write'",
				"choice 0 index 0: delta after the choice finished: {\"index\":0,\"function\":{\"arguments\":\"{}\"}}");
		assertThat(assembler.calls()).extracting(call -> call.name().orElseThrow()).containsExactly("allow_read", "deny_write");
	}

	@Test
	@DisplayName("empty-string id, type and name on continuation deltas (DashScope) continue the call at their index")
	void emptyStringsContinue() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "call_a", "allow_read")));
		ObjectNode emptyId = args(0, "{\"path\": ");
		emptyId.put("id", "").put("type", "function");
		ObjectNode allEmpty = args(0, "\"/etc/hosts\"}");
		allEmpty.put("id", "").put("type", "");
		((ObjectNode) allEmpty.get("function")).put("name", "");
		assembler.accept(chunk(null, emptyId));
		assembler.accept(chunk(null, allEmpty));
		assembler.accept(chunk("tool_calls"));

		assertThat(assembler.calls()).singleElement().satisfies(call -> {
			assertThat(call.id()).contains("call_a");
			assertThat(call.type()).contains("function");
			assertThat(call.name()).contains("allow_read");
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(call.deltas()).isEqualTo(3);
		});
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("a non-empty new id at the same index still starts a call (early-2025 SGLang)")
	void newIdStillStarts() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, sglangFirst(0, "0", "allow_read"), sglangArgs(0, "{}")));
		assembler.accept(chunk(null, sglangFirst(0, "1", "allow_list"), sglangArgs(0, "{}")));
		assembler.accept(chunk("tool_calls"));

		assertThat(assembler.calls()).extracting(call -> call.id().orElseThrow() + " " + call.name().orElseThrow())
				.containsExactly("0 allow_read", "1 allow_list");
	}

	@Test
	@DisplayName("a whole call in one delta, finish_reason on the same chunk, is one complete call")
	void wholeCallInOneDelta() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		ObjectNode whole = first(0, "D681PevKs", "allow_read");
		((ObjectNode) whole.get("function")).put("arguments", "{\"path\": \"/etc/hosts\"}");
		List<AssembledToolCall> completed = assembler.accept(chunk("tool_calls", whole));

		assertThat(completed).singleElement().satisfies(call -> {
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(call.deltas()).isEqualTo(1);
		});
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("a finish chunk repeating the whole arguments with null id, type and name is appended, as the SDKs do, and named")
	void finishRepeatsArguments() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "call_a", "allow_read")));
		assembler.accept(chunk(null, args(0, "{\"path\": ")));
		assembler.accept(chunk(null, args(0, "\"/etc/hosts\"}")));
		ObjectNode repeat = sglangArgs(0, "{\"path\": \"/etc/hosts\"}");
		repeat.putNull("type");
		assembler.accept(chunk("tool_calls", repeat));

		assertThat(assembler.calls()).singleElement().satisfies(call -> {
			assertThat(call.name()).contains("allow_read");
			assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}{\"path\": \"/etc/hosts\"}");
			assertThat(call.argumentsValidJson()).isFalse();
		});
		assertThat(assembler.violations()).containsExactly("choice 0 index 0: arguments sent again whole after they were complete JSON"
				+ " (appended, as the OpenAI SDKs read them): {\"path\": \"/etc/hosts\"}");
	}

	@Test
	@DisplayName("a last flush of the arguments' rest on the finish chunk (vLLM <= 0.11) is no repeat")
	void finishFlushIsNoRepeat() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		assembler.accept(chunk(null, first(0, "call_a", "allow_read")));
		assembler.accept(chunk(null, args(0, "{\"path\": \"/etc")));
		assembler.accept(chunk("tool_calls", args(0, "/hosts\"}")));

		assertThat(assembler.calls()).singleElement().satisfies(call -> assertThat(call.argumentsValidJson()).isTrue());
		assertThat(assembler.violations()).isEmpty();
	}

	@Test
	@DisplayName("a streamed delta without index is a wire format error")
	void missingIndex() {
		ObjectNode delta = args(0, "{}");
		delta.remove("index");

		assertThatThrownBy(() -> new ToolCallAssembler().accept(chunk(null, delta))).isInstanceOf(WireFormatException.class)
				.hasMessage("streamed tool_calls[] delta without 'index' in choice 0: {\"function\":{\"arguments\":\"{}\"}}");
	}

	@Test
	@DisplayName("chunks without tool calls (role, content, usage) complete nothing")
	void otherChunks() {
		ToolCallAssembler assembler = new ToolCallAssembler();
		for (ChatChunk chunk : WireFixtures.chunks("sglang/chat-text.sse")) {
			assertThat(assembler.accept(chunk)).isEmpty();
		}
		assertThat(assembler.calls()).isEmpty();
		assertThat(assembler.finishReason(0)).contains("stop");
	}

	// ------------------------------------------------------------------ helpers

	static ToolCallAssembler assemble(List<ChatChunk> chunks) {
		ToolCallAssembler assembler = new ToolCallAssembler();
		chunks.forEach(assembler::accept);
		return assembler;
	}

	private static int indexOfFirstDeltaAt(List<ChatChunk> chunks, int toolIndex) {
		for (int i = 0; i < chunks.size(); i++) {
			boolean found = chunks.get(i)
					.choices()
					.stream()
					.flatMap(choice -> choice.toolCalls().stream())
					.anyMatch(call -> call.index().orElse(-1) == toolIndex);
			if (found) {
				return i;
			}
		}
		throw new AssertionError("no delta at index " + toolIndex);
	}

	/** A one-choice chunk; {@code finishReason} null for a mid-stream chunk. */
	private static ChatChunk chunk(String finishReason, ObjectNode... toolCalls) {
		ObjectNode chunk = JSON.objectNode();
		chunk.put("id", "chatcmpl-test").put("object", "chat.completion.chunk");
		chunk.putArray("choices").add(choice(0, finishReason, toolCalls));
		return ChatChunk.of(chunk);
	}

	private static ObjectNode choice(int index, String finishReason, ObjectNode... toolCalls) {
		ObjectNode choice = JSON.objectNode().put("index", index);
		ObjectNode delta = choice.putObject("delta");
		if (toolCalls.length > 0) {
			delta.putNull("content");
			delta.putArray("tool_calls").addAll(List.of(toolCalls));
		}
		choice.putNull("logprobs");
		choice.put("finish_reason", finishReason);
		return choice;
	}

	/** vLLM first delta: {@code {"id","type","index","function":{"name"}}}. */
	private static ObjectNode first(int index, String id, String name) {
		ObjectNode call = JSON.objectNode().put("id", id).put("type", "function").put("index", index);
		call.putObject("function").put("name", name);
		return call;
	}

	/** vLLM later delta: {@code {"index","function":{"arguments"}}}. */
	private static ObjectNode args(int index, String fragment) {
		ObjectNode call = JSON.objectNode().put("index", index);
		call.putObject("function").put("arguments", fragment);
		return call;
	}

	/** SGLang first delta: {@code {"id","index","type","function":{"name","arguments":""}}}. */
	private static ObjectNode sglangFirst(int index, String id, String name) {
		ObjectNode call = JSON.objectNode().put("id", id).put("index", index).put("type", "function");
		call.putObject("function").put("name", name).put("arguments", "");
		return call;
	}

	/** SGLang later delta: {@code {"id":null,"index","type","function":{"name":null,"arguments"}}}. */
	private static ObjectNode sglangArgs(int index, String fragment) {
		ObjectNode call = JSON.objectNode().putNull("id").put("index", index).put("type", "function");
		call.putObject("function").putNull("name").put("arguments", fragment);
		return call;
	}
}
