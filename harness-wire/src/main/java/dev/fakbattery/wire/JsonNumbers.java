package dev.fakbattery.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one JSON number helper of the battery: numbers go into artifacts here. Rounding happens here, at
 * serialisation, and nowhere in computation; an unknown ({@code NaN}) or infinite value is written as
 * {@code null}, never as 0 or a {@code "NaN"} string.
 *
 * @since 0.1
 */
public final class JsonNumbers {

	private JsonNumbers() {
	}

	/** {@code node[key] = value}, or {@code null} when the value is not finite. */
	public static void put(ObjectNode node, String key, double value) {
		if (Double.isFinite(value)) {
			node.put(key, value);
		}
		else {
			node.putNull(key);
		}
	}

	/** {@code node[key] = round(value, decimals)}, or {@code null} when the value is not finite. */
	public static void put(ObjectNode node, String key, double value, int decimals) {
		put(node, key, round(value, decimals));
	}

	/** Appends {@code round(value, decimals)}, or {@code null} when the value is not finite. */
	public static void add(ArrayNode array, double value, int decimals) {
		double rounded = round(value, decimals);
		if (Double.isFinite(rounded)) {
			array.add(rounded);
		}
		else {
			array.addNull();
		}
	}

	/** {@code node[key] = [round(lo), round(hi)]}, each {@code null} when unknown. */
	public static void putPair(ObjectNode node, String key, double lo, double hi, int decimals) {
		ArrayNode pair = node.putArray(key);
		add(pair, lo, decimals);
		add(pair, hi, decimals);
	}

	/**
	 * Python's {@code round(value, decimals)}: half-even on the exact binary value, so the digits
	 * match what fak's tools write. Non-finite values pass through.
	 */
	public static double round(double value, int decimals) {
		if (!Double.isFinite(value)) {
			return value;
		}
		return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).doubleValue();
	}
}
