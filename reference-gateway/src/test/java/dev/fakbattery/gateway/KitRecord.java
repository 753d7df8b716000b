package dev.fakbattery.gateway;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.Json;

/** The adjudication record the kit policy must produce for a fixture's calls, written out independently. */
final class KitRecord {

	private KitRecord() {
	}

	/** The record for the calls of a non-stream fixture response, in order, with no result admissions. */
	static ObjectNode forResponse(JsonNode response) {
		ObjectNode record = empty();
		for (JsonNode call : response.at("/choices/0/message/tool_calls")) {
			add(record, call.path("id").textValue(), call.at("/function/name").textValue());
		}
		return record;
	}

	/** The record for calls reassembled from a stream fixture. */
	static ObjectNode forCalls(List<AssembledToolCall> calls) {
		ObjectNode record = empty();
		calls.forEach(call -> add(record, call.id().orElseThrow(), call.name().orElseThrow()));
		return record;
	}

	static ObjectNode empty() {
		ObjectNode record = Json.MAPPER.createObjectNode();
		record.putArray("calls");
		record.putArray("result_admissions");
		return record;
	}

	private static void add(ObjectNode record, String id, String tool) {
		ObjectNode call = ((ArrayNode) record.get("calls")).addObject();
		call.put("id", id);
		call.put("tool", tool);
		if (tool.startsWith("allow_")) {
			call.put("action", "ALLOW").put("rule", "allow_*").put("reason", "allowed by rule allow_*");
		}
		else if (tool.startsWith("deny_")) {
			call.put("action", "DENY").put("rule", "deny_*").put("reason", "POLICY_BLOCK");
		}
		else if (tool.startsWith("transform_")) {
			call.put("action", "TRANSFORM").put("rule", "transform_*").put("reason", "transformed by rule transform_*");
		}
		else {
			call.put("action", "DENY").put("rule", "<default>").put("reason", "no rule matches this tool (default deny)");
		}
	}
}
