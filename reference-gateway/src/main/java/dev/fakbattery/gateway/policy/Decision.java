package dev.fakbattery.gateway.policy;

import java.util.List;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.fakbattery.wire.Json;

/**
 * The decision of one policy rule; built once when the policy loads, so deciding allocates nothing.
 *
 * @param rule the rule's tool glob, or {@code <default>}
 * @param replacement arguments that replace the call's arguments (TRANSFORM), or null
 * @param redactions JSON pointers whose values become {@value #REDACTED} (TRANSFORM), possibly empty
 * @since 0.1
 */
public record Decision(Action action, String rule, String reason, JsonNode replacement, List<JsonPointer> redactions) {

	public static final String REDACTED = "[REDACTED]";

	public Decision {
		redactions = List.copyOf(redactions);
		if (action == Action.TRANSFORM && replacement == null && redactions.isEmpty()) {
			throw new IllegalArgumentException("a transform needs 'arguments' or 'redact'");
		}
	}

	/**
	 * The arguments this decision lets out: unchanged for ALLOW, rewritten for TRANSFORM.
	 *
	 * @throws IllegalArgumentException for redactions on arguments that are not a JSON object
	 */
	public String apply(String arguments) {
		if (action != Action.TRANSFORM) {
			return arguments;
		}
		if (replacement != null) {
			return replacement.toString();
		}
		JsonNode tree;
		try {
			tree = Json.MAPPER.readTree(arguments);
		}
		catch (JsonProcessingException e) {
			throw new IllegalArgumentException("arguments are not JSON, cannot redact: " + e.getOriginalMessage());
		}
		for (JsonPointer pointer : redactions) {
			JsonNode parent = tree.at(pointer.head());
			if (parent instanceof ObjectNode object && object.has(pointer.last().getMatchingProperty())) {
				object.set(pointer.last().getMatchingProperty(), TextNode.valueOf(REDACTED));
			}
		}
		return tree.toString();
	}
}
