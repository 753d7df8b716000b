package dev.fakbattery.engine;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prometheus text format 0.0.4 as Python's {@code prometheus_client.generate_latest} writes it: labels sorted by
 * name, values in {@code floatToGoString} form ({@code 3.0}, {@code 8.128902e+06}, {@code +Inf}).
 *
 * @since 0.1
 */
final class PromText {

	private final StringBuilder out = new StringBuilder(4096);

	void header(String name, String help, String type) {
		out.append("# HELP ").append(name).append(' ').append(help).append('\n');
		out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
	}

	void sample(String name, Map<String, String> labels, double value) {
		out.append(name);
		if (!labels.isEmpty()) {
			out.append('{');
			boolean first = true;
			for (Map.Entry<String, String> label : new TreeMap<>(labels).entrySet()) {
				if (!first) {
					out.append(',');
				}
				first = false;
				out.append(label.getKey()).append("=\"").append(escape(label.getValue())).append('"');
			}
			out.append('}');
		}
		out.append(' ').append(goFloat(value)).append('\n');
	}

	void metric(String name, String help, String type, Map<String, String> labels, double value) {
		header(name, help, type);
		sample(name, labels, value);
	}

	/**
	 * A histogram; {@code sumFirst} puts {@code _sum} before the buckets, as SGLang's multiprocess collector does.
	 */
	void histogram(String name, String help, Map<String, String> labels, LatencyHistogram histogram, boolean sumFirst) {
		header(name, help, "histogram");
		if (sumFirst) {
			sample(name + "_sum", labels, histogram.sum());
		}
		double[] bounds = histogram.bounds();
		long[] counts = histogram.cumulativeCounts();
		long total = histogram.count();
		for (int i = 0; i < bounds.length; i++) {
			sample(name + "_bucket", with(labels, "le", goFloat(bounds[i])), counts[i]);
		}
		sample(name + "_bucket", with(labels, "le", "+Inf"), total);
		sample(name + "_count", labels, total);
		if (!sumFirst) {
			sample(name + "_sum", labels, histogram.sum());
		}
	}

	@Override
	public String toString() {
		return out.toString();
	}

	/** prometheus_client {@code floatToGoString}. */
	static String goFloat(double value) {
		if (Double.isNaN(value)) {
			return "NaN";
		}
		if (Double.isInfinite(value)) {
			return value > 0 ? "+Inf" : "-Inf";
		}
		String repr = pythonRepr(value);
		int dot = repr.indexOf('.');
		if (value > 0 && dot > 6) {
			String mantissa = (repr.charAt(0) + "." + repr.substring(1, dot) + repr.substring(dot + 1)).replaceAll("[0.]+$", "");
			return mantissa + "e+0" + (dot - 1);
		}
		return repr;
	}

	/** Python's {@code repr(float)}: shortest digits, positional for exponents -4..15, else {@code 1e-05} form. */
	static String pythonRepr(double value) {
		BigDecimal exact = new BigDecimal(Double.toString(value)).stripTrailingZeros();
		String digits = exact.unscaledValue().abs().toString();
		int exponent = digits.length() - 1 - exact.scale();
		String sign = value < 0 ? "-" : "";
		if (exact.signum() == 0) {
			return sign + "0.0";
		}
		if (exponent >= -4 && exponent < 16) {
			String plain = exact.abs().toPlainString();
			return sign + (plain.contains(".") ? plain : plain + ".0");
		}
		String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
		return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
	}

	private static Map<String, String> with(Map<String, String> labels, String name, String value) {
		Map<String, String> copy = new TreeMap<>(labels);
		copy.put(name, value);
		return copy;
	}

	private static String escape(String value) {
		return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
	}
}
