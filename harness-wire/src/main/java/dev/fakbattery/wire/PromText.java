package dev.fakbattery.wire;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Prometheus text exposition format (version 0.0.4, which vLLM, SGLang, llama.cpp and the engine double serve on
 * {@code /metrics}), read and written.
 *
 * <p><b>Reading</b> ({@link #parse}): written here because no kept Java library parses it: the Prometheus Java client
 * (1.x, {@code prometheus-metrics-exposition-textformats}) only writes the format, and the one Java scraper (Hawkular's
 * {@code prometheus-scraper}) has had no release since 2017. Comment lines ({@code # HELP}, {@code # TYPE}) and blank
 * lines are skipped; a sample line is {@code name{label="value",...} value [timestamp]}, label values unescaped
 * ({@code \\}, {@code \"}, {@code \n}), values as Go's {@code ParseFloat} reads them ({@code NaN}, {@code +Inf},
 * {@code -Inf}). A line that is none of these throws {@link IllegalArgumentException} naming the line: a page that
 * cannot be read is never half-read.
 *
 * <p><b>Writing</b> ({@code new PromText()}, then {@link #metric}, {@link #sample}, {@link #histogram}): byte for byte as
 * Python's {@code prometheus_client.generate_latest} writes it, as the engine double must: labels sorted by name, values
 * in {@code floatToGoString} form ({@code 3.0}, {@code 8.128902e+06}, {@code +Inf}). The Prometheus Java client writes
 * Java's number forms, not Python's, so it cannot stand in.
 *
 * @since 0.3
 */
public final class PromText {

	/**
	 * A histogram as the writer needs it: upper bounds (without {@code +Inf}), cumulative counts per bound, count and sum.
	 *
	 * @since 0.3
	 */
	public interface Histogram {

		/** The upper bounds, ascending, without {@code +Inf}. */
		double[] bounds();

		/** The cumulative count at each bound, as the {@code _bucket} samples show them. */
		long[] cumulativeCounts();

		/** The number of observations. */
		long count();

		/** The sum of the observations. */
		double sum();
	}

	/**
	 * One sample.
	 *
	 * @param name the metric name, e.g. {@code vllm:num_requests_running} or {@code vllm:e2e_request_latency_seconds_sum}
	 * @param labels the labels in page order
	 * @param value the value
	 * @since 0.3
	 */
	public record Sample(String name, Map<String, String> labels, double value) {

		public Sample {
			labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
		}
	}

	/** Every sample of {@code page}, in order. */
	public static List<Sample> parse(String page) {
		List<Sample> samples = new ArrayList<>();
		int number = 0;
		for (String line : page.split("\n")) {
			number++;
			String text = line.strip();
			if (text.isEmpty() || text.startsWith("#")) {
				continue;
			}
			try {
				samples.add(sample(text));
			}
			catch (RuntimeException e) {
				throw new IllegalArgumentException("line " + number + " is not a Prometheus sample [" + abbreviate(text) + "]: "
						+ e.getMessage(), e);
			}
		}
		return samples;
	}

	private static Sample sample(String line) {
		int i = 0;
		while (i < line.length() && isNameChar(line.charAt(i), i == 0)) {
			i++;
		}
		if (i == 0) {
			throw new IllegalArgumentException("no metric name");
		}
		String name = line.substring(0, i);
		Map<String, String> labels = new LinkedHashMap<>();
		if (i < line.length() && line.charAt(i) == '{') {
			i = labels(line, i + 1, labels);
		}
		String[] rest = line.substring(i).strip().split("\\s+");
		if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
			throw new IllegalArgumentException("expected a value and an optional timestamp after the name");
		}
		return new Sample(name, labels, value(rest[0]));
	}

	/** Reads labels from {@code i} (after the brace) to the closing brace; returns the index after it. */
	private static int labels(String line, int i, Map<String, String> labels) {
		while (true) {
			while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == ',')) {
				i++;
			}
			if (i < line.length() && line.charAt(i) == '}') {
				return i + 1;
			}
			int start = i;
			while (i < line.length() && isNameChar(line.charAt(i), i == start) && line.charAt(i) != ':') {
				i++;
			}
			if (i == start || i + 1 >= line.length() || line.charAt(i) != '=' || line.charAt(i + 1) != '"') {
				throw new IllegalArgumentException("bad label at column " + (i + 1));
			}
			String key = line.substring(start, i);
			StringBuilder value = new StringBuilder();
			i += 2;
			while (true) {
				if (i >= line.length()) {
					throw new IllegalArgumentException("unterminated label value of " + key);
				}
				char c = line.charAt(i++);
				if (c == '"') {
					break;
				}
				if (c == '\\' && i < line.length()) {
					char escaped = line.charAt(i++);
					value.append(escaped == 'n' ? '\n' : escaped);
				}
				else {
					value.append(c);
				}
			}
			labels.put(key, value.toString());
		}
	}

	private static double value(String text) {
		return switch (text) {
			case "NaN" -> Double.NaN;
			case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			default -> Double.parseDouble(text);
		};
	}

	private static boolean isNameChar(char c, boolean first) {
		return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
	}

	private static String abbreviate(String text) {
		return text.length() <= 120 ? text : text.substring(0, 117) + "...";
	}

	private final StringBuilder out = new StringBuilder(4096);

	/** An empty page to write to; {@link #toString()} is the page. */
	public PromText() {
	}

	/** Writes the {@code # HELP} and {@code # TYPE} lines of a metric. */
	public void header(String name, String help, String type) {
		out.append("# HELP ").append(name).append(' ').append(help).append('\n');
		out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
	}

	/** Writes one sample line, labels sorted by name. */
	public void sample(String name, Map<String, String> labels, double value) {
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

	/** A metric of one sample: its header and the sample. */
	public void metric(String name, String help, String type, Map<String, String> labels, double value) {
		header(name, help, type);
		sample(name, labels, value);
	}

	/**
	 * A histogram; {@code sumFirst} puts {@code _sum} before the buckets, as SGLang's multiprocess collector does.
	 */
	public void histogram(String name, String help, Map<String, String> labels, Histogram histogram, boolean sumFirst) {
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
	public static String goFloat(double value) {
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
