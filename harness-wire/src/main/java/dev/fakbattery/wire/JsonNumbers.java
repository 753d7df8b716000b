package dev.fakbattery.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Numbers into artifacts: rounding happens here, at serialisation, and nowhere in computation; an
 * unknown ({@code NaN}) or infinite value is written as {@code null}, never as 0 or a {@code "NaN"}
 * string.
 */
public final class JsonNumbers {

	private JsonNumbers() {
	}

	public static void put(ObjectNode node, String key, double value) {
		if (Double.isFinite(value)) {
			node.put(key, value);
		}
		else {
			node.putNull(key);
		}
	}

	public static void put(ObjectNode node, String key, double value, int decimals) {
		put(node, key, round(value, decimals));
	}

	/**
	 * Python's {@code round(value, decimals)}: half-even on the exact binary value, so the digits
	 * match what the seed's tools write. Non-finite values pass through.
	 */
	public static double round(double value, int decimals) {
		if (!Double.isFinite(value)) {
			return value;
		}
		return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).doubleValue();
	}
}
