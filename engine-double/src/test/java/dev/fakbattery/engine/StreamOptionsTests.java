package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("request options: usage, max_tokens, model, ids")
class StreamOptionsTests extends InstantDoubles {

	static String body(String extra) {
		return "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"say three words\"}]"
				+ extra + "}";
	}

	@Test
	@DisplayName("vLLM include_usage: a final choices:[] chunk carries usage and the fingerprint, the finish chunk does not")
	void vllmIncludeUsage() {
		List<String> chunks = TestHttp.stream(chat(vllm), body(",\"stream\":true,\"stream_options\":{\"include_usage\":true}")).chunks();
		JsonNode usageChunk = parse(chunks.getLast());
		JsonNode finish = parse(chunks.get(chunks.size() - 2));

		assertThat(usageChunk.get("choices")).isEmpty();
		assertThat(usageChunk.get("usage").toString()).isEqualTo("{\"prompt_tokens\":5,\"total_tokens\":11,\"completion_tokens\":6}");
		assertThat(usageChunk.get("system_fingerprint").asText()).startsWith("vllm-0.29.0+engine-double-");
		assertThat(finish.has("system_fingerprint")).isFalse();
		assertThat(chunks.subList(0, chunks.size() - 1)).noneMatch(c -> parse(c).has("usage"));
	}

	@Test
	@DisplayName("vLLM without include_usage: no usage anywhere, the fingerprint rides the finish chunk")
	void vllmNoUsage() {
		List<String> chunks = TestHttp.stream(chat(vllm), body(",\"stream\":true")).chunks();

		assertThat(chunks).noneMatch(c -> parse(c).has("usage"));
		assertThat(parse(chunks.getLast()).at("/choices/0/finish_reason").asText()).isEqualTo("stop");
		assertThat(parse(chunks.getLast()).has("system_fingerprint")).isTrue();
	}

	@Test
	@DisplayName("vLLM continuous_usage_stats: every chunk carries running usage, placed after choices")
	void vllmContinuousUsage() {
		List<String> chunks = TestHttp.stream(chat(vllm),
				body(",\"stream\":true,\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}")).chunks();

		assertThat(chunks).allMatch(c -> parse(c).has("usage"));
		assertThat(chunks).extracting(c -> parse(c).at("/usage/completion_tokens").asInt()).containsExactly(0, 1, 2, 3, 4, 5, 6, 6);
		assertThat(chunks.get(0))
				.contains("\"usage\":{\"prompt_tokens\":5,\"total_tokens\":5,\"completion_tokens\":0},\"prompt_token_ids\":null");
		assertThat(chunks.get(1))
				.endsWith("\"token_ids\":null}],\"usage\":{\"prompt_tokens\":5,\"total_tokens\":6,\"completion_tokens\":1}}");
	}

	@Test
	@DisplayName("SGLang include_usage: pydantic usage chunk with reasoning_tokens; continuous usage rides content chunks")
	void sglangUsage() {
		List<String> plain = TestHttp.stream(chat(sglang), body(",\"stream\":true,\"stream_options\":{\"include_usage\":true}")).chunks();
		List<String> continuous = TestHttp.stream(chat(sglang),
				body(",\"stream\":true,\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}")).chunks();

		assertThat(parse(plain.getLast()).get("usage").toString())
				.isEqualTo(
						"{\"prompt_tokens\":5,\"total_tokens\":11,\"completion_tokens\":6,\"prompt_tokens_details\":null,\"reasoning_tokens\":0}");
		assertThat(plain.subList(0, plain.size() - 1)).noneMatch(c -> parse(c).has("usage"));
		assertThat(continuous).filteredOn(c -> WireShapes.kind(c) == WireShapes.Kind.CONTENT)
				.hasSize(5)
				.allMatch(c -> parse(c).at("/usage/prompt_tokens").asInt() == 5);
	}

	@Test
	@DisplayName("max_tokens: exactly that many content tokens, finish_reason length, no EOS token")
	void maxTokens() {
		for (EngineDouble engine : List.of(vllm, sglang)) {
			List<String> chunks = TestHttp
					.stream(chat(engine), body(",\"stream\":true,\"max_tokens\":7,\"stream_options\":{\"include_usage\":true}"))
					.chunks();
			long content = chunks.stream()
					.filter(c -> parse(c).at("/choices/0/delta/content").isTextual()
							&& !parse(c).at("/choices/0/delta/content").asText().isEmpty())
					.count();
			JsonNode nonStream = parse(TestHttp.post(chat(engine), body(",\"max_completion_tokens\":7")).body());

			assertThat(content).as(engine.dialect().id()).isEqualTo(7);
			assertThat(parse(chunks.getLast()).at("/usage/completion_tokens").asInt()).isEqualTo(7);
			assertThat(chunks).anyMatch(c -> "length".equals(parse(c).at("/choices/0/finish_reason").asText(null)));
			assertThat(nonStream.at("/choices/0/finish_reason").asText()).isEqualTo("length");
			assertThat(nonStream.at("/usage/completion_tokens").asInt()).isEqualTo(7);
		}
	}

	@Test
	@DisplayName("max_tokens below 1 is rejected with 400 in the dialect's shape")
	void maxTokensZero() {
		HttpResponse<String> v = TestHttp.post(chat(vllm), body(",\"max_tokens\":0"));
		HttpResponse<String> s = TestHttp.post(chat(sglang), body(",\"max_tokens\":0"));

		assertThat(v.statusCode()).isEqualTo(400);
		assertThat(v.body()).isEqualTo(
				"{\"error\":{\"message\":\"max_tokens must be at least 1, got 0.\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}");
		assertThat(s.statusCode()).isEqualTo(400);
		assertThat(s.body()).isEqualTo(
				"{\"object\":\"error\",\"message\":\"max_tokens must be at least 1, got 0.\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}");
	}

	@Test
	@DisplayName("vLLM X-Request-Id becomes the id chatcmpl-<value>; without it the id is chatcmpl- and 16 hex")
	void vllmRequestId() {
		HttpResponse<String> withHeader = TestHttp.post(chat(vllm), body(""), "X-Request-Id", "gw-7f3a-0001");
		List<String> streamed = TestHttp.stream(chat(vllm), body(",\"stream\":true"), "X-Request-Id", "gw-7f3a-0002").chunks();
		HttpResponse<String> without = TestHttp.post(chat(vllm), body(""));

		assertThat(parse(withHeader.body()).get("id").asText()).isEqualTo("chatcmpl-gw-7f3a-0001");
		assertThat(streamed).allMatch(c -> parse(c).get("id").asText().equals("chatcmpl-gw-7f3a-0002"));
		assertThat(parse(without.body()).get("id").asText()).matches("chatcmpl-[0-9a-f]{16}");
	}

	@Test
	@DisplayName("vLLM answers with its served model; SGLang echoes the request's model, and its rid becomes the id")
	void modelAndIds() {
		JsonNode v = parse(TestHttp.post(chat(vllm), body("")).body());
		JsonNode s = parse(TestHttp.post(chat(sglang), body(",\"model\":\"anything-goes\",\"rid\":\"my-rid-1\"")).body());
		JsonNode sDefault = parse(TestHttp.post(chat(sglang), body("")).body());

		assertThat(v.get("model").asText()).isEqualTo("Qwen/Qwen2.5-7B-Instruct");
		assertThat(s.get("model").asText()).isEqualTo("anything-goes");
		assertThat(s.get("id").asText()).isEqualTo("my-rid-1");
		assertThat(sDefault.get("id").asText()).matches("[0-9a-f]{32}");
		assertThat(sDefault.get("model").asText()).isEqualTo("default");
	}

	@Test
	@DisplayName("vLLM keeps created fixed over a stream; answer text equals the concatenated content deltas")
	void createdAndText() {
		List<String> chunks = TestHttp.stream(chat(vllm), body(",\"stream\":true")).chunks();
		String text = parse(TestHttp.post(chat(vllm), body("")).body()).at("/choices/0/message/content").asText();
		StringBuilder streamed = new StringBuilder();
		chunks.forEach(c -> streamed.append(parse(c).at("/choices/0/delta/content").asText("")));

		assertThat(chunks).extracting(c -> parse(c).get("created").asLong()).containsOnly(parse(chunks.get(0)).get("created").asLong());
		assertThat(streamed.toString()).isEqualTo(text).endsWith(".");
	}
}
