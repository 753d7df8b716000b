package dev.fakbattery.conformance.wire;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wire conformance rules, each named and displayed by its id, run for each engine dialect and
 * each mode. RULES.md gives each rule's MUST sentence and what to check when it fails.
 */
@DisplayName("wire conformance rules")
abstract class WireRules extends WireConformanceKit {

	static final String TARGETS = "targets";
	static final String NAME = "{0} {1}";

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W01 model alias reaches upstream, engine model comes back")
	void required_W01_modelAlias(Dialect engine, String mode) {
		Sent sent = send(engine, mode, Scenario.TEXT);
		String upstreamModel = upstream(engine).received(sent.nonce())
			.map(r -> WireJson.readObject(r.getBodyAsString()).path("model").asText()).orElse("<no request upstream>");
		require(upstreamModel.equals(ALIAS), "W01", engine, mode, "upstream model [" + ALIAS + "]", "[" + upstreamModel + "]");
		Optional<String> engineModel = truth(engine, mode, Scenario.TEXT).model();
		require(sent.answer().model().equals(engineModel), "W01", engine, mode, "response model " + engineModel.orElse("?"),
				sent.answer().model().orElse("<none>") + " (status " + sent.answer().status + ")");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W02 allow kept unchanged")
	void required_W02_allowKept(Dialect engine, String mode) {
		Exchange.Call proposed = truth(engine, mode, Scenario.ALLOW).calls().get(0);
		List<Exchange.Call> delivered = send(engine, mode, Scenario.ALLOW).answer().calls();
		boolean kept = delivered.stream().anyMatch(c -> proposed.id().equals(c.id()) && proposed.name().equals(c.name())
				&& proposed.arguments().equals(c.arguments()));
		require(kept, "W02", engine, mode, "call " + proposed.name() + " " + proposed.id() + " with arguments " + proposed.arguments()
				+ " byte-identical", delivered);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W03 deny dropped")
	void required_W03_denyDropped(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.DENY_ONLY, Scenario.MIXED)) {
			List<String> deniedIds = truth(engine, mode, scenario).calls().stream()
				.filter(c -> c.name().startsWith("deny_")).map(Exchange.Call::id).toList();
			List<Exchange.Call> delivered = send(engine, mode, scenario).answer().calls();
			List<Exchange.Call> leaked = delivered.stream()
				.filter(c -> deniedIds.contains(c.id()) || (c.name() != null && c.name().startsWith("deny_"))).toList();
			require(leaked.isEmpty(), "W03", engine, mode, "no denied call delivered (" + scenario.marker() + ")", leaked);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W04 transform redacted")
	void required_W04_transformRedacted(Dialect engine, String mode) {
		Exchange.Call proposed = truth(engine, mode, Scenario.MIXED).calls().stream()
			.filter(c -> c.name().startsWith("transform_")).findFirst().orElseThrow();
		Exchange answer = send(engine, mode, Scenario.MIXED).answer();
		Optional<Exchange.Call> delivered = answer.calls().stream().filter(c -> proposed.id().equals(c.id())).findFirst();
		Optional<JsonNode> arguments = delivered.flatMap(c -> WireJson.read(c.arguments()));
		require(arguments.equals(Optional.of(Json.MAPPER.createObjectNode().put("redacted", true))), "W04", engine, mode,
				"call " + proposed.id() + " with arguments {\"redacted\":true}", delivered);
		require(!answer.body.contains("rm -rf"), "W04", engine, mode, "no byte of the original arguments (rm -rf)", "them in the body");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W05 content alongside tool calls kept")
	void required_W05_contentKept(Dialect engine, String mode) {
		String expected = truth(engine, mode, Scenario.MIXED).content();
		String observed = send(engine, mode, Scenario.MIXED).answer().content();
		require(observed.equals(expected), "W05", engine, mode, "content [" + expected + "]", "[" + observed + "]");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W06 parallel calls adjudicated independently, survivors renumbered densely")
	void required_W06_parallelCalls(Dialect engine, String mode) {
		List<Exchange.Call> delivered = send(engine, mode, Scenario.MIXED).answer().calls();
		List<String> names = delivered.stream().map(Exchange.Call::name).toList();
		require(names.equals(List.of("allow_read", "transform_exec")), "W06", engine, mode, "calls [allow_read, transform_exec]", names);
		List<Integer> indexes = delivered.stream().map(Exchange.Call::index).toList();
		boolean dense = stream(mode) ? indexes.equals(List.of(0, 1))
				: indexes.stream().allMatch(i -> i == null) || indexes.equals(List.of(0, 1));
		require(dense, "W06", engine, mode, "surviving calls indexed [0, 1]", indexes);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W07 finish_reason consistent with surviving calls")
	void required_W07_finishReason(Dialect engine, String mode) {
		Optional<String> mixed = send(engine, mode, Scenario.MIXED).answer().finishReason();
		require(mixed.equals(Optional.of("tool_calls")), "W07", engine, mode, "tool_calls when a call survives", mixed);
		Optional<String> denied = send(engine, mode, Scenario.DENY_ONLY).answer().finishReason();
		require(denied.equals(Optional.of("stop")), "W07", engine, mode, "stop when every call was denied", denied);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W08 usage kept")
	void required_W08_usageKept(Dialect engine, String mode) {
		Optional<ObjectNode> expected = truth(engine, mode, Scenario.MIXED).usage();
		Optional<ObjectNode> observed = send(engine, mode, Scenario.MIXED).answer().usage();
		require(expected.isPresent() && observed.equals(expected), "W08", engine, mode, "usage " + expected.orElse(null),
				observed.map(Object::toString).orElse("no usage"));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W09 upstream error statuses and bodies pass through")
	void required_W09_errorsPassThrough(Dialect engine, String mode) {
		for (String error : upstream(engine).errorFixtures()) {
			Exchange answer = send(engine, mode, "kit:error:" + error, Map.of()).answer();
			JsonNode expected = WireJson.readObject(KitFixtures.read(engine + "/" + error + ".json"));
			require(answer.status == KitUpstream.status(error) && WireJson.read(answer.body).equals(Optional.of(expected)), "W09", engine,
					mode, "status " + KitUpstream.status(error) + " and body " + expected, "status " + answer.status + " body " + answer.body);
		}
		Exchange fiveHundred = send(engine, mode, "kit:error500", Map.of()).answer();
		require(fiveHundred.status == 500, "W09", engine, mode, "status 500 passed through", "status " + fiveHundred.status);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W10 in-stream error frames pass through and [DONE] ends the stream")
	void required_W10_streamErrorFrame(Dialect engine, String mode) {
		onlyWhenStreaming(mode, "W10", "concerns SSE error frames");
		Exchange answer = send(engine, mode, Scenario.STREAM_ERROR).answer();
		JsonNode expected = truth(engine, mode, Scenario.STREAM_ERROR).errorFrames().get(0).json().orElseThrow();
		List<JsonNode> frames = answer.errorFrames().stream().map(e -> (JsonNode) e.json().orElse(null)).toList();
		require(answer.status == 200 && frames.contains(expected), "W10", engine, mode, "status 200 with error frame " + expected,
				"status " + answer.status + " frames " + frames);
		boolean endsWithDone = !answer.events.isEmpty() && answer.events.get(answer.events.size() - 1).event().isDone();
		require(endsWithDone, "W10", engine, mode, "[DONE] as the last event", answer.events.isEmpty() ? "no events" : "last event "
				+ answer.events.get(answer.events.size() - 1).event());
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W11 malformed or truncated upstream gives 502 and leaks no call")
	void required_W11_badUpstream502(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.TRUNCATED, Scenario.MALFORMED)) {
			Exchange answer = send(engine, mode, scenario).answer();
			boolean signalled = stream(mode) && answer.status == 200 ? !answer.errorFrames().isEmpty()
					: answer.status == 502 && answer.json().map(j -> j.path("error").isObject()).orElse(false);
			require(signalled, "W11", engine, mode, "502 with an OpenAI-shaped error (or, once streaming, an error frame) for "
					+ scenario.marker(), "status " + answer.status + " body " + abbreviate(answer.body));
			int leaked = stream(mode) ? answer.toolCallDeltas().size() : answer.calls().size();
			require(leaked == 0, "W11", engine, mode, "no tool call (not even a partial one) for " + scenario.marker(),
					leaked + " tool-call item(s)");
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W12 poisoned tool result quarantined")
	void required_W12_quarantine(Dialect engine, String mode) {
		Sent sent = send(engine, mode, Scenario.QUARANTINE);
		String upstreamBody = upstream(engine).received(sent.nonce()).map(r -> r.getBodyAsString()).orElse("");
		require(sent.answer().status == 200, "W12", engine, mode, "status 200", sent.answer().status);
		require(!upstreamBody.isEmpty() && !lower(upstreamBody).contains(lower(SECRET)), "W12", engine, mode,
				"the request forwarded upstream without the secret", upstreamBody.isEmpty() ? "nothing forwarded" : "the secret upstream");
		require(!lower(sent.answer().body).contains(lower(SECRET)), "W12", engine, mode, "a response without the secret",
				"the secret in the response");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W13 no streamed byte of a denied call")
	void required_W13_noDeniedBytes(Dialect engine, String mode) {
		onlyWhenStreaming(mode, "W13", "concerns streamed deltas");
		Exchange.Call denied = truth(engine, mode, Scenario.MIXED).calls().stream()
			.filter(c -> c.name().startsWith("deny_")).findFirst().orElseThrow();
		Exchange answer = send(engine, mode, Scenario.MIXED).answer();
		StringBuilder chunkBytes = new StringBuilder();
		for (Exchange.Timed t : answer.events) {
			boolean record = gateway(engine).declaresAdjudicationRecord() && t.event().event().filter("adjudication"::equals).isPresent();
			if (!record) {
				chunkBytes.append(t.event().data()).append('\n');
			}
		}
		String wire = chunkBytes.toString();
		List<String> found = List.of(denied.id(), denied.name(), "/etc/passwd").stream().filter(wire::contains).toList();
		require(found.isEmpty(), "W13", engine, mode, "none of " + List.of(denied.id(), denied.name(), "/etc/passwd")
				+ " in the streamed chunks", found);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W14 streaming not buffered")
	void stochastic_W14_notBuffered(Dialect engine, String mode) {
		onlyWhenStreaming(mode, "W14", "concerns streaming");
		Exchange answer = send(engine, mode, Scenario.PACED).answer();
		long lead = answer.firstTokenNanos().map(t -> (answer.endedNanos - t) / 1_000_000).orElse(-1L);
		require(lead >= KitUpstream.PACED_MILLIS / 2, "W14", engine, mode, "the first content delta at least " + KitUpstream.PACED_MILLIS / 2
				+ " ms before the end of a stream the upstream paces over " + KitUpstream.PACED_MILLIS + " ms",
				lead < 0 ? "no content delta" : "it " + lead + " ms before the end");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W15 X-Request-Id passed to the upstream")
	void required_W15_requestId(Dialect engine, String mode) {
		String id = "kit-req-" + System.nanoTime();
		Sent sent = send(engine, mode, Scenario.TEXT.marker(), Map.of("X-Request-Id", id));
		String seen = upstream(engine).received(sent.nonce()).map(r -> r.getHeader("X-Request-Id")).orElse(null);
		require(id.equals(seen), "W15", engine, mode, "X-Request-Id " + id + " upstream", seen);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W16 bad client input gives 400")
	void required_W16_badInput400(Dialect engine, String mode) {
		Exchange garbage = client.post(gateway(engine).baseUrl(), "{not json", stream(mode), Map.of());
		require(garbage.status == 400 && WireJson.read(garbage.body).map(j -> j.path("error").isObject()).orElse(false), "W16", engine,
				mode, "400 with an OpenAI-shaped error for a body that is not JSON", "status " + garbage.status + " body " + abbreviate(garbage.body));
		ObjectNode empty = request("unused", stream(mode));
		empty.putArray("messages");
		Exchange noMessages = client.post(gateway(engine).baseUrl(), empty.toString(), stream(mode), Map.of());
		require(noMessages.status == 400, "W16", engine, mode, "400 for empty messages", "status " + noMessages.status);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W17 adjudication record: one entry per proposed call")
	void optional_W17_adjudicationRecord(Dialect engine, String mode) {
		onlyWhenRecordDeclared(engine, "W17");
		Exchange answer = send(engine, mode, Scenario.MIXED).answer();
		JsonNode record = stream(mode)
				? answer.events.stream().map(Exchange.Timed::event).filter(e -> e.event().filter("adjudication"::equals).isPresent())
					.findFirst().flatMap(SseEvent::json).map(JsonNode.class::cast).orElse(Json.MAPPER.missingNode())
				: answer.json().map(j -> j.path("adjudication")).orElse(Json.MAPPER.missingNode());
		java.util.Map<String, String> actions = new java.util.LinkedHashMap<>();
		record.path("calls").forEach(c -> actions.put(c.path("tool").asText(), c.path("action").asText()));
		require(actions.equals(Map.of("allow_read", "ALLOW", "deny_write", "DENY", "transform_exec", "TRANSFORM")), "W17", engine, mode,
				"{allow_read=ALLOW, deny_write=DENY, transform_exec=TRANSFORM}", record.isMissingNode() ? "no record" : actions);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W18 engine prefix cache reset after a quarantine")
	void optional_W18_cacheReset(Dialect engine, String mode) {
		onlyWhenRecordDeclared(engine, "W18");
		int before = upstream(engine).cacheResets();
		send(engine, mode, Scenario.QUARANTINE);
		int after = upstream(engine).cacheResets();
		require(after > before, "W18", engine, mode, "a POST " + engine.cacheResetPath()
				+ " after the quarantine", (after - before) + " reset(s)");
	}

	private static String abbreviate(String text) {
		return text.length() <= 160 ? text : text.substring(0, 160) + "...";
	}
}
