package dev.fakbattery.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Conversation;
import dev.fakbattery.core.load.RequestDetail;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TokenSource;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("workloads: seeded requests, their parameters in the artifact, bad configuration named")
class WorkloadsTests {

	@TempDir
	Path dir;

	private static Workload from(Map<String, String> values) {
		return Workloads.from(HarnessConfig.of(name -> Optional.ofNullable(values.get(name))), 64, 7);
	}

	private static JsonNode json(Workload workload) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		workload.writeTo(node);
		return node;
	}

	@Test
	@DisplayName("fixed is the default: fak's counting prompt with max_tokens 64, every conversation the same")
	void fixedDefault() {
		Workload workload = from(Map.of());
		assertThat(workload).isEqualTo(new FixedWorkload(64));
		ChatPayload first = workload.requests("m", true).conversation(0).first();
		assertThat(first.toJson().toString()).isEqualTo(ChatPayload.streaming("m", ChatPayload.COUNTING_PROMPT, 64).toJson().toString());
		assertThat(json(workload).path("name").asText()).isEqualTo("fixed");
	}

	@Test
	@DisplayName("random draws lengths within the range ratio, asks for its prompt length, sends ignore_eos, and repeats by seed")
	void random() {
		Workload workload = from(Map.of("workload", "random", "input.len", "100", "output.len", "20", "range.ratio", "0.5",
				"workload.seed", "3"));
		assertThat(workload).isEqualTo(new RandomWorkload(100, 20, 0.5, true, 3));
		RequestSource source = workload.requests("m", true);
		for (int i = 0; i < 50; i++) {
			ChatPayload payload = source.conversation(i).first();
			int words = payload.messages().get(0).path("content").asText().split(" ").length;
			assertThat(words).isBetween(50, 150).isEqualTo(payload.promptTokensAsked().getAsInt());
			assertThat(payload.maxTokens()).isBetween(10, 30);
			assertThat(payload.toJson().path("ignore_eos").asBoolean()).isTrue();
		}
		assertThat(source.conversation(9).first().toJson()).isEqualTo(workload.requests("m", true).conversation(9).first().toJson());
		assertThat(source.conversation(9).first().toJson()).isNotEqualTo(source.conversation(10).first().toJson());
		assertThat(json(workload).toString()).isEqualTo("{\"name\":\"random\",\"seed\":3,\"input_len\":100,\"output_len\":20,"
				+ "\"range_ratio\":0.5,\"ignore_eos\":true}");
		assertThat(from(Map.of("workload", "random", "ignore.eos", "false")).requests("m", false)
				.conversation(0)
				.first()
				.toJson()
				.has("ignore_eos")).isFalse();
	}

	@Test
	@DisplayName("prefix gives N shared system prompts of P words, each request its own suffix")
	void prefix() {
		Workload workload = from(Map.of("workload", "prefix", "prefix.count", "2", "prefix.len", "40", "prefix.suffix.len", "5"));
		RequestSource source = workload.requests("m", true);
		String p0 = source.conversation(0).first().messages().get(0).path("content").asText();
		assertThat(p0.split(" ")).hasSize(40);
		assertThat(source.conversation(2).first().messages().get(0).path("content").asText()).isEqualTo(p0);
		assertThat(source.conversation(1).first().messages().get(0).path("content").asText()).isNotEqualTo(p0);
		assertThat(source.conversation(2).first().messages().get(1).path("content").asText())
				.isNotEqualTo(source.conversation(0).first().messages().get(1).path("content").asText());
		assertThat(source.conversation(0).first().promptTokensAsked()).isEqualTo(OptionalInt.of(45));
		assertThat(json(workload).path("prefix_count").asInt()).isEqualTo(2);
	}

	@Test
	@DisplayName("sharegpt reads a ShareGPT file, leaves out what vLLM would, and takes max_tokens from the reply")
	void shareGpt() throws Exception {
		Path file = Files.writeString(dir.resolve("s.json"),
				"[{\"conversations\":[{\"from\":\"human\",\"value\":\"one two three four five\"},"
						+ "{\"from\":\"gpt\",\"value\":\"a b c d e f\"}]},{\"conversations\":[{\"from\":\"human\",\"value\":\"hi\"},{\"from\":\"gpt\","
						+ "\"value\":\"hello there how are you\"}]},{\"conversations\":[{\"from\":\"human\",\"value\":\"alone\"}]}]");
		Workload workload = from(Map.of("workload", "sharegpt", "dataset.path", file.toString()));
		ChatPayload payload = workload.requests("m", false).conversation(5).first();
		assertThat(payload.messages().get(0).path("content").asText()).isEqualTo("one two three four five");
		assertThat(payload.maxTokens()).isEqualTo(6);
		assertThat(json(workload).path("pairs").asInt()).isEqualTo(1);
		assertThat(json(workload).path("skipped").asInt()).isEqualTo(2);
	}

	@Test
	@DisplayName("agentic answers each proposed call with a tool result, some injected, and ends when no call comes or the rounds are done")
	void agentic() {
		AgenticWorkload workload = new AgenticWorkload(2, 1.0, 8, 11);
		Conversation conversation = workload.requests("m", true).conversation(0);
		ChatPayload first = conversation.first();
		assertThat(first.toJson().path("tools")).hasSize(3);
		assertThat(first.messages().get(1).path("content").asText()).contains("CALL ").contains("\nTHEN\n");
		ChatPayload second = conversation.next(answer(List.of(new RequestDetail.Call("c1", "allow_read", "{\"p\": 1}"),
				new RequestDetail.Call("", "transform_exec", "{\"redacted\":true}")))).orElseThrow();
		JsonNode messages = second.messages();
		assertThat(messages).hasSize(5);
		assertThat(messages.get(2).path("tool_calls").get(1).path("id").asText()).isEqualTo("call_0_1");
		assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("c1");
		assertThat(messages.get(4).path("content").asText()).contains(AgenticWorkload.INJECTION);
		ChatPayload third = conversation.next(answer(List.of(new RequestDetail.Call("c2", "allow_read", "{}")))).orElseThrow();
		assertThat(third.messages()).hasSize(7);
		assertThat(conversation.next(answer(List.of(new RequestDetail.Call("c3", "allow_read", "{}"))))).as("rounds done").isEmpty();
		Conversation other = workload.requests("m", true).conversation(1);
		other.first();
		assertThat(other.next(answer(List.of()))).as("no call, the loop ends").isEmpty();
		assertThat(new AgenticWorkload(1, 0, 8, 11).requests("m", true)
				.conversation(0)
				.next(answer(List.of(
						new RequestDetail.Call("c", "allow_read", "{}"))))
				.orElseThrow()
				.messages()
				.get(3)
				.path("content")
				.asText())
				.doesNotContain(AgenticWorkload.INJECTION);
	}

	private static RequestOutcome answer(List<RequestDetail.Call> calls) {
		return new RequestOutcome("raw", 0, false, 0, 0, 1, 200, null, 1, 2, new double[0], new double[0], false, 1, TokenSource.USAGE,
				OptionalInt.empty(), "", null, new RequestDetail(0, 0, OptionalInt.empty(), 8, OptionalInt.empty(), calls, "tool_calls"));
	}

	@Test
	@DisplayName("a bad workload configuration fails naming the parameter, the value and the fix")
	void badConfiguration() {
		assertThatThrownBy(() -> from(Map.of("workload", "chatbot"))).isInstanceOf(ConfigurationException.class)
				.hasMessage(
						"Unable to parse workload value [chatbot]: expected one of [fixed, random, sharegpt, prefix, agentic]. Fix: pass "
								+ "-Dworkload=random or remove it to use the default (fixed).");
		assertThatThrownBy(() -> from(Map.of("workload", "sharegpt"))).hasMessageStartingWith("workload=sharegpt needs dataset.path. "
				+ "Fix: pass -Ddataset.path=fixtures/workloads/sharegpt-sample.json");
		assertThatThrownBy(() -> from(Map.of("workload", "sharegpt", "dataset.path", dir.resolve("none.json").toString())))
				.hasMessageStartingWith(
						"Unable to use dataset.path value [" + dir.resolve("none.json") + "]: cannot read the ShareGPT file");
		assertThatThrownBy(() -> from(Map.of("workload", "random", "range.ratio", "1.5")))
				.hasMessage(
						"Unable to parse range.ratio value [1.5]: expected a number within [0.0, 0.999]. Fix: pass -Drange.ratio=0.0 or "
								+ "remove it to use the default.");
		assertThatThrownBy(() -> from(Map.of("workload", "random", "workload.seed", "x")))
				.hasMessage(
						"Unable to parse workload.seed value [x]: expected an integer. Fix: pass -Dworkload.seed=7 or remove it to use the "
								+ "default.");
	}
}
