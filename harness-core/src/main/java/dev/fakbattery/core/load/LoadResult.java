package dev.fakbattery.core.load;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.core.stats.Summary;

import org.apiguardian.api.API;

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
 * @param durationS vLLM's {@code duration}: first measured send to the end of the last measured request,
 * in seconds ({@code NaN} when nothing was sent); for a {@linkplain #merge merged} result the sum of its parts'
 * @param scheduleLagMs open loop: release time minus intended time, per request; empty for a closed loop
 * @param timeCapped whether the time cap stopped the run
 * @param clientLag the client's own scheduling lag over the measured phase ({@link ClientLagProbe})
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record LoadResult(String target, String baseUrl, String mode, int concurrency, double rate, int planned,
		List<RequestOutcome> outcomes, int warmupSent, int warmupFailed, int notSent, long startNanos, long endNanos,
		double durationS, Optional<Summary> scheduleLagMs, boolean timeCapped, ClientLag clientLag) {

	public LoadResult {
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(mode, "mode");
		outcomes = List.copyOf(outcomes);
		Objects.requireNonNull(scheduleLagMs, "scheduleLagMs");
		Objects.requireNonNull(clientLag, "clientLag");
	}

	/** A result without a client-lag reading (assembled from outcomes measured elsewhere). */
	public LoadResult(String target, String baseUrl, String mode, int concurrency, double rate, int planned,
			List<RequestOutcome> outcomes, int warmupSent, int warmupFailed, int notSent, long startNanos, long endNanos,
			double durationS, Optional<Summary> scheduleLagMs, boolean timeCapped) {
		this(target, baseUrl, mode, concurrency, rate, planned, outcomes, warmupSent, warmupFailed, notSent, startNanos, endNanos,
				durationS, scheduleLagMs, timeCapped, ClientLag.none());
	}

	/** The requests that succeeded. */
	public List<RequestOutcome> ok() {
		return outcomes.stream().filter(RequestOutcome::ok).toList();
	}

	/** The requests that failed (transport error, non-200, error frame, truncated, no token). */
	public List<RequestOutcome> failed() {
		return outcomes.stream().filter(o -> !o.ok()).toList();
	}

	/** First measured send to the end of the last measured request, in seconds; {@code NaN} when none. */
	static double spanS(List<RequestOutcome> outcomes) {
		if (outcomes.isEmpty()) {
			return Double.NaN;
		}
		long first = outcomes.stream().mapToLong(RequestOutcome::sentNanos).min().orElseThrow();
		long last = outcomes.stream().mapToLong(RequestOutcome::endNanos).max().orElseThrow();
		return (last - first) / 1e9;
	}

	/**
	 * One result from runs of the same target taken in turns (e.g. the two batches of an arm in an ABBA
	 * schedule): outcomes in send order, counts added, durations added (the other arm's turns in between
	 * are not this target's time). Schedule lag is kept only for a single part.
	 * @throws IllegalArgumentException if there are no parts or they are of different targets
	 */
	public static LoadResult merge(String mode, List<LoadResult> parts) {
		if (parts.isEmpty() || parts.stream().map(LoadResult::target).distinct().count() != 1) {
			throw new IllegalArgumentException("merge needs results of one target, got " + parts.stream().map(LoadResult::target).toList());
		}
		List<RequestOutcome> all = parts.stream()
				.flatMap(p -> p.outcomes().stream())
				.sorted(java.util.Comparator.comparingLong(RequestOutcome::sentNanos))
				.toList();
		LoadResult first = parts.get(0);
		double duration = parts.stream().mapToDouble(LoadResult::durationS).filter(Double::isFinite).sum();
		return new LoadResult(first.target(), first.baseUrl(), mode, first.concurrency(), first.rate(),
				parts.stream().mapToInt(LoadResult::planned).sum(), all, parts.stream().mapToInt(LoadResult::warmupSent).sum(),
				parts.stream().mapToInt(LoadResult::warmupFailed).sum(), parts.stream().mapToInt(LoadResult::notSent).sum(),
				parts.stream().mapToLong(LoadResult::startNanos).min().orElseThrow(),
				parts.stream().mapToLong(LoadResult::endNanos).max().orElseThrow(), all.isEmpty() ? Double.NaN : duration,
				parts.size() == 1 ? first.scheduleLagMs() : Optional.empty(), parts.stream().anyMatch(LoadResult::timeCapped),
				ClientLag.merge(parts.stream().map(LoadResult::clientLag).toList()));
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
