package dev.fakbattery.core.stats;

import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * A point estimate with its bootstrap confidence interval {@code [lo, hi]}.
 *
 * <p>An interval that could not be computed (no samples, fewer than {@link BootstrapCi#minSamples()} per arm, a zero
 * denominator) is
 * {@linkplain #undefined(String, String, double, int, long) undefined}: estimate, lo and hi are
 * {@code NaN} and {@link #reason()} says why. A defined interval has no reason.
 *
 * @param statistic what was estimated, e.g. {@code median} or {@code ratio of medians}
 * @param estimate the statistic on the samples as measured
 * @param lo lower bound
 * @param hi upper bound
 * @param level confidence level, e.g. 0.95
 * @param resamples bootstrap resamples drawn (0 when none were needed or possible)
 * @param seed the seed the resamples were drawn with
 * @param reason why the interval is undefined; empty when it is defined
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record ConfidenceInterval(String statistic, double estimate, double lo, double hi, double level,
		int resamples, long seed, Optional<String> reason) {

	public ConfidenceInterval {
		Objects.requireNonNull(statistic, "statistic");
		Objects.requireNonNull(reason, "reason");
	}

	/** An interval that could not be computed, with the reason. */
	public static ConfidenceInterval undefined(String statistic, String reason, double level, int resamples,
			long seed) {
		return new ConfidenceInterval(statistic, Double.NaN, Double.NaN, Double.NaN, level, resamples, seed,
				Optional.of(reason));
	}

	/**
	 * An interval known only by its bounds, as an artifact carries it ({@code ci95: {low, high}}): no resamples, seed 0.
	 *
	 * @throws IllegalArgumentException when the bounds are not finite and ordered
	 */
	public static ConfidenceInterval ofBounds(String statistic, double estimate, double lo, double hi, double level) {
		ConfidenceInterval ci = new ConfidenceInterval(statistic, estimate, lo, hi, level, 0, 0, Optional.empty());
		if (!ci.isBounded()) {
			throw new IllegalArgumentException("confidence interval [" + lo + ", " + hi + "] is not finite and ordered");
		}
		return ci;
	}

	/** Whether estimate and bounds are known. */
	public boolean isDefined() {
		return reason.isEmpty();
	}

	/** Whether {@code value} lies within {@code [lo, hi]}; false when undefined. */
	public boolean contains(double value) {
		return isDefined() && lo <= value && value <= hi;
	}

	/** Whether it is defined with finite bounds, {@code lo <= hi}. */
	public boolean isBounded() {
		return isDefined() && Double.isFinite(lo) && Double.isFinite(hi) && lo <= hi;
	}

	/** Whether the two intervals share at least one point; false when either is not {@linkplain #isBounded bounded}. */
	public boolean overlaps(ConfidenceInterval other) {
		return isBounded() && other.isBounded() && lo <= other.hi && other.lo <= hi;
	}

	/** {@code hi - lo}; {@code NaN} when undefined. */
	public double width() {
		return hi - lo;
	}

	/**
	 * Writes {@code statistic, estimate, lo, hi, level, method, resamples, seed} and, when undefined,
	 * {@code reason}; numbers are rounded to {@code decimals} places here and only here, unknown ones
	 * are {@code null}.
	 */
	public void writeTo(ObjectNode node, int decimals) {
		node.put("statistic", statistic);
		JsonNumbers.put(node, "estimate", estimate, decimals);
		JsonNumbers.put(node, "lo", lo, decimals);
		JsonNumbers.put(node, "hi", hi, decimals);
		node.put("level", level);
		node.put("method", "percentile bootstrap");
		node.put("resamples", resamples);
		node.put("seed", seed);
		reason.ifPresent(why -> node.put("reason", why));
	}
}
