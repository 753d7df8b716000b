package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.EngineDoubleMarker;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every id the double makes up carries its id mark ({@link EngineDoubleMarker#markedId}) in the engine's exact shape, so
 * an answer relayed by a proxy that serves only {@code /v1} still says it came from the double, in either dialect.
 */
@DisplayName("the double's ids: the engine's shape, ending in the double's id mark")
class IdMarkTests extends InstantDoubles {

	private static String toolRequest(String extra) {
		return ToolCallTests.request("CALL allow_read {\"path\":\"/a\"}\nCALL list_dir {}", extra);
	}

	@Test
	@DisplayName("Ids.marked: the length asked, lower-case hex, marked, and random before the mark")
	void markedIds() {
		List<String> ids = IntStream.range(0, 64).mapToObj(i -> Ids.marked(i % 2 == 0 ? 16 : 32)).toList();
		assertThat(ids).allMatch(id -> id.matches("[0-9a-f]{16}|[0-9a-f]{32}")).allMatch(EngineDoubleMarker::idMarked);
		assertThat(ids.stream().filter(id -> id.length() == 32)).hasSize(32);
		assertThat(ids).doesNotHaveDuplicates();
		assertThat(Ids.marked(24)).hasSize(24);
	}

	@Test
	@DisplayName("SGLang: the answer id (32 hex) and the tool-call ids (call_ and 24 hex) carry the mark, stream and not")
	void sglangIds() {
		JsonNode answer = parse(TestHttp.post(chat(sglang), toolRequest("")).body());
		List<JsonNode> chunks = TestHttp.stream(chat(sglang), toolRequest(",\"stream\":true"))
				.chunks()
				.stream()
				.map(WireShapes::parse)
				.toList();

		assertThat(answer.get("id").asText()).matches("[0-9a-f]{32}").satisfies(id -> assertThat(EngineDoubleMarker.idMarked(id)).isTrue());
		assertThat(answer.at("/choices/0/message/tool_calls").findValuesAsText("id")).hasSize(2)
				.allMatch(id -> id.matches("call_[0-9a-f]{24}") && EngineDoubleMarker.idMarked(id));
		assertThat(chunks).extracting(c -> c.get("id").asText())
				.containsOnly(chunks.getFirst().get("id").asText())
				.allMatch(EngineDoubleMarker::idMarked);
		assertThat(chunks.stream().map(c -> c.at("/choices/0/delta/tool_calls/0/id")).filter(JsonNode::isTextual).map(JsonNode::asText))
				.hasSize(2)
				.allMatch(id -> id.matches("call_[0-9a-f]{24}") && EngineDoubleMarker.idMarked(id));
	}

	@Test
	@DisplayName("vLLM: the answer id (chatcmpl- and 16 hex) and the tool-call ids (chatcmpl-tool- and 16 hex) carry the mark, stream and not")
	void vllmIds() {
		JsonNode answer = parse(TestHttp.post(chat(vllm), toolRequest("")).body());
		List<JsonNode> chunks = TestHttp.stream(chat(vllm), toolRequest(",\"stream\":true"))
				.chunks()
				.stream()
				.map(WireShapes::parse)
				.toList();

		assertThat(answer.get("id").asText()).matches("chatcmpl-[0-9a-f]{16}")
				.satisfies(id -> assertThat(EngineDoubleMarker.idMarked(id)).isTrue());
		assertThat(answer.at("/choices/0/message/tool_calls").findValuesAsText("id")).hasSize(2)
				.allMatch(id -> id.matches("chatcmpl-tool-[0-9a-f]{16}") && EngineDoubleMarker.idMarked(id));
		assertThat(chunks).extracting(c -> c.get("id").asText()).allMatch(EngineDoubleMarker::idMarked);
		assertThat(chunks.stream().map(c -> c.at("/choices/0/delta/tool_calls/0/id")).filter(JsonNode::isTextual).map(JsonNode::asText))
				.hasSize(2)
				.allMatch(id -> id.matches("chatcmpl-tool-[0-9a-f]{16}") && EngineDoubleMarker.idMarked(id));
	}

	@Test
	@DisplayName("an id the request supplies (SGLang rid, vLLM X-Request-Id) is echoed as the engine echoes it, unmarked")
	void suppliedIdsAreEchoed() {
		JsonNode s = parse(TestHttp.post(chat(sglang), StreamOptionsTests.body(",\"rid\":\"0123456789abcdef0123456789abcdef\"")).body());
		JsonNode v = parse(TestHttp.post(chat(vllm), StreamOptionsTests.body(""), "X-Request-Id", "0123456789abcdef").body());

		assertThat(s.get("id").asText()).isEqualTo("0123456789abcdef0123456789abcdef");
		assertThat(v.get("id").asText()).isEqualTo("chatcmpl-0123456789abcdef");
		assertThat(List.of(s.get("id").asText(), v.get("id").asText())).noneMatch(EngineDoubleMarker::idMarked);
	}
}
