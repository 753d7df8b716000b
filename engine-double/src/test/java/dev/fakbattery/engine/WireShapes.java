package dev.fakbattery.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * Shapes of wire JSON: the same tree with every scalar replaced by its type name, so two bodies compare equal when
 * they have the same keys in the same order, nulls in the same places and values of the same types.
 */
final class WireShapes {

	/** What a chunk is, by its content. */
	enum Kind {
		ROLE, CONTENT, TOOL_START, TOOL_ARGS, FINISH, USAGE, ERROR
	}

	private WireShapes() {
	}

	static JsonNode parse(String json) {
		try {
			return Json.MAPPER.readTree(json);
		}
		catch (IOException e) {
			throw new UncheckedIOException("not JSON: " + json, e);
		}
	}

	/** The shape as compact JSON text, for readable assertion failures. */
	static String shape(String json) {
		return shape(parse(json)).toString();
	}

	static JsonNode shape(JsonNode node) {
		if (node.isObject()) {
			ObjectNode shape = Json.MAPPER.createObjectNode();
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				shape.set(field.getKey(), shape(field.getValue()));
			}
			return shape;
		}
		if (node.isArray()) {
			ArrayNode shape = Json.MAPPER.createArrayNode();
			node.forEach(element -> shape.add(shape(element)));
			return shape;
		}
		return Json.MAPPER.getNodeFactory().textNode(node.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
	}

	static Kind kind(String chunk) {
		JsonNode node = parse(chunk);
		if (node.has("error")) {
			return Kind.ERROR;
		}
		JsonNode choices = node.path("choices");
		if (choices.isEmpty()) {
			return Kind.USAGE;
		}
		JsonNode choice = choices.get(0);
		JsonNode delta = choice.path("delta");
		if (!choice.path("finish_reason").isNull() && choice.has("finish_reason")) {
			return Kind.FINISH;
		}
		if (delta.path("role").isTextual()) {
			return Kind.ROLE;
		}
		JsonNode calls = delta.path("tool_calls");
		if (calls.isArray() && !calls.isEmpty()) {
			return calls.get(0).path("id").isTextual() ? Kind.TOOL_START : Kind.TOOL_ARGS;
		}
		return Kind.CONTENT;
	}

	/** The first chunk of a kind. */
	static String first(List<String> chunks, Kind kind) {
		return chunks.stream()
				.filter(c -> kind(c) == kind)
				.findFirst()
				.orElseThrow(() -> new AssertionError("no " + kind + " chunk in " + chunks));
	}

	/** The text of a test resource. */
	static String resource(String path) {
		try (InputStream in = WireShapes.class.getResourceAsStream("/wire/" + path)) {
			if (in == null) {
				throw new IllegalStateException("missing test resource wire/" + path);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** The data payloads of a sample SSE file, {@code [DONE]} included. */
	static List<String> sampleEvents(String path) {
		return Arrays.stream(resource(path).split("\n\n"))
				.map(String::strip)
				.filter(line -> line.startsWith("data: "))
				.map(line -> line.substring(6))
				.toList();
	}

	/** The sample's chunks (JSON objects only). */
	static List<String> sampleChunks(String path) {
		return sampleEvents(path).stream().filter(d -> d.startsWith("{")).toList();
	}
}
