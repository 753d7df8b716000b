package dev.fakbattery.core.stats;

import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * A point estimate with its confidence interval {@code [lo, hi]}, and the method that made it: a
 * {@value #PERCENTILE_BOOTSTRAP} ({@link BootstrapCi}) unless it says otherwise (a Wilson score interval, a posterior's
 * quantiles, bounds read back from an artifact).
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
 * @param method how the bounds were computed, as artifacts name it ({@value #PERCENTILE_BOOTSTRAP}, {@value #REPORTED})
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record ConfidenceInterval(String statistic, double estimate, double lo, double hi, double level,
		int resamples, long seed, Optional<String> reason, String method) {

	/** The method of {@link BootstrapCi}'s intervals, and of every interval that names none. */
	public static final String PERCENTILE_BOOTSTRAP = "percentile bootstrap";

	/** The method of {@link #ofBounds(String, double, double, double, double)}: bounds read back, not computed here. */
	public static final String REPORTED = "reported bounds (computed by whoever wrote them)";

	public ConfidenceInterval {
		Objects.requireNonNull(statistic, "statistic");
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(method, "method");
	}

	/** A {@value #PERCENTILE_BOOTSTRAP} interval (the record before it named its method). */
	public ConfidenceInterval(String statistic, double estimate, double lo, double hi, double level, int resamples, long seed,
			Optional<String> reason) {
		this(statistic, estimate, lo, hi, level, resamples, seed, reason, PERCENTILE_BOOTSTRAP);
	}

	/** An interval that could not be computed, with the reason. */
	public static ConfidenceInterval undefined(String statistic, String reason, double level, int resamples,
			long seed) {
		return new ConfidenceInterval(statistic, Double.NaN, Double.NaN, Double.NaN, level, resamples, seed,
				Optional.of(reason));
	}

	/**
	 * An interval known only by its bounds, as an artifact carries it ({@code ci95: {low, high}}): no resamples, seed 0,
	 * method {@value #REPORTED}.
	 *
	 * @throws IllegalArgumentException when the bounds are not finite and ordered
	 */
	public static ConfidenceInterval ofBounds(String statistic, double estimate, double lo, double hi, double level) {
		return ofBounds(statistic, estimate, lo, hi, level, REPORTED);
	}

	/**
	 * An interval computed in closed form (no resamples, seed 0) by {@code method}, e.g. a Wilson score interval.
	 *
	 * @throws IllegalArgumentException when the bounds are not finite and ordered
	 * @since 0.8
	 */
	public static ConfidenceInterval ofBounds(String statistic, double estimate, double lo, double hi, double level, String method) {
		ConfidenceInterval ci = new ConfidenceInterval(statistic, estimate, lo, hi, level, 0, 0, Optional.empty(), method);
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
		node.put("method", method);
		node.put("resamples", resamples);
		node.put("seed", seed);
		reason.ifPresent(why -> node.put("reason", why));
	}
}
