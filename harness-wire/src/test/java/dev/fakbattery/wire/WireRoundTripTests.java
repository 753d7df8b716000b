package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parse then serialize gives back the engine's JSON: same tree, same key order, explicit nulls kept apart from
 * absent keys, unknown keys kept. For compact JSON (everything but the spaced error frames) even the same bytes.
 */
@DisplayName("wire round trip")
class WireRoundTripTests {

	static Stream<String> jsonFixtures() {
		return WireFixtures.all("json").stream();
	}

	static Stream<String> sseFixtures() {
		return WireFixtures.all("sse").stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("jsonFixtures")
	@DisplayName("a body (chat response, error, model list) serializes back to the same tree, key order and bytes")
	void bodyRoundTrips(String fixture) {
		String raw = WireFixtures.read(fixture);
		ObjectNode original = WireJson.readObject(raw);

		ObjectNode parsed = WireJson.readObject(raw);
		String written = WireError.of(parsed)
				.map(WireView::toJson)
				.orElseGet(() -> fixture.endsWith("models.json") ? WireJson.write(parsed) : ChatResponse.of(parsed).toJson());

		assertSameTree(WireJson.readObject(written), original);
		assertThat(written).as("the body's bytes (reconstructed files add one newline, verbatim captures end where the engine's body did)")
				.isEqualTo(raw.endsWith("\n") ? raw.substring(0, raw.length() - 1) : raw);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("sseFixtures")
	@DisplayName("every chunk and error frame of a stream serializes to the same tree and key order")
	void streamRoundTrips(String fixture) {
		List<SseEvent> events = WireFixtures.events(fixture);
		if (events.isEmpty() && WireFixtures.status(fixture) != 200) {
			String raw = WireFixtures.read(fixture);
			assertThat(WireError.of(WireJson.readObject(raw)).map(WireView::toJson))
					.as("the error body the engine sent instead of a stream")
					.contains(raw);
			return;
		}
		assertThat(events).isNotEmpty();
		for (SseEvent event : events) {
			if (event.isDone()) {
				continue;
			}
			ObjectNode original = WireJson.readObject(event.data());
			WireView view = event.isError() ? event.error() : event.chunk();
			String written = view.toJson();
			assertSameTree(WireJson.readObject(written), original);
			if (event.kind() == SseEvent.Kind.DATA) {
				assertThat(written).as("compact chunk bytes").isEqualTo(event.data());
			}
		}
	}

	@Test
	@DisplayName("vLLM: explicit nulls stay null and omitted keys stay omitted")
	void vllmNullsAndAbsentKeysSurvive() {
		List<ChatChunk> chunks = WireFixtures.chunks("vllm/chat-tool-call.sse");
		ChatChunk first = ChatChunk.parse(chunks.get(0).toJson());
		ChatChunk name = ChatChunk.parse(chunks.get(1).toJson());

		assertThat(first.node().get("prompt_token_ids").isNull()).isTrue();
		assertThat(first.node().get("prompt_text").isNull()).isTrue();
		assertThat(first.choices().get(0).has("token_ids")).isFalse();
		ObjectNode function = name.choices().get(0).toolCalls().get(0).function().orElseThrow();
		assertThat(function.has("arguments")).as("vLLM name delta has no arguments key").isFalse();
		assertThat(name.choices().get(0).delta().node().get("content").isNull()).isTrue();

		ChatResponse body = ChatResponse.parse(WireFixtures.read("vllm/chat-tool-call.json"));
		assertThat(ChatResponse.parse(body.toJson()).node().properties()).extracting(Map.Entry::getKey)
				.containsExactly("id", "object", "created", "model", "choices", "service_tier", "system_fingerprint",
						"usage", "prompt_logprobs", "prompt_token_ids", "prompt_text", "kv_transfer_params",
						"ec_transfer_params", "metrics");
	}

	@Test
	@DisplayName("SGLang: explicit id/name nulls, usage null and msgspec/pydantic key sets survive")
	void sglangNullsSurvive() {
		List<ChatChunk> chunks = WireFixtures.chunks("sglang/chat-tool-call.sse");
		ChatChunk role = ChatChunk.parse(chunks.get(0).toJson());
		ChatChunk args = ChatChunk.parse(chunks.get(2).toJson());

		assertThat(role.has("usage")).as("msgspec chunk has no usage key").isFalse();
		assertThat(role.choices().get(0).delta().node().properties()).extracting(Map.Entry::getKey)
				.containsExactly("reasoning_content", "role", "content");
		assertThat(args.has("usage")).isTrue();
		assertThat(args.node().get("usage").isNull()).isTrue();
		JsonNode call = args.choices().get(0).toolCalls().get(0).node();
		assertThat(call.get("id").isNull()).isTrue();
		assertThat(call.get("function").get("name").isNull()).isTrue();
	}

	@Test
	@DisplayName("a request keeps engine extras, nulls and key order")
	void requestRoundTrips() {
		String raw = """
				{"model":"Qwen/Qwen2.5-7B-Instruct","messages":[{"role":"user","content":"hi","name":null}],\
				"tools":[{"type":"function","function":{"name":"allow_read","parameters":{"type":"object"}}}],\
				"tool_choice":"auto","stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":false},\
				"chat_template_kwargs":{"enable_thinking":false},"rid":"fixed-rid","seed":null,"separate_reasoning":true}""";

		ChatRequest request = ChatRequest.parse(raw);

		assertThat(request.toJson()).isEqualTo(raw);
		assertThat(request.node().get("seed").isNull()).isTrue();
		assertThat(request.messages().get(0).has("name")).isTrue();
	}

	static void assertSameTree(JsonNode actual, JsonNode expected) {
		assertThat(actual).isEqualTo(expected);
		assertThat(keyPaths(actual)).as("key paths in order").containsExactlyElementsOf(keyPaths(expected));
	}

	/** Every key path in document order, with {@code =null} on explicit nulls. */
	static List<String> keyPaths(JsonNode node) {
		List<String> paths = new ArrayList<>();
		collect("", node, paths);
		return paths;
	}

	private static void collect(String prefix, JsonNode node, List<String> paths) {
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> entry : node.properties()) {
				String path = prefix + "/" + entry.getKey();
				paths.add(entry.getValue().isNull() ? path + "=null" : path);
				collect(path, entry.getValue(), paths);
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				collect(prefix + "[" + i + "]", node.get(i), paths);
			}
		}
	}
}
