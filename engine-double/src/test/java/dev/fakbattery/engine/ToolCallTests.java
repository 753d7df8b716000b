package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("scripted tool calls")
class ToolCallTests {

	static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"list_dir\"}},"
			+ "{\"type\":\"function\",\"function\":{\"name\":\"allow_read\"}}]";

	static EngineDouble vllm;

	static EngineDouble sglang;

	@BeforeAll
	static void start() throws IOException {
		vllm = EngineDouble.builder().timing(TimingModel.instant()).start();
		sglang = EngineDouble.builder().dialect(Dialect.SGLANG).timing(TimingModel.instant()).start();
	}

	@AfterAll
	static void stop() {
		vllm.close();
		sglang.close();
	}

	static String request(String userText, String extra) {
		return "{\"messages\":[{\"role\":\"user\",\"content\":" + TextNode.valueOf(userText) + "}]," + TOOLS + extra + "}";
	}

	static String arguments(List<String> chunks, int index) {
		StringBuilder arguments = new StringBuilder();
		for (String chunk : chunks) {
			JsonNode call = parse(chunk).at("/choices/0/delta/tool_calls/0");
			if (!call.isMissingNode() && call.get("index").asInt() == index) {
				arguments.append(call.at("/function/arguments").asText(""));
			}
		}
		return arguments.toString();
	}

	@Test
	@DisplayName("a CALL directive picks the function and its JSON arguments, in Python json.dumps spacing")
	void directive() {
		String body = request("Please read it.\nCALL allow_read {\"path\":\"/etc/hosts\"}", "");
		for (EngineDouble engine : List.of(vllm, sglang)) {
			JsonNode call = parse(TestHttp.post(engine.baseUrl() + "/chat/completions", body).body())
					.at("/choices/0/message/tool_calls/0");
			List<String> chunks = TestHttp.stream(engine.baseUrl() + "/chat/completions",
					body.replaceFirst("}$", ",\"stream\":true}")).chunks();

			assertThat(call.at("/function/name").asText()).as(engine.dialect().id()).isEqualTo("allow_read");
			assertThat(call.at("/function/arguments").asText()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(arguments(chunks, 0)).isEqualTo("{\"path\": \"/etc/hosts\"}");
		}
	}

	@Test
	@DisplayName("without a directive the first offered tool is called with {}")
	void defaultCall() {
		JsonNode call = parse(TestHttp.post(vllm.baseUrl() + "/chat/completions", request("what is here?", "")).body())
				.at("/choices/0/message/tool_calls/0");

		assertThat(call.at("/function/name").asText()).isEqualTo("list_dir");
		assertThat(call.at("/function/arguments").asText()).isEqualTo("{}");
		assertThat(call.get("id").asText()).matches("chatcmpl-tool-[0-9a-f]{16}");
	}

	@Test
	@DisplayName("vLLM deltas: id/type/index/name first, then index+arguments only, each with content:null")
	void vllmDeltas() {
		List<String> chunks = TestHttp.stream(vllm.baseUrl() + "/chat/completions",
				request("CALL allow_read {\"path\":\"/tmp/a b\"}", ",\"stream\":true")).chunks();
		List<JsonNode> deltas = chunks.stream().map(c -> parse(c).at("/choices/0/delta")).filter(d -> d.has("tool_calls")).toList();

		assertThat(deltas.getFirst().toString()).matches(
				"\\{\"content\":null,\"tool_calls\":\\[\\{\"id\":\"chatcmpl-tool-[0-9a-f]{16}\",\"type\":\"function\",\"index\":0,\"function\":\\{\"name\":\"allow_read\"}}]}");
		assertThat(deltas.subList(1, deltas.size())).isNotEmpty().allSatisfy(d -> {
			assertThat(d.get("content").isNull()).isTrue();
			assertThat(d.at("/tool_calls/0").properties()).extracting(e -> e.getKey()).containsExactly("index", "function");
			assertThat(d.at("/tool_calls/0/function").properties()).extracting(e -> e.getKey()).containsExactly("arguments");
		});
	}

	@Test
	@DisplayName("SGLang deltas: first has arguments \"\", later ones explicit id:null and name:null, usage:null")
	void sglangDeltas() {
		List<String> chunks = TestHttp.stream(sglang.baseUrl() + "/chat/completions",
				request("CALL allow_read {\"path\":\"/tmp/a b\",\"mode\":\"r\"}", ",\"stream\":true")).chunks();
		List<JsonNode> tool = chunks.stream().map(WireShapes::parse).filter(c -> c.at("/choices/0/delta").has("tool_calls")).toList();

		assertThat(tool.getFirst().at("/choices/0/delta/tool_calls/0/function/arguments").asText()).isEmpty();
		assertThat(tool.getFirst().at("/choices/0/delta/tool_calls/0/id").asText()).matches("call_[0-9a-f]{24}");
		assertThat(tool.subList(1, tool.size())).isNotEmpty().allSatisfy(c -> {
			assertThat(c.at("/choices/0/delta/tool_calls/0/id").isNull()).isTrue();
			assertThat(c.at("/choices/0/delta/tool_calls/0/function/name").isNull()).isTrue();
			assertThat(c.get("usage").isNull()).isTrue();
		});
		assertThat(tool.get(1).at("/choices/0/delta/tool_calls/0/function/arguments").asText()).isEqualTo("{\"path\": \"");
		assertThat(arguments(chunks, 0)).isEqualTo("{\"path\": \"/tmp/a b\", \"mode\": \"r\"}");
	}

	@Test
	@DisplayName("SGLang streams non-ASCII arguments as \\uXXXX, its non-streamed body keeps UTF-8")
	void sglangNonAscii() {
		String body = request("CALL allow_read {\"path\":\"/tmp/café\"}", "");
		String nonStream = parse(TestHttp.post(sglang.baseUrl() + "/chat/completions", body).body())
				.at("/choices/0/message/tool_calls/0/function/arguments")
				.asText();
		List<String> chunks = TestHttp.stream(sglang.baseUrl() + "/chat/completions", body.replaceFirst("}$", ",\"stream\":true}"))
				.chunks();

		assertThat(nonStream).isEqualTo("{\"path\": \"/tmp/café\"}");
		assertThat(arguments(chunks, 0)).isEqualTo("{\"path\": \"/tmp/caf\\u00e9\"}");
	}

	@Test
	@DisplayName("arguments that are not a JSON object pass through verbatim")
	void rawArguments() {
		JsonNode call = parse(TestHttp.post(vllm.baseUrl() + "/chat/completions", request("CALL allow_read {\"path\": ", "")).body())
				.at("/choices/0/message/tool_calls/0");

		assertThat(call.at("/function/arguments").asText()).isEqualTo("{\"path\":");
	}

	@Test
	@DisplayName("named tool_choice: vLLM finishes with stop, SGLang with tool_calls; tool_choice none answers text")
	void toolChoice() {
		String named = ",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"allow_read\"}}";
		JsonNode v = parse(TestHttp.post(vllm.baseUrl() + "/chat/completions", request("go", named)).body());
		JsonNode s = parse(TestHttp.post(sglang.baseUrl() + "/chat/completions", request("go", named)).body());
		JsonNode none = parse(TestHttp.post(vllm.baseUrl() + "/chat/completions", request("go", ",\"tool_choice\":\"none\"")).body());

		assertThat(v.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
		assertThat(v.at("/choices/0/message/tool_calls/0/function/name").asText()).isEqualTo("allow_read");
		assertThat(s.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
		assertThat(none.at("/choices/0/message").has("tool_calls")).isFalse();
		assertThat(none.at("/choices/0/message/content").asText()).isNotEmpty();
	}

	@Test
	@DisplayName("a named tool_choice for an unoffered function is a 400")
	void unknownNamedTool() {
		var response = TestHttp.post(vllm.baseUrl() + "/chat/completions",
				request("go", ",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"rm_rf\"}}"));

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(parse(response.body()).at("/error/message").asText()).isEqualTo("Tool 'rm_rf' not found in tools list.");
	}
}
