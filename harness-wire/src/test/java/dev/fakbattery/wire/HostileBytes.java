package dev.fakbattery.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Hostile inputs for the property tests of the reader, the gateway and the engine double, built from generated numbers so
 * that QuickTheories can shrink them (shared through this module's test jar).
 */
public final class HostileBytes {

	private static final List<String> TOKENS = List.of("data: ", "\n", "\r", "\n\n", "{", "}", "[", "]", ",", ":", "\"choices\":",
			"\"tool_calls\":", "\"index\":", "\"function\":", "\"arguments\":", "\"name\":", "\"id\":", "\"delta\":", "\"messages\":",
			"\"role\":", "\"content\":", "\"stream\":", "\"finish_reason\":", "\"error\":", "null", "true", "0", "-1", "1e999",
			"\"x\"", "\"tool\"", "[DONE]", "\u00e9", "\"\\ud800\"");

	private HostileBytes() {
	}

	/** Each number a token (SSE and JSON pieces) or, past the token list, one raw byte. */
	public static byte[] tokens(List<Integer> picks) {
		return tokens(TOKENS, picks);
	}

	/** Each number a token of {@code vocabulary} or, past it, one raw byte. */
	public static byte[] tokens(List<String> vocabulary, List<Integer> picks) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (int pick : picks) {
			int token = Math.floorMod(pick, vocabulary.size() + 256);
			if (token < vocabulary.size()) {
				out.writeBytes(vocabulary.get(token).getBytes(StandardCharsets.UTF_8));
			}
			else {
				out.write(token - vocabulary.size());
			}
		}
		return out.toByteArray();
	}

	/** {@code bytes} edited: each number's low bits pick delete, repeat, replace or cut, the rest where and how much. */
	public static byte[] mutated(byte[] bytes, List<Integer> edits) {
		byte[] out = bytes;
		for (int edit : edits) {
			if (out.length == 0) {
				return out;
			}
			int at = (edit >>> 2) % out.length;
			int length = Math.min(1 + (edit >>> 20) % 64, out.length - at);
			ByteArrayOutputStream next = new ByteArrayOutputStream();
			next.write(out, 0, at);
			switch (edit & 3) {
				case 0 -> next.write(out, at + length, out.length - at - length);
				case 1 -> {
					next.write(out, at, length);
					next.write(out, at, out.length - at);
				}
				case 2 -> {
					next.write((byte) (edit >>> 8));
					next.write(out, at + 1, out.length - at - 1);
				}
				default -> {
					// a cut: the input ends here
				}
			}
			out = next.toByteArray();
		}
		return out;
	}

	private static final List<String> VALUES = List.of("null", "0", "-1", "1.5", "99999999999999999999999", "\"x\"", "\"\"", "true",
			"[]", "{}", "[1]", "{\"a\":1}", "[null]", "\"tool_calls\"");

	/**
	 * The JSON text with values swapped for values of other types: each number picks a slot (a field or an array
	 * element, in document order) and a replacement (null, numbers, strings, booleans, arrays, objects).
	 */
	public static String confused(String json, List<Integer> swaps) {
		JsonNode root = WireJson.readObject(json);
		for (int swap : swaps) {
			List<Consumer<JsonNode>> slots = new ArrayList<>();
			collect(root, slots);
			if (slots.isEmpty()) {
				break;
			}
			JsonNode value = WireJson.read(VALUES.get(Math.floorMod(swap, VALUES.size()))).orElse(Json.MAPPER.nullNode());
			slots.get(Math.floorMod(swap / VALUES.size(), slots.size())).accept(value);
		}
		return WireJson.write(root);
	}

	private static void collect(JsonNode node, List<Consumer<JsonNode>> slots) {
		if (node instanceof ObjectNode object) {
			for (String field : iterable(object)) {
				slots.add(value -> object.set(field, value));
				collect(object.get(field), slots);
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				int index = i;
				slots.add(value -> array.set(index, value));
				collect(array.get(i), slots);
			}
		}
	}

	private static List<String> iterable(ObjectNode object) {
		List<String> fields = new ArrayList<>();
		object.fieldNames().forEachRemaining(fields::add);
		return fields;
	}
}
