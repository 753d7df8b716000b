package dev.fakbattery.core.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

/**
 * Reads the Prometheus text exposition format (version 0.0.4, which vLLM, SGLang, llama.cpp and the engine double
 * serve on {@code /metrics}) into samples. Written here because no kept Java library parses it: the Prometheus Java
 * client (1.x, {@code prometheus-metrics-exposition-textformats}) only writes the format, and the one Java scraper
 * (Hawkular's {@code prometheus-scraper}) has had no release since 2017.
 *
 * <p>Comment lines ({@code # HELP}, {@code # TYPE}) and blank lines are skipped; a sample line is
 * {@code name{label="value",...} value [timestamp]}, label values unescaped ({@code \\}, {@code \"}, {@code \n}),
 * values as Go's {@code ParseFloat} reads them ({@code NaN}, {@code +Inf}, {@code -Inf}). A line that is none of these
 * throws {@link IllegalArgumentException} naming the line: a page that cannot be read is never half-read.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class PromText {

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
			labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
		}
	}

	private PromText() {
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
}
