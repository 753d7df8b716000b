package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules about what the gateway must leave as the engine sent it (W01, W05, W08 to W10, W15, W21, W22, W25,
 * W27, W28). RULES.md gives each rule's MUST sentence and what to check when it fails.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public abstract class PassThroughRules extends WireConformanceKit {

	static final String TARGETS = "targets";
	static final String NAME = "{0} {1}";

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W01 model alias reaches upstream, engine model comes back on every chunk")
	public void required_W01_modelAlias(Dialect engine, String mode) {
		Sent sent = send(engine, mode, Scenario.MIXED);
		String upstreamModel = upstream(engine).received(sent.nonce())
				.map(r -> WireJson.readObject(r.body()).path("model").asText())
				.orElse("<no request upstream>");
		require(upstreamModel.equals(ALIAS), WireRule.W01, engine, mode, "upstream model [" + ALIAS + "]", "[" + upstreamModel + "]");
		String engineModel = truth(engine, mode, Scenario.MIXED).model().orElseThrow();
		List<String> wrong = sent.answer().models().stream().filter(m -> !m.equals(engineModel)).distinct().toList();
		require(wrong.isEmpty() && !sent.answer().models().isEmpty(), WireRule.W01, engine, mode, "response model " + engineModel
				+ (stream(mode) ? " on every chunk" : ""),
				sent.answer().models().isEmpty() ? "no chunk (status " + sent.answer().status + ")" : wrong);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W05 content alongside tool calls kept")
	public void required_W05_contentKept(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.MIXED, Scenario.INTERLEAVED)) {
			String expected = truth(engine, mode, scenario).content();
			String observed = send(engine, mode, scenario).answer().content();
			require(observed.equals(expected), WireRule.W05, engine, mode, "content [" + expected + "]", "[" + observed + "]");
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W08 usage kept, on every answer")
	public void required_W08_usageKept(Dialect engine, String mode) {
		for (Scenario scenario : Scenario.NORMAL) {
			Exchange answer = send(engine, mode, scenario).answer();
			Optional<ObjectNode> expected = truth(engine, mode, scenario).usage();
			Optional<ObjectNode> observed = answer.usage();
			require(observed.equals(expected), WireRule.W08, engine, mode, "usage " + expected.map(Object::toString).orElse("absent") + " ("
					+ scenario.marker() + ")", observed.map(Object::toString).orElse("no usage"));
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W09 upstream error statuses, bodies and Retry-After pass through")
	public void required_W09_errorsPassThrough(Dialect engine, String mode) {
		for (String error : upstream(engine).errorFixtures()) {
			Exchange answer = send(engine, mode, KitUpstream.errorMarker(error), Map.of()).answer();
			JsonNode expected = WireJson.readObject(KitFixtures.read(error + ".json"));
			int status = KitUpstream.status(error);
			require(answer.status == status && WireJson.read(answer.body).equals(Optional.of(expected)), WireRule.W09, engine,
					mode, "status " + status + " and body " + expected + " (" + error + ")", describe(answer));
			if (status == 429) {
				Optional<String> retryAfter = answer.headers.firstValue("Retry-After");
				require(retryAfter.equals(Optional.of(KitUpstream.RETRY_AFTER)), WireRule.W09, engine, mode, "Retry-After: "
						+ KitUpstream.RETRY_AFTER + " with the 429", retryAfter.map(v -> "Retry-After: " + v).orElse("no Retry-After"));
			}
		}
		Exchange fiveHundred = send(engine, mode, "kit:error500", Map.of()).answer();
		require(fiveHundred.status == 500, WireRule.W09, engine, mode, "status 500 passed through (kit:error500)", describe(fiveHundred));
		JsonNode body = WireJson.readObject(upstream(engine).error500());
		require(WireJson.read(fiveHundred.body).equals(Optional.of(body)), WireRule.W09, engine, mode, "the 500 body " + body,
				fiveHundred.body);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W10 in-stream error frames pass through and [DONE] ends the stream")
	public void required_W10_streamErrorFrame(Dialect engine, String mode) {
		onlyWhenStreaming(mode, WireRule.W10, "concerns SSE error frames");
		Exchange answer = send(engine, mode, Scenario.STREAM_ERROR).answer();
		JsonNode expected = truth(engine, mode, Scenario.STREAM_ERROR).errorFrames().get(0).json().orElseThrow();
		List<JsonNode> frames = answer.errorFrames().stream().map(e -> (JsonNode) e.json().orElse(null)).toList();
		require(answer.status == 200 && frames.contains(expected), WireRule.W10, engine, mode, "status 200 with error frame " + expected,
				"status " + answer.status + " frames " + frames);
		boolean endsWithDone = !answer.events.isEmpty() && answer.events.get(answer.events.size() - 1).event().isDone();
		require(endsWithDone, WireRule.W10, engine, mode, "[DONE] as the last event", answer.events.isEmpty()
				? "no events"
				: "last event "
						+ answer.events.get(answer.events.size() - 1).event());
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W15 X-Request-Id passed to the upstream")
	public void required_W15_requestId(Dialect engine, String mode) {
		String id = "kit-req-" + System.nanoTime();
		Sent sent = send(engine, mode, Scenario.TEXT.marker(), Map.of("X-Request-Id", id));
		String seen = upstream(engine).received(sent.nonce()).map(r -> r.header("X-Request-Id")).orElse(null);
		require(id.equals(seen), WireRule.W15, engine, mode, "X-Request-Id " + id + " upstream", seen);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W21 chunks and bodies of allowed answers pass unchanged, unknown keys included")
	public void required_W21_unchanged(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.TEXT, Scenario.ALLOW, Scenario.EXTRAS)) {
			Optional<String> difference = WireChecks.unchanged(truth(engine, mode, scenario), send(engine, mode, scenario).answer());
			require(difference.isEmpty(), WireRule.W21, engine, mode,
					"the upstream's " + (stream(mode) ? "chunks" : "body") + " unchanged ("
							+ scenario.marker() + ")",
					difference.orElse(""));
		}
		for (Scenario scenario : List.of(Scenario.MIXED, Scenario.INTERLEAVED)) {
			List<String> upstreamStamps = truth(engine, mode, scenario).chunkNodes().stream().map(PassThroughRules::stamp).toList();
			List<String> foreign = send(engine, mode, scenario).answer()
					.chunkNodes()
					.stream()
					.map(PassThroughRules::stamp)
					.filter(s -> !upstreamStamps.contains(s))
					.distinct()
					.toList();
			require(foreign.isEmpty(), WireRule.W21, engine, mode,
					"every chunk with an upstream chunk's id, created and system_fingerprint ("
							+ scenario.marker() + ")",
					foreign);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W22 per-chunk usage (continuous_usage_stats) kept on every forwarded chunk")
	public void required_W22_continuousUsage(Dialect engine, String mode) {
		onlyWhenStreaming(mode, WireRule.W22, "concerns per-chunk usage of a stream");
		List<String> wrong = WireChecks.chunkUsage(truth(engine, mode, Scenario.CONTINUOUS_USAGE),
				send(engine, mode, Scenario.CONTINUOUS_USAGE).answer());
		require(wrong.isEmpty(), WireRule.W22, engine, mode, "every chunk with one of the upstream's usage objects, in order",
				wrong.size() + " chunk(s) without, first " + wrong.stream().findFirst().orElse(""));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W25 reasoning, content and finish_reason length kept")
	public void required_W25_reasoningAndLength(Dialect engine, String mode) {
		Exchange truth = truth(engine, mode, Scenario.REASONING);
		Exchange answer = send(engine, mode, Scenario.REASONING).answer();
		List<String> expected = List.of(truth.reasoning(), truth.content(), truth.finishReason().orElse("none"));
		List<String> observed = List.of(answer.reasoning(), answer.content(), answer.finishReason().orElse("none"));
		require(observed.equals(expected), WireRule.W25, engine, mode, "reasoning, content, finish_reason " + expected, observed);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W27 request parameters reach the upstream unchanged")
	public void required_W27_requestParameters(Dialect engine, String mode) {
		Sent sent = send(engine, mode, Scenario.TEXT);
		ObjectNode received = upstream(engine).received(sent.nonce())
				.map(r -> WireJson.readObject(r.body()))
				.orElse(Json.MAPPER.createObjectNode());
		List<String> changed = new ArrayList<>();
		for (String field : List.of("tools", "tool_choice", "stream_options", "temperature", "max_tokens", "stream")) {
			if (!String.valueOf(sent.request().get(field)).equals(String.valueOf(received.get(field)))) {
				changed.add(field + " " + received.get(field));
			}
		}
		require(changed.isEmpty(), WireRule.W27, engine, mode, "tools, tool_choice, stream_options, temperature, max_tokens as sent",
				received.isEmpty() ? "no request upstream" : changed);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W28 engine-specific request parameters reach the upstream unchanged")
	public void required_W28_engineParameters(Dialect engine, String mode) {
		ObjectNode parameters = engineParameters(engine);
		Sent sent = sendWith(engine, mode, Scenario.TEXT, parameters);
		ObjectNode received = upstream(engine).received(sent.nonce())
				.map(r -> WireJson.readObject(r.body()))
				.orElse(Json.MAPPER.createObjectNode());
		List<String> changed = new ArrayList<>();
		parameters.fieldNames().forEachRemaining(field -> {
			if (!String.valueOf(parameters.get(field)).equals(String.valueOf(received.get(field)))) {
				changed.add(field + " " + received.get(field));
			}
		});
		require(changed.isEmpty(), WireRule.W28, engine, mode, String.join(", ", (Iterable<String>) parameters::fieldNames) + " as sent",
				received.isEmpty() ? "no request upstream" : changed);
	}

	/**
	 * What a user of {@code engine} sends beyond OpenAI's parameters: sampling ({@code top_k}, {@code min_p},
	 * {@code repetition_penalty}), the chat template's arguments, and structured output (vLLM's {@code structured_outputs};
	 * {@code response_format} with a JSON schema, which both read).
	 */
	static ObjectNode engineParameters(Dialect engine) {
		ObjectNode parameters = Json.MAPPER.createObjectNode();
		parameters.put("top_k", 20).put("min_p", 0.05).put("repetition_penalty", 1.1);
		parameters.putObject("chat_template_kwargs").put("enable_thinking", false);
		ObjectNode schema = Json.MAPPER.createObjectNode().put("type", "object");
		schema.putObject("properties").putObject("city").put("type", "string");
		if (engine == Dialect.VLLM) {
			parameters.putObject("structured_outputs").set("json", schema.deepCopy());
		}
		ObjectNode format = parameters.putObject("response_format").put("type", "json_schema").putObject("json_schema");
		format.put("name", "kit_city").set("schema", schema);
		return parameters;
	}

	/** The id, created and system_fingerprint of a chunk, as one string. */
	private static String stamp(ObjectNode chunk) {
		return chunk.path("id").asText() + " created " + chunk.path("created").asText() + " fingerprint "
				+ chunk.path("system_fingerprint").asText("-");
	}

	static String abbreviate(String text) {
		return text.length() <= 240 ? text : text.substring(0, 240) + "...";
	}
}
