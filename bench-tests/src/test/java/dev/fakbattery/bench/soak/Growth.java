package dev.fakbattery.bench.soak;

import java.util.Arrays;
import java.util.Optional;

/**
 * Whether a sampled resource grows without bound. The first {@value #WARMUP_FRACTION_PERCENT} % of samples (at least
 * two) are warm-up; the rest is cut in thirds. A series grows without bound when its medians rise third after third
 * and the last third's median exceeds the first's by more than {@code max(relative x first, absolute)}: a level that
 * settles, or noise around a level, passes; a steady climb fails. A run with fewer than three samples after warm-up
 * cannot be judged, and says so.
 */
final class Growth {

	static final int WARMUP_FRACTION_PERCENT = 20;

	private Growth() {
	}

	/** Empty when {@code samples} stay bounded; else the finding, naming the series, the medians and the limit. */
	static Optional<String> unbounded(String series, double[] samples, double relative, double absolute) {
		double[] values = Arrays.stream(samples).filter(v -> !Double.isNaN(v)).toArray();
		int warmup = Math.max(2, values.length * WARMUP_FRACTION_PERCENT / 100);
		if (values.length - warmup < 3) {
			return Optional.of(series + ": " + values.length + " samples, too few to judge after " + warmup
					+ " of warm-up (need at least " + (warmup + 3) + "; run longer or sample more often)");
		}
		double[] rest = Arrays.copyOfRange(values, warmup, values.length);
		int third = rest.length / 3;
		double first = median(Arrays.copyOfRange(rest, 0, third));
		double middle = median(Arrays.copyOfRange(rest, third, rest.length - third));
		double last = median(Arrays.copyOfRange(rest, rest.length - third, rest.length));
		double limit = Math.max(relative * first, absolute);
		if (first < middle && middle < last && last - first > limit) {
			return Optional.of(String.format(java.util.Locale.ROOT, "%s grows without bound: medians by third %.1f, %.1f, %.1f"
					+ " (rise %.1f, limit %.1f)", series, first, middle, last, last - first, limit));
		}
		return Optional.empty();
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}
}
