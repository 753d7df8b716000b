package dev.fakbattery.gateway;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.policy.ResultAdmission;

/**
 * Result admission on a client request: every {@code role:"tool"} message whose content
 * {@link ResultAdmission#inspect(String) carries an injection or a secret} gets its content replaced by
 * {@link ResultAdmission#replacement(List)}, in place, and is recorded as a quarantine. Content given as parts
 * ({@code [{"type":"text","text":...}]}) is inspected as its text parts joined.
 */
final class ResultQuarantine {

	private ResultQuarantine() {
	}

	/**
	 * Quarantines the flagged tool results of {@code request} in place.
	 *
	 * @return how many results were quarantined; when more than zero the request must be re-serialised
	 */
	static int apply(ObjectNode request, AdjudicationRecord record) {
		JsonNode messages = request.path("messages");
		int quarantined = 0;
		for (int i = 0; i < messages.size(); i++) {
			if (!(messages.get(i) instanceof ObjectNode message) || !"tool".equals(message.path("role").textValue())) {
				continue;
			}
			List<String> kinds = ResultAdmission.inspect(text(message.get("content")));
			if (!kinds.isEmpty()) {
				message.put("content", ResultAdmission.replacement(kinds));
				String callId = message.path("tool_call_id").textValue();
				record.quarantine(callId, toolName(messages, i, message, callId), kinds);
				quarantined++;
			}
		}
		return quarantined;
	}

	private static String text(JsonNode content) {
		if (content == null || content.isNull()) {
			return null;
		}
		if (content.isTextual()) {
			return content.textValue();
		}
		if (content.isArray()) {
			StringBuilder text = new StringBuilder();
			content.forEach(part -> text.append(part.path("text").asText("")).append('\n'));
			return text.toString();
		}
		return content.toString();
	}

	/** The message's {@code name}, else the name of the assistant call it answers, else null. */
	private static String toolName(JsonNode messages, int position, ObjectNode message, String callId) {
		if (message.path("name").isTextual()) {
			return message.get("name").textValue();
		}
		for (int i = position - 1; i >= 0 && callId != null; i--) {
			for (JsonNode call : messages.get(i).path("tool_calls")) {
				if (callId.equals(call.path("id").textValue())) {
					return call.path("function").path("name").textValue();
				}
			}
		}
		return null;
	}
}
