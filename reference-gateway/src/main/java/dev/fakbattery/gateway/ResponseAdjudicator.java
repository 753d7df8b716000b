package dev.fakbattery.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireFormatException;

/**
 * Adjudicates a non-stream {@code chat.completion} in place. Per choice: ALLOW calls stay untouched (their
 * {@code arguments} string byte-identical), DENY calls are removed, TRANSFORM calls get the new arguments; the
 * survivors keep their order and, where the engine numbers them ({@code index}, SGLang), are renumbered 0..n-1.
 * A choice left without calls loses {@code tool_calls} the way its engine writes a call-less message, and
 * {@code finish_reason:"tool_calls"} becomes {@code "stop"}. Content, ids, nulls, usage, {@code model} and unknown
 * keys are left as the upstream sent them, but for one: an answer whose calls were changed (one denied or transformed)
 * loses llama.cpp's {@code __verbose} (its debug copy of the result, sent with {@code -lv 10}: its {@code content} is
 * the model's raw text, the calls in it as the model wrote them, JSON-escaped). Dropped, not redacted: it is debug
 * output no client reads, and a redaction would have to find the call in the raw text of every chat format.
 */
final class ResponseAdjudicator {

	private ResponseAdjudicator() {
	}

	/** @throws WireFormatException when a {@code tool_calls} entry is not an object (the gateway answers 502) */
	static void adjudicate(ObjectNode response, CallAdjudicator adjudicator, Dialect engine) {
		boolean changed = false;
		for (JsonNode choice : response.path("choices")) {
			if (choice instanceof ObjectNode choiceNode && choiceNode.get("message") instanceof ObjectNode message) {
				Kept kept = adjudicateCalls(message, adjudicator, engine);
				changed |= kept.changed();
				if (kept.survivors() == 0 && "tool_calls".equals(choiceNode.path("finish_reason").textValue())) {
					choiceNode.put("finish_reason", "stop");
				}
			}
		}
		if (changed) {
			response.remove(VERBOSE);
		}
	}

	/** llama.cpp's debug copy of the result ({@code -lv 10}), the model's raw text in its {@code content}. */
	static final String VERBOSE = "__verbose";

	/** What adjudication left of a message's calls: how many survive, whether one was denied or transformed. */
	private record Kept(int survivors, boolean changed) {
	}

	private static Kept adjudicateCalls(ObjectNode message, CallAdjudicator adjudicator, Dialect engine) {
		JsonNode calls = message.get("tool_calls");
		if (calls == null || !calls.isArray() || calls.isEmpty()) {
			return new Kept(0, false);
		}
		boolean changed = false;
		ArrayNode kept = Json.MAPPER.createArrayNode();
		for (JsonNode call : calls) {
			if (!(call instanceof ObjectNode out)) {
				throw new WireFormatException("tool_calls[] entry is not an object: " + call);
			}
			JsonNode function = out.path("function");
			CallAdjudicator.Outcome outcome = adjudicator.adjudicate(call.path("id").textValue(),
					function.path("name").textValue(), function.path("arguments").textValue());
			if (!outcome.survives()) {
				changed = true;
				continue;
			}
			if (outcome.action() == Action.TRANSFORM && function instanceof ObjectNode fn) {
				fn.put("arguments", outcome.arguments());
				changed = true;
			}
			if (out.has("index")) {
				out.put("index", kept.size());
			}
			kept.add(out);
		}
		if (kept.isEmpty()) {
			if (engine.writesNullToolCalls()) {
				message.putNull("tool_calls");
			}
			else {
				message.remove("tool_calls");
			}
		}
		else {
			message.set("tool_calls", kept);
		}
		return new Kept(kept.size(), changed);
	}
}
