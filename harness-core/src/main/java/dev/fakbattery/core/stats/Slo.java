package dev.fakbattery.core.stats;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * Service-level objectives for goodput, in {@code vllm bench serve --goodput} syntax:
 * whitespace-separated {@code KEY:VALUE} pairs, values in milliseconds, keys {@code ttft},
 * {@code tpot} and {@code e2el}.
 *
 * <pre>
 * Slo slo = Slo.parse("ttft:200 tpot:50 e2el:1000");
 * boolean good = slo.isMetBy(RequestTiming.completed(180, 950, 20));
 * </pre>
 *
 * <p>A request meets the SLOs only if it meets every one given, each with {@code <=}. Parsing is
 * stricter than vLLM's: an unknown key, a repeated key, a value that is not a plain non-negative
 * decimal number, or no pair at all throws {@link IllegalArgumentException} naming the bad token
 * and the accepted keys; nothing is ignored.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class Slo {

	/** The metrics an SLO can bound. @since 0.1 */
	public enum Metric {
		/** Time to first token. */
		TTFT,
		/** Time per output token after the first (vLLM's TPOT; GuideLLM calls it ITL). */
		TPOT,
		/** End-to-end latency. */
		E2EL;

		/** The key in the SLO syntax, e.g. {@code ttft}. */
		public String key() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}
	}

	private static final Pattern NUMBER = Pattern.compile("\\+?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

	private static final String ACCEPTED = Arrays.stream(Metric.values())
			.map(Metric::key)
			.collect(Collectors.joining(", "));

	private static final String HINT = "; accepted keys are " + ACCEPTED
			+ ", each as KEY:VALUE in ms, e.g. \"ttft:200 tpot:50 e2el:1000\"";

	private final Map<Metric, Double> limitsMs;

	private Slo(Map<Metric, Double> limitsMs) {
		this.limitsMs = limitsMs;
	}

	/**
	 * Parses {@code ttft:200 tpot:50 e2el:1000}.
	 * @throws IllegalArgumentException naming the bad token and the accepted keys
	 */
	public static Slo parse(String spec) {
		String trimmed = spec == null ? "" : spec.strip();
		if (trimmed.isEmpty()) {
			throw new IllegalArgumentException("no SLO given" + HINT);
		}
		Map<Metric, Double> limits = new EnumMap<>(Metric.class);
		for (String token : trimmed.split("\\s+")) {
			parsePair(token, limits);
		}
		return new Slo(limits);
	}

	private static void parsePair(String token, Map<Metric, Double> limits) {
		int colon = token.indexOf(':');
		if (colon < 0 || colon != token.lastIndexOf(':')) {
			throw new IllegalArgumentException("invalid SLO token '" + token + "': expected KEY:VALUE" + HINT);
		}
		String key = token.substring(0, colon);
		String value = token.substring(colon + 1);
		Metric metric = Arrays.stream(Metric.values())
				.filter(m -> m.key().equals(key))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException(
						"invalid SLO token '" + token + "': unknown key '" + key + "'" + HINT));
		if (!NUMBER.matcher(value).matches()) {
			throw new IllegalArgumentException("invalid SLO token '" + token + "': value '" + value
					+ "' is not a non-negative number of ms" + HINT);
		}
		double ms = Double.parseDouble(value);
		if (!Double.isFinite(ms)) {
			throw new IllegalArgumentException("invalid SLO token '" + token + "': value is not finite" + HINT);
		}
		if (limits.put(metric, ms) != null) {
			throw new IllegalArgumentException("invalid SLO token '" + token + "': key '" + key + "' given twice" + HINT);
		}
	}

	/** The metrics bounded, in {@link Metric} order. */
	public Set<Metric> metrics() {
		return limitsMs.keySet();
	}

	/** The bound on {@code metric} in ms, or empty when it is not bounded. */
	public OptionalDouble limitMs(Metric metric) {
		Double limit = limitsMs.get(metric);
		return limit == null ? OptionalDouble.empty() : OptionalDouble.of(limit);
	}

	/**
	 * Whether the request completed and meets every SLO ({@code <=}). A failed request, or one whose
	 * bounded metric is unknown ({@code NaN}), is not good.
	 */
	public boolean isMetBy(RequestTiming request) {
		if (!request.completed()) {
			return false;
		}
		for (Map.Entry<Metric, Double> limit : limitsMs.entrySet()) {
			if (!(request.valueMs(limit.getKey()) <= limit.getValue())) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The longest end-to-end latency a request of at most {@code maxTokens} output tokens can have and still meet these
	 * SLOs: the E2EL limit where there is one, and TTFT's limit plus TPOT's times {@code maxTokens - 1} where both are
	 * given (TPOT is the mean over the tokens after the first, so E2EL = TTFT + TPOT x (tokens - 1)); the smaller of the
	 * two. Empty when neither bounds it (a request meeting only a TTFT limit can take any time).
	 *
	 * @since 0.10
	 */
	public OptionalDouble longestGoodMs(int maxTokens) {
		OptionalDouble e2el = limitMs(Metric.E2EL);
		OptionalDouble ttft = limitMs(Metric.TTFT);
		OptionalDouble tpot = limitMs(Metric.TPOT);
		OptionalDouble decode = ttft.isPresent() && tpot.isPresent() && maxTokens >= 1
				? OptionalDouble.of(ttft.getAsDouble() + tpot.getAsDouble() * (maxTokens - 1))
				: OptionalDouble.empty();
		if (e2el.isPresent() && decode.isPresent()) {
			return OptionalDouble.of(Math.min(e2el.getAsDouble(), decode.getAsDouble()));
		}
		return e2el.isPresent() ? e2el : decode;
	}

	/** The canonical form, e.g. {@code ttft:200.0 tpot:50.0 e2el:1000.0}; parses back to an equal SLO. */
	@Override
	public String toString() {
		return limitsMs.entrySet()
				.stream()
				.map(e -> e.getKey().key() + ":" + e.getValue())
				.collect(Collectors.joining(" "));
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Slo slo && slo.limitsMs.equals(limitsMs);
	}

	@Override
	public int hashCode() {
		return limitsMs.hashCode();
	}
}
