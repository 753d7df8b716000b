package dev.fakbattery.api.load;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.api.stats.Summary;

/**
 * What one load run against one target did: every measured request (failed ones included), the
 * warm-up it excluded, the requests it never sent, and for an open loop how late the scheduler
 * released each request (schedule lag).
 *
 * @param target the target's name
 * @param baseUrl the target's base URL
 * @param mode e.g. {@code closed-loop concurrency 64} or {@code open-loop poisson 1000.0 req/s x 5000 (seed 1)}
 * @param concurrency the closed loop's concurrency or the open loop's cap (0 = none)
 * @param rate the open loop's target rate in requests/s; {@code NaN} for a closed loop
 * @param planned measured requests planned
 * @param outcomes measured requests sent, by index
 * @param warmupSent warm-up requests sent (excluded from every statistic)
 * @param warmupFailed warm-up requests that failed
 * @param notSent planned requests never sent because the time cap came first
 * @param startNanos start of the measured phase
 * @param endNanos end of the last measured request
 * @param scheduleLagMs open loop: release time minus intended time, per request; empty for a closed loop
 * @param timeCapped whether the time cap stopped the run
 * @since 0.1
 */
public record LoadResult(String target, String baseUrl, String mode, int concurrency, double rate, int planned,
		List<RequestOutcome> outcomes, int warmupSent, int warmupFailed, int notSent, long startNanos, long endNanos,
		Optional<Summary> scheduleLagMs, boolean timeCapped) {

	public LoadResult {
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(mode, "mode");
		outcomes = List.copyOf(outcomes);
		Objects.requireNonNull(scheduleLagMs, "scheduleLagMs");
	}

	/** The requests that succeeded. */
	public List<RequestOutcome> ok() {
		return outcomes.stream().filter(RequestOutcome::ok).toList();
	}

	/** The requests that failed (transport error, non-200, error frame, truncated, no token). */
	public List<RequestOutcome> failed() {
		return outcomes.stream().filter(o -> !o.ok()).toList();
	}

	/**
	 * Benchmark duration in seconds, vLLM's {@code duration}: the first measured send to the end of
	 * the last measured request; {@code NaN} when nothing was sent.
	 */
	public double durationS() {
		if (outcomes.isEmpty()) {
			return Double.NaN;
		}
		long first = outcomes.stream().mapToLong(RequestOutcome::sentNanos).min().orElseThrow();
		long last = outcomes.stream().mapToLong(RequestOutcome::endNanos).max().orElseThrow();
		return (last - first) / 1e9;
	}

	/** Completion tokens of the successful requests, per second of {@link #durationS()}. */
	public double outputThroughput() {
		double duration = durationS();
		long tokens = ok().stream().mapToLong(RequestOutcome::outputTokens).sum();
		return duration > 0 ? tokens / duration : Double.NaN;
	}

	/** Successful requests per second of {@link #durationS()}. */
	public double requestThroughput() {
		double duration = durationS();
		return duration > 0 ? ok().size() / duration : Double.NaN;
	}
}
