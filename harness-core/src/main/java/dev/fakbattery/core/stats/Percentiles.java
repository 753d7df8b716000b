package dev.fakbattery.core.stats;

import java.util.Arrays;

import org.apiguardian.api.API;

/**
 * Exact order statistics over samples held in memory, computed the way the Python tools fak
 * battery and {@code vllm bench serve} use do, so a number here equals the number there.
 *
 * <ul>
 * <li>{@link #median(double[])} is Python's {@code statistics.median}: the middle value, or for an
 * even count the mean {@code (a + b) / 2} of the two middle values.</li>
 * <li>{@link #percentile(double[], double)} is NumPy's {@code np.percentile} with its default
 * {@code linear} method, including NumPy's way of interpolating, so results agree to the bit.</li>
 * </ul>
 *
 * <p>Unknown is {@code NaN}: an empty sample has no median and no percentile. Samples must be
 * finite; a {@code NaN} or infinite sample is a bug upstream and is rejected rather than sorted
 * somewhere arbitrary.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class Percentiles {

	private Percentiles() {
	}

	/**
	 * The exact median, as Python's {@code statistics.median}; {@code NaN} when empty.
	 * @param samples any order; not modified
	 */
	public static double median(double[] samples) {
		return medianOfSorted(sortedCopy(samples));
	}

	/** {@link #median(double[])} of samples already in ascending order. */
	public static double medianOfSorted(double[] sorted) {
		int n = sorted.length;
		if (n == 0) {
			return Double.NaN;
		}
		int mid = n / 2;
		return n % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	}

	/**
	 * The exact percentile of samples already in ascending order, as NumPy's
	 * {@code np.percentile(samples, pct)} (method {@code linear}); {@code NaN} when empty.
	 * @param pct in {@code [0, 100]}
	 */
	public static double percentile(double[] sorted, double pct) {
		if (!(pct >= 0 && pct <= 100)) {
			throw new IllegalArgumentException("percentile must be within [0, 100], got " + pct);
		}
		int n = sorted.length;
		if (n == 0) {
			return Double.NaN;
		}
		double index = pct / 100.0 * (n - 1);
		int below = (int) Math.floor(index);
		int above = Math.min(below + 1, n - 1);
		return lerp(sorted[below], sorted[above], index - below);
	}

	/** A sorted copy of the samples, after checking every one is finite. */
	public static double[] sortedCopy(double[] samples) {
		double[] copy = samples.clone();
		for (int i = 0; i < copy.length; i++) {
			if (!Double.isFinite(copy[i])) {
				throw new IllegalArgumentException("sample " + i + " is not a finite number: " + copy[i]
						+ "; drop failed samples before computing statistics");
			}
		}
		Arrays.sort(copy);
		return copy;
	}

	/** NumPy's {@code _lerp}: interpolate from the nearer end, so {@code t = 1} gives {@code b} exactly. */
	static double lerp(double a, double b, double t) {
		double diff = b - a;
		return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
	}
}
