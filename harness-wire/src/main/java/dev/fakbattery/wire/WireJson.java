package dev.fakbattery.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reading and writing wire JSON with the battery's mapper: compact output (as both engines send it), keys in
 * arrival order, and one rule for every accessor: a {@code null} value and an absent key both read as empty.
 *
 * @since 0.1
 */
public final class WireJson {

	private static final ObjectReader READER = Json.MAPPER.reader()
			.with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

	private static final ObjectWriter WRITER = Json.MAPPER.writer()
			.without(SerializationFeature.INDENT_OUTPUT);

	private WireJson() {
	}

	/** A new, empty object from the battery's mapper (keys kept in insertion order), to build a chunk or body. */
	public static ObjectNode object() {
		return Json.MAPPER.createObjectNode();
	}

	/** Parses one JSON object; anything else (an array, a scalar, invalid or trailing text) is a {@link WireFormatException}. */
	public static ObjectNode readObject(String json) {
		JsonNode node = read(json).orElseThrow(() -> new WireFormatException("not JSON: " + abbreviate(json)));
		if (node instanceof ObjectNode object) {
			return object;
		}
		throw new WireFormatException("expected a JSON object, got " + node.getNodeType() + ": " + abbreviate(json));
	}

	/** Parses one complete JSON value; empty for invalid JSON, an empty string or trailing text. */
	public static Optional<JsonNode> read(String json) {
		if (json == null || json.isBlank()) {
			return Optional.empty();
		}
		try {
			return Optional.of(READER.readTree(json));
		}
		catch (JsonProcessingException e) {
			return Optional.empty();
		}
	}

	/** Whether the text is exactly one JSON value (what a client's {@code json.loads(arguments)} would accept). */
	public static boolean isValid(String json) {
		return read(json).isPresent();
	}

	/** Compact JSON ({@code ","} and {@code ":"} without spaces, UTF-8 not escaped), the form both engines use for chunks and bodies. */
	public static String write(JsonNode node) {
		try {
			return WRITER.writeValueAsString(node);
		}
		catch (JsonProcessingException e) {
			throw new WireFormatException("could not write JSON: " + e.getMessage(), e);
		}
	}

	static Optional<String> text(JsonNode parent, String field) {
		JsonNode value = present(parent, field);
		if (value == null) {
			return Optional.empty();
		}
		if (!value.isTextual()) {
			throw wrongType(field, "a string", value);
		}
		return Optional.of(value.textValue());
	}

	static OptionalInt integer(JsonNode parent, String field) {
		JsonNode value = present(parent, field);
		if (value == null) {
			return OptionalInt.empty();
		}
		if (!value.canConvertToInt() || !value.isIntegralNumber()) {
			throw wrongType(field, "an int", value);
		}
		return OptionalInt.of(value.intValue());
	}

	static OptionalLong longValue(JsonNode parent, String field) {
		JsonNode value = present(parent, field);
		if (value == null) {
			return OptionalLong.empty();
		}
		if (!value.canConvertToLong() || !value.isIntegralNumber()) {
			throw wrongType(field, "an integer", value);
		}
		return OptionalLong.of(value.longValue());
	}

	static Optional<ObjectNode> object(JsonNode parent, String field) {
		JsonNode value = present(parent, field);
		if (value == null) {
			return Optional.empty();
		}
		if (value instanceof ObjectNode object) {
			return Optional.of(object);
		}
		throw wrongType(field, "an object", value);
	}

	static List<ObjectNode> objects(JsonNode parent, String field) {
		JsonNode value = present(parent, field);
		if (value == null) {
			return List.of();
		}
		if (!value.isArray()) {
			throw wrongType(field, "an array", value);
		}
		List<ObjectNode> items = new ArrayList<>(value.size());
		for (JsonNode item : value) {
			if (!(item instanceof ObjectNode object)) {
				throw wrongType(field + "[]", "an object", item);
			}
			items.add(object);
		}
		return List.copyOf(items);
	}

	/** The value, or null when the key is absent or its value is JSON {@code null}. */
	private static JsonNode present(JsonNode parent, String field) {
		JsonNode value = parent.get(field);
		return value == null || value.isNull() ? null : value;
	}

	private static WireFormatException wrongType(String field, String expected, JsonNode value) {
		return new WireFormatException("'" + field + "' must be " + expected + " or null, got " + value.getNodeType() + ": "
				+ abbreviate(value.toString()));
	}

	static String abbreviate(String text) {
		if (text == null) {
			return "null";
		}
		return text.length() <= 120 ? text : text.substring(0, 117) + "...";
	}
}
