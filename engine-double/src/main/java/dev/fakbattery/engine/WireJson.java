package dev.fakbattery.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * Compact JSON as the engines send it (no spaces, raw UTF-8), from the battery's shared mapper.
 *
 * @since 0.1
 */
final class WireJson {

	private static final ObjectWriter COMPACT = Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

	private WireJson() {
	}

	static ObjectNode object() {
		return Json.MAPPER.createObjectNode();
	}

	static ArrayNode array() {
		return Json.MAPPER.createArrayNode();
	}

	static String write(JsonNode node) {
		try {
			return COMPACT.writeValueAsString(node);
		} catch (JsonProcessingException e) {
			throw new IllegalStateException("a JSON tree must serialize", e);
		}
	}
}
