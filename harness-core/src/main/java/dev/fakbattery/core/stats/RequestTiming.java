package dev.fakbattery.core.stats;

import org.apiguardian.api.API;

/**
 * The timings of one benchmark request that goodput is judged on, in milliseconds.
 *
 * <p>TPOT follows {@code vllm bench serve}: {@code (e2el - ttft) / (outputTokens - 1)} when more
 * than one token came back, and 0 for a request with {@code outputTokens <= 1} (vLLM counts such
 * a request's TPOT as 0 for goodput). A failed request has no timings ({@code NaN}) and is never
 * good.
 *
 * @param completed whether the request succeeded
 * @param ttftMs time to first token; {@code NaN} when unknown
 * @param e2elMs end-to-end latency; {@code NaN} when unknown
 * @param outputTokens completion tokens (server usage); 0 when none
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record RequestTiming(boolean completed, double ttftMs, double e2elMs, int outputTokens) {

	public RequestTiming {
		if (outputTokens < 0) {
			throw new IllegalArgumentException("outputTokens must be >= 0, got " + outputTokens);
		}
	}

	/** A request that succeeded. */
	public static RequestTiming completed(double ttftMs, double e2elMs, int outputTokens) {
		return new RequestTiming(true, ttftMs, e2elMs, outputTokens);
	}

	/** A request that failed: no timings. */
	public static RequestTiming failed() {
		return new RequestTiming(false, Double.NaN, Double.NaN, 0);
	}

	/** vLLM's TPOT; 0 when {@code outputTokens <= 1}, {@code NaN} for a failed request. */
	public double tpotMs() {
		if (!completed) {
			return Double.NaN;
		}
		return outputTokens > 1 ? (e2elMs - ttftMs) / (outputTokens - 1) : 0;
	}

	/** The value an SLO on {@code metric} is judged against. */
	public double valueMs(Slo.Metric metric) {
		return switch (metric) {
			case TTFT -> ttftMs;
			case TPOT -> tpotMs();
			case E2EL -> e2elMs;
		};
	}
}
