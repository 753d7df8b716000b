package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.Kind.CONTENT;
import static dev.fakbattery.engine.WireShapes.Kind.FINISH;
import static dev.fakbattery.engine.WireShapes.Kind.ROLE;
import static dev.fakbattery.engine.WireShapes.Kind.TOOL_ARGS;
import static dev.fakbattery.engine.WireShapes.Kind.TOOL_START;
import static dev.fakbattery.engine.WireShapes.Kind.USAGE;
import static dev.fakbattery.engine.WireShapes.first;
import static dev.fakbattery.engine.WireShapes.kind;
import static dev.fakbattery.engine.WireShapes.sampleChunks;
import static dev.fakbattery.engine.WireShapes.sampleEvents;
import static dev.fakbattery.engine.WireShapes.shape;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("wire shapes match the vLLM and SGLang samples")
class WireShapeTests {

	static final String MODEL = "Qwen/Qwen2.5-7B-Instruct";

	static final String TOOLS = """
			"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
			"properties":{"city":{"type":"string"},"unit":{"type":"string"}}}}}]""";

	static final String TEXT = """
			{"model":"%s","messages":[{"role":"user","content":"What is the capital of France?"}]}""".formatted(MODEL);

	static final String TOOL_CALL = """
			{"model":"%s","messages":[{"role":"user","content":"Weather?\\nCALL get_weather {\\"city\\": \\"Paris\\", \\"unit\\": \\"celsius\\"}"}],%s}"""
			.formatted(MODEL, TOOLS);

	static final String PARALLEL = """
			{"model":"%s","messages":[{"role":"user","content":"CALL get_weather {\\"city\\": \\"Paris\\"}\\nCALL get_weather {\\"city\\": \\"Tokyo\\"}"}],%s}"""
			.formatted(MODEL, TOOLS);

	static final Map<Dialect, EngineDouble> ENGINES = new EnumMap<>(Dialect.class);

	@BeforeAll
	static void start() throws IOException {
		for (Dialect dialect : EngineDouble.DIALECTS) {
			ENGINES.put(dialect, EngineDouble.builder().dialect(dialect).model(MODEL).timing(TimingModel.instant()).start());
		}
	}

	@AfterAll
	static void stop() {
		ENGINES.values().forEach(EngineDouble::close);
	}

	static String chat(Dialect dialect) {
		return ENGINES.get(dialect).baseUrl() + "/chat/completions";
	}

	static String streamed(String body, String streamOptions) {
		return body.substring(0, body.length() - 1) + ",\"stream\":true" + streamOptions + "}";
	}

	static String dir(Dialect dialect) {
		return dialect.id() + "/";
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("non-streamed text answer has the sample's keys, order and nulls")
	void nonStreamedText(Dialect dialect) {
		HttpResponse<String> response = TestHttp.post(chat(dialect), TEXT);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-type")).contains("application/json");
		assertThat(shape(response.body())).isEqualTo(shape(WireShapes.resource(dir(dialect) + "chat-text.json")));
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("non-streamed tool call has the sample's keys, order and nulls")
	void nonStreamedToolCall(Dialect dialect) {
		HttpResponse<String> response = TestHttp.post(chat(dialect), TOOL_CALL);

		assertThat(shape(response.body())).isEqualTo(shape(WireShapes.resource(dir(dialect) + "chat-tool-call.json")));
		assertThat(WireShapes.parse(response.body()).at("/choices/0/message/tool_calls/0/function/arguments").asText())
				.isEqualTo("{\"city\": \"Paris\", \"unit\": \"celsius\"}");
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("streamed text: role, content and finish chunks match the sample; no usage chunk without include_usage")
	void streamedText(Dialect dialect) {
		TestHttp.Stream stream = TestHttp.stream(chat(dialect), streamed(TEXT, ""));
		List<String> sample = sampleChunks(dir(dialect) + "chat-text.sse");

		assertThat(stream.status()).isEqualTo(200);
		assertThat(stream.headers().get("content-type")).containsExactly("text/event-stream; charset=utf-8");
		for (WireShapes.Kind kind : List.of(ROLE, CONTENT, FINISH)) {
			assertThat(shape(first(stream.chunks(), kind))).as(kind.name()).isEqualTo(shape(first(sample, kind)));
		}
		assertThat(stream.chunks()).extracting(WireShapes::kind).doesNotContain(USAGE);
		assertThat(kind(stream.chunks().getFirst())).isEqualTo(ROLE);
		assertThat(kind(stream.chunks().getLast())).isEqualTo(FINISH);
		assertThat(stream.data().getLast()).isEqualTo("[DONE]");
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("streamed tool call with include_usage: every chunk kind matches the sample")
	void streamedToolCall(Dialect dialect) {
		TestHttp.Stream stream = TestHttp.stream(chat(dialect), streamed(TOOL_CALL, ",\"stream_options\":{\"include_usage\":true}"));
		List<String> sample = sampleChunks(dir(dialect) + "chat-tool-call.sse");

		for (WireShapes.Kind kind : List.of(ROLE, TOOL_START, TOOL_ARGS, FINISH, USAGE)) {
			assertThat(shape(first(stream.chunks(), kind))).as(kind.name()).isEqualTo(shape(first(sample, kind)));
		}
		assertThat(stream.chunks()).extracting(WireShapes::kind)
				.containsSubsequence(ROLE, TOOL_START, TOOL_ARGS, FINISH, USAGE);
		assertThat(WireShapes.parse(first(stream.chunks(), FINISH)).at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("parallel tool calls use index 0 and 1 with the sample's chunk shapes")
	void parallelToolCalls(Dialect dialect) {
		TestHttp.Stream stream = TestHttp.stream(chat(dialect), streamed(PARALLEL, ""));
		List<String> sample = sampleChunks(dir(dialect) + "chat-tool-call-parallel.sse");
		List<String> starts = stream.chunks().stream().filter(c -> kind(c) == TOOL_START).toList();
		List<String> sampleStarts = sample.stream().filter(c -> kind(c) == TOOL_START).toList();

		assertThat(starts).hasSize(2);
		assertThat(starts).extracting(c -> WireShapes.parse(c).at("/choices/0/delta/tool_calls/0/index").asInt()).containsExactly(0, 1);
		assertThat(shape(starts.get(1))).isEqualTo(shape(sampleStarts.get(1)));
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("GET /v1/models has the sample's card shape")
	void models(Dialect dialect) {
		HttpResponse<String> response = TestHttp.get(ENGINES.get(dialect).baseUrl() + "/models");

		assertThat(shape(response.body())).isEqualTo(shape(WireShapes.resource(dir(dialect) + "models.json")));
		assertThat(WireShapes.parse(response.body()).at("/data/0/id").asText()).isEqualTo(MODEL);
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("stream-error-after=1: role chunk, then the sample's error frame byte for byte, then [DONE]")
	void streamErrorFrame(Dialect dialect) {
		TestHttp.Stream stream = TestHttp.stream(chat(dialect), streamed(TEXT, ""), Fault.HEADER, "stream-error-after=1");
		List<String> sample = sampleEvents(dir(dialect) + "stream-error.sse");

		assertThat(stream.status()).isEqualTo(200);
		assertThat(stream.data()).hasSize(3);
		assertThat(shape(stream.data().get(0))).isEqualTo(shape(sample.get(0)));
		assertThat(stream.data().get(1)).isEqualTo(sample.get(1));
		assertThat(stream.data().get(2)).isEqualTo("[DONE]");
	}

	@Test
	@DisplayName("vLLM: unknown model answers 404 with the sample body byte for byte")
	void vllmUnknownModel() {
		HttpResponse<String> response = TestHttp.post(chat(Dialect.VLLM), TEXT.replace(MODEL, "gpt-4o"));

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).isEqualTo(WireShapes.resource("vllm/error-404-model.json").strip());
	}

	@Test
	@DisplayName("vLLM: max_tokens beyond the context answers the sample's 400 body byte for byte")
	void vllmContextError() throws IOException {
		String prompt = "word ".repeat(2778).strip();
		try (EngineDouble engine = EngineDouble.builder().maxModelLen(4096).timing(TimingModel.instant()).start()) {
			HttpResponse<String> response = TestHttp.post(engine.baseUrl() + "/chat/completions",
					"{\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],\"max_tokens\":8000}");

			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.body()).isEqualTo(WireShapes.resource("vllm/error-400.json").strip());
		}
	}

	@Test
	@DisplayName("SGLang: a prompt beyond the context answers the sample's flat 400 shape")
	void sglangContextError() throws IOException {
		try (EngineDouble engine = EngineDouble.builder()
				.dialect(Dialect.SGLANG)
				.maxModelLen(8)
				.timing(TimingModel.instant())
				.start()) {
			HttpResponse<String> response = TestHttp.post(engine.baseUrl() + "/chat/completions",
					"{\"messages\":[{\"role\":\"user\",\"content\":\"one two three four five six seven eight nine\"}]}");

			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(shape(response.body())).isEqualTo(shape(WireShapes.resource("sglang/error-400.json")));
			assertThat(response.body()).contains(
					"\"message\":\"The input (9 tokens) is longer than the model's context length (8 tokens).\"",
					"\"type\":\"BadRequestError\"");
		}
	}

	@Test
	@DisplayName("SGLang: a body without messages answers the sample's validation 400 shape")
	void sglangValidationError() {
		HttpResponse<String> response = TestHttp.post(chat(Dialect.SGLANG), "{\"model\":\"default\"}");

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(shape(response.body())).isEqualTo(shape(WireShapes.resource("sglang/error-400-validation.json")));
		assertThat(response.body()).contains("\"type\":\"Bad Request\"", "'messages'");
	}
}
