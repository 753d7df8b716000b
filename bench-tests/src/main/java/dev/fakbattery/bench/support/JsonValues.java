package dev.fakbattery.bench.support;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Small, strict readers over Jackson trees used by the artifact checks.
 *
 * <p>Strict means: a number is only equal to a number ({@code true} is not 1, {@code "20"} is not
 * 20), a string list only holds non-empty strings, and an absent field is shown as
 * {@code missing} rather than defaulted. Not {@link dev.fakbattery.wire.WireJson}'s accessors: those read the chat wire
 * and throw on a wrong type, where an artifact check must report it as an observed value instead.
 *
 * @since 0.1
 */
public final class JsonValues {

	private JsonValues() {
	}

	/** The value as it appears in JSON, or {@code missing} when the field is absent. */
	public static String show(JsonNode node) {
		return node == null || node.isMissingNode() ? "missing" : node.toString();
	}

	/** Whether {@code node} is a JSON number numerically equal to {@code expected}. */
	public static boolean numberEquals(JsonNode node, long expected) {
		return node != null && node.isNumber() && node.decimalValue().compareTo(BigDecimal.valueOf(expected)) == 0;
	}

	/** The node as a double when it is a JSON number. */
	public static OptionalDouble number(JsonNode node) {
		return node != null && node.isNumber() ? OptionalDouble.of(node.doubleValue()) : OptionalDouble.empty();
	}

	/** The node as text when it is a non-empty JSON string. */
	public static Optional<String> text(JsonNode node) {
		return node != null && node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
	}

	/** Whether {@code node} is a JSON array containing a number equal to {@code expected}. */
	public static boolean arrayContainsNumber(JsonNode node, long expected) {
		if (node == null || !node.isArray()) {
			return false;
		}
		for (JsonNode element : node) {
			if (numberEquals(element, expected)) {
				return true;
			}
		}
		return false;
	}

	/** Whether {@code node} is a JSON array of exactly these numbers, in this order. */
	public static boolean numberArrayEquals(JsonNode node, List<Long> expected) {
		if (node == null || !node.isArray() || node.size() != expected.size()) {
			return false;
		}
		for (int i = 0; i < expected.size(); i++) {
			if (!numberEquals(node.get(i), expected.get(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The elements of a JSON array of non-empty strings, or empty when {@code node} is not an
	 * array or any element is not a non-empty string.
	 */
	public static Optional<List<String>> stringList(JsonNode node) {
		if (node == null || !node.isArray()) {
			return Optional.empty();
		}
		List<String> values = new ArrayList<>();
		for (JsonNode element : node) {
			if (!element.isTextual() || element.asText().isEmpty()) {
				return Optional.empty();
			}
			values.add(element.asText());
		}
		return Optional.of(List.copyOf(values));
	}
}
