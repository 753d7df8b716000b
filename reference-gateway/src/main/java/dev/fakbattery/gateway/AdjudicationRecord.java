package dev.fakbattery.gateway;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.policy.Action;
import dev.fakbattery.wire.Json;

/**
 * What the gateway decided for one request, in the kit's adjudication record format:
 * <pre>
 * {"calls":[{"id","tool","action":"ALLOW|DENY|TRANSFORM","rule","reason"}],
 *  "result_admissions":[{"tool_call_id","tool","verdict":"QUARANTINE","kinds":["injection","secret"]}]}
 * </pre>
 * It goes to the gateway's record log for every chat completion. On the wire only when the client asked for it
 * ({@link dev.fakbattery.wire.spi.GatewayUnderTest#RECORD_HEADER}) or the gateway runs with {@code --record-on-wire}:
 * then non-stream responses carry it as {@code "adjudication"} and streams send it as the data of a last
 * {@code event: adjudication} just before {@code data: [DONE]}. A client that did not ask gets plain OpenAI answers:
 * the official SDKs read every {@code data:} event as a chunk, whatever its {@code event:} name. Confined to the
 * request's thread.
 */
final class AdjudicationRecord {

	/** The extension key of a non-stream response, and the SSE event name of a stream. */
	static final String KEY = "adjudication";

	private final ArrayNode calls = Json.MAPPER.createArrayNode();

	private final ArrayNode admissions = Json.MAPPER.createArrayNode();

	void call(String id, String tool, Action action, String rule, String reason) {
		ObjectNode call = calls.addObject();
		call.put("id", id);
		call.put("tool", tool);
		call.put("action", action.name());
		call.put("rule", rule);
		call.put("reason", reason);
	}

	void quarantine(String toolCallId, String tool, List<String> kinds) {
		ObjectNode admission = admissions.addObject();
		admission.put("tool_call_id", toolCallId);
		admission.put("tool", tool);
		admission.put("verdict", "QUARANTINE");
		ArrayNode kindArray = admission.putArray("kinds");
		kinds.forEach(kindArray::add);
	}

	int quarantines() {
		return admissions.size();
	}

	/** Whether nothing was decided: no call, no quarantine. */
	boolean isEmpty() {
		return calls.isEmpty() && admissions.isEmpty();
	}

	/** A fresh tree of the record; it has no {@code choices} key, so it cannot be read as a chunk. */
	ObjectNode toJson() {
		ObjectNode record = Json.MAPPER.createObjectNode();
		record.set("calls", calls.deepCopy());
		record.set("result_admissions", admissions.deepCopy());
		return record;
	}
}
