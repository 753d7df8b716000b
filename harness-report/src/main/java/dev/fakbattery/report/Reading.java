package dev.fakbattery.report;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.ConfidenceInterval;

/**
 * One headline number of a run: a typed measurement of one rung's artifact ({@code measurements[]}), with its 95 %
 * confidence interval when it has one ({@code ci95}; artifacts written before that field carry it only in the
 * {@code source} text as {@code 95% CI [lo, hi]}, which is read instead).
 *
 * @param rung the rung label, for example {@code 3 tax}
 * @param name the measurement name, for example {@code latency_tax}
 * @param ci the 95 % interval; null when the number has none
 * @since 0.3
 */
public record Reading(String rung, String name, double value, String unit, ConfidenceInterval ci) {

	/** The statistic of an interval read back from an artifact, which records only its bounds. */
	private static final String REPORTED = "reported ci95";

	private static final Pattern CI_IN_SOURCE = Pattern.compile("95% CI \\[([-0-9.eE]+), ([-0-9.eE]+)\\]");

	/** {@code 3 tax / latency_tax}: what identifies the number across runs. */
	public String key() {
		return rung + " / " + name;
	}

	public Optional<ConfidenceInterval> interval() {
		return Optional.ofNullable(ci);
	}

	/** The reading of one {@code measurements[]} entry of an artifact of {@code rung}. */
	static Reading of(String rung, JsonNode measurement) {
		return new Reading(rung, measurement.path("name").asText(), measurement.path("value").asDouble(),
				measurement.path("unit").asText(""), interval(measurement));
	}

	private static ConfidenceInterval interval(JsonNode measurement) {
		JsonNode ci = measurement.path("ci95");
		double value = measurement.path("value").asDouble();
		if (ci.path("low").isNumber() && ci.path("high").isNumber()) {
			return ConfidenceInterval.ofBounds(REPORTED, value, ci.path("low").asDouble(), ci.path("high").asDouble(), 0.95);
		}
		Matcher m = CI_IN_SOURCE.matcher(measurement.path("source").asText(""));
		return m.find()
				? ConfidenceInterval.ofBounds(REPORTED, value, Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), 0.95)
				: null;
	}

	/** The value and its interval as one short text: {@code 1.0007 [1.0004, 1.0010]}; a whole count as {@code 66}. */
	public String describe() {
		return format(value, unit) + (ci == null ? "" : " [" + format(ci.lo()) + ", " + format(ci.hi()) + "]");
	}

	/** {@link #format(double)}, but a whole number of anything but a ratio (tokens, rule runs) without decimals. */
	static String format(double value, String unit) {
		return !unit.equals("ratio") && value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value) : format(value);
	}

	void writeTo(ObjectNode node) {
		node.put("rung", rung).put("name", name).put("value", value).put("unit", unit);
		if (ci != null) {
			node.putObject("ci95").put("low", ci.lo()).put("high", ci.hi());
		}
	}

	/** Four decimals below 100, one above: ratios read 1.0007, latencies in microseconds 2054.1. */
	public static String format(double value) {
		return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.4f", value);
	}
}
