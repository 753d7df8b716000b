package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The typed accessors over the engines' differences listed in fixtures/wire/NOTES.md. */
@DisplayName("chat views")
class ChatViewsTests {

	@Test
	@DisplayName("content next to tool calls: vLLM null, SGLang \"\"; only SGLang's calls carry index")
	void contentNextToToolCalls() {
		ChatMessage vllm = ChatResponse.parse(WireFixtures.read("vllm/chat-tool-call.json")).choices().get(0).message();
		ChatMessage sglang = ChatResponse.parse(WireFixtures.read("sglang/chat-tool-call.json")).choices().get(0).message();

		assertThat(vllm.content()).isEmpty();
		assertThat(vllm.has("content")).isTrue();
		assertThat(sglang.content()).contains("");
		assertThat(vllm.toolCalls()).singleElement().satisfies(call -> assertThat(call.index()).isEmpty());
		assertThat(sglang.toolCalls()).singleElement().satisfies(call -> assertThat(call.index()).hasValue(0));
		assertThat(vllm.toolCalls().get(0).id()).hasValueSatisfying(id -> assertThat(id).startsWith("chatcmpl-tool-"));
		assertThat(sglang.toolCalls().get(0).id()).hasValueSatisfying(id -> assertThat(id).matches("call_[0-9a-f]{24}"));
	}

	@Test
	@DisplayName("finish_reason tool_calls on both; SGLang nulls matched_stop in non-stream tool responses")
	void finishReasons() {
		ResponseChoice vllm = ChatResponse.parse(WireFixtures.read("vllm/chat-tool-call.json")).choices().get(0);
		ResponseChoice sglang = ChatResponse.parse(WireFixtures.read("sglang/chat-tool-call.json")).choices().get(0);

		assertThat(vllm.finishReason()).contains("tool_calls");
		assertThat(sglang.finishReason()).contains("tool_calls");
		assertThat(sglang.node().get("matched_stop").isNull()).isTrue();
		assertThat(vllm.index()).isZero();
	}

	@Test
	@DisplayName("reasoning: vLLM `reasoning`, SGLang and older vLLM `reasoning_content`, null on all samples")
	void reasoning() {
		ChatMessage vllm = ChatResponse.parse(WireFixtures.read("vllm/chat-text.json")).choices().get(0).message();
		ChatMessage rayServe = ChatResponse.parse(WireFixtures.read("vllm/captured/2025-05-14_vllm-0.8.x-via-rayserve_text.json"))
				.choices()
				.get(0)
				.message();
		ChatMessage fromReasoningContent = ChatMessage.of(WireJson.readObject("{\"reasoning\":null,\"reasoning_content\":\"think\"}"));

		assertThat(vllm.reasoning()).isEmpty();
		assertThat(vllm.has("reasoning")).isTrue();
		assertThat(rayServe.has("reasoning_content")).isTrue();
		assertThat(rayServe.toolCalls()).as("older vLLM always sent tool_calls: []").isEmpty();
		assertThat(fromReasoningContent.reasoning()).contains("think");
		assertThat(ChatMessage.of(WireJson.readObject("{\"reasoning_content\":\"a\",\"reasoning\":\"a\"}")).reasoning())
				.as("Nov 2025 to Jan 2026 vLLM sends both")
				.contains("a");
	}

	@Test
	@DisplayName("usage chunk: choices [] with usage; SGLang tool chunks' \"usage\":null is no usage")
	void usageChunks() {
		List<ChatChunk> vllm = WireFixtures.chunks("vllm/chat-tool-call.sse");
		List<ChatChunk> sglang = WireFixtures.chunks("sglang/chat-tool-call.sse");

		assertThat(vllm.get(vllm.size() - 1).isUsageOnly()).isTrue();
		assertThat(vllm.get(vllm.size() - 1).has("system_fingerprint")).as("vLLM fingerprint rides the usage chunk").isTrue();
		assertThat(sglang.get(sglang.size() - 1).isUsageOnly()).isTrue();
		assertThat(sglang.get(1).usage()).isEmpty();
		assertThat(sglang.get(1).has("usage")).isTrue();
		assertThat(sglang.get(1).isUsageOnly()).isFalse();
		List<ChatChunk> text = WireFixtures.chunks("vllm/chat-text.sse");
		assertThat(text).noneMatch(ChatChunk::isUsageOnly);
		assertThat(text.get(text.size() - 1).has("system_fingerprint")).as("without usage, the fingerprint rides the finish chunk")
				.isTrue();
		assertThat(vllm.get(vllm.size() - 1).usage()).map(usage -> usage.has("prompt_tokens_details"))
				.as("vLLM's usage chunk drops nulls")
				.contains(false);
	}

	@Test
	@DisplayName("created: fixed for a vLLM stream, re-stamped per SGLang chunk")
	void created() {
		assertThat(WireFixtures.chunks("vllm/chat-tool-call-parallel.sse")).extracting(chunk -> chunk.created().orElseThrow())
				.containsOnly(1790507353L);
		assertThat(WireFixtures.chunks("sglang/chat-tool-call-parallel.sse")).extracting(chunk -> chunk.created().orElseThrow())
				.contains(1790507353L, 1790507354L);
	}

	@Test
	@DisplayName("ids: vLLM chatcmpl-<hex>, SGLang a bare 32-hex rid; model echoed")
	void ids() {
		ChatResponse vllm = ChatResponse.parse(WireFixtures.read("vllm/chat-text.json"));
		ChatResponse sglang = ChatResponse.parse(WireFixtures.read("sglang/chat-text.json"));

		assertThat(vllm.id()).hasValueSatisfying(id -> assertThat(id).matches("chatcmpl-[0-9a-f]{16}"));
		assertThat(sglang.id()).hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f]{32}"));
		assertThat(sglang.model()).contains("Qwen/Qwen2.5-7B-Instruct");
		assertThat(vllm.usage()).map(usage -> usage.get("total_tokens").intValue()).contains(44);
		ChatResponse requestIdEcho = ChatResponse.parse(WireFixtures.read("vllm/captured/2026-10-01_vllm-0.23.1rc1_text.json"));
		assertThat(requestIdEcho.id()).as("chatcmpl- plus the client's X-Request-Id")
				.hasValueSatisfying(id -> assertThat(id).matches("chatcmpl-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}"));
	}

	@Test
	@DisplayName("finish deltas: vLLM {} or {\"content\":\"\"}, SGLang {\"reasoning_content\":null}")
	void finishDeltas() {
		ChunkChoice vllmTool = lastChoice(WireFixtures.chunks("vllm/chat-tool-call.sse"));
		ChunkChoice vllmText = lastChoice(WireFixtures.chunks("vllm/chat-text.sse"));
		ChunkChoice sglang = lastChoice(WireFixtures.chunks("sglang/chat-tool-call.sse"));

		assertThat(vllmTool.delta().node().isEmpty()).isTrue();
		assertThat(vllmText.delta().content()).contains("");
		assertThat(sglang.delta().node().size()).isEqualTo(1);
		assertThat(sglang.delta().has("reasoning_content")).isTrue();
		assertThat(List.of(vllmTool, vllmText, sglang)).allMatch(choice -> choice.finishReason().isPresent());
	}

	@Test
	@DisplayName("SGLang non-stream arguments keep UTF-8, and so does the compact writer")
	void utf8Arguments() {
		String raw = "{\"choices\":[{\"index\":0,\"message\":{\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"index\":0,"
				+ "\"type\":\"function\",\"function\":{\"name\":\"allow_read\",\"arguments\":\"{\\\"path\\\": \\\"/home/Jürgen/東京\\\"}\"}}]}}]}";

		ChatResponse body = ChatResponse.parse(raw);

		assertThat(body.choices().get(0).message().toolCalls().get(0).arguments()).contains("{\"path\": \"/home/Jürgen/東京\"}");
		assertThat(body.toJson()).isEqualTo(raw);
	}

	@Test
	@DisplayName("a request: model, stream, include_usage, tool names, tool_choice")
	void request() {
		ChatRequest request = ChatRequest
				.parse("""
						{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,\
						"stream_options":{"include_usage":true},"tools":[{"type":"function","function":{"name":"allow_read"}},\
						{"type":"function","function":{"name":"deny_write"}}],"tool_choice":{"type":"function","function":{"name":"allow_read"}}}""");
		ChatRequest plain = ChatRequest.parse("{\"model\":\"m\",\"messages\":[],\"stream\":\"true\",\"tool_choice\":null}");

		assertThat(request.model()).contains("m");
		assertThat(request.stream()).isTrue();
		assertThat(request.includeUsage()).isTrue();
		assertThat(request.toolNames()).containsExactly("allow_read", "deny_write");
		assertThat(request.toolChoice()).map(choice -> choice.path("function").path("name").textValue()).contains("allow_read");
		assertThat(request.messages()).singleElement().satisfies(message -> assertThat(message.content()).contains("hi"));
		assertThat(plain.stream()).as("only JSON true streams").isFalse();
		assertThat(plain.includeUsage()).isFalse();
		assertThat(plain.toolChoice()).isEmpty();
	}

	@Test
	@DisplayName("a field of the wrong type fails with the field's name")
	void wrongType() {
		ChatChunk chunk = ChatChunk.parse("{\"choices\":{\"index\":0}}");
		ChatChunk noIndex = ChatChunk.parse("{\"choices\":[{\"delta\":{}}]}");

		assertThatThrownBy(chunk::choices).isInstanceOf(WireFormatException.class)
				.hasMessage("'choices' must be an array or null, got OBJECT: {\"index\":0}");
		assertThatThrownBy(() -> noIndex.choices().get(0).index()).isInstanceOf(WireFormatException.class)
				.hasMessage("chunk choice without 'index': {\"delta\":{}}");
		assertThatThrownBy(() -> ChatChunk.parse("[1]")).isInstanceOf(WireFormatException.class)
				.hasMessage("expected a JSON object, got ARRAY: [1]");
		assertThatThrownBy(() -> ChatChunk.parse("{\"a\":1} x")).isInstanceOf(WireFormatException.class)
				.hasMessage("not JSON: {\"a\":1} x");
	}

	private static ChunkChoice lastChoice(List<ChatChunk> chunks) {
		return chunks.stream().filter(chunk -> !chunk.choices().isEmpty()).reduce((a, b) -> b).orElseThrow().choices().get(0);
	}
}
