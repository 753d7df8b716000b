package dev.fakbattery.core.stats;

import org.apiguardian.api.API;

/**
 * How long the blocks of a block bootstrap must be for a series whose consecutive values are correlated: the automatic
 * choice of Politis and White (2004), with the correction of Patton, Politis and White (2009), for the circular block
 * bootstrap, as {@code arch}'s {@code optimal_block_length} and R's {@code np::b.star} compute it.
 *
 * <p>Resampling single values of a correlated series (a latency that drifts, a gateway whose cost wanders with its heap)
 * treats neighbours as independent and gives an interval too narrow: on a series with lag-one autocorrelation 0.9 a
 * nominal 95 % interval of a ratio of medians covers about 60 %. Resampling blocks keeps the correlation inside each
 * block; the block must be long enough to hold it and short enough to leave many blocks. The estimate:
 * <ol>
 * <li>{@code m}: the smallest lag after which {@code K = max(5, sqrt(log10 n))} autocorrelations in a row are all under
 * {@code 2 sqrt(log10 n / n)} in size; {@code M = 2 max(m, 1)}, at most {@code sqrt(n) + K};</li>
 * <li>with the flat-top window {@code w(t) = 1} for {@code |t| <= 1/2}, {@code 2 (1 - |t|)} up to 1:
 * {@code G = sum w(k/M) |k| R(k)} and {@code g = sum w(k/M) R(k)} over {@code |k| <= M} ({@code R} the
 * autocovariance);</li>
 * <li>{@code b = (2 G^2 / D)^(1/3) n^(1/3)} with {@code D = 4/3 g^2}, at least 1 and at most
 * {@code min(3 sqrt(n), n / 3)}.</li>
 * </ol>
 * On an AR(1) series with coefficient {@code phi} it tends to {@code (1.5 (2 phi / (1 - phi^2))^2)^(1/3) n^(1/3)}
 * ({@code BlockLengthTests} checks it there); on independent values it is near 1.
 *
 * <pre>
 * double b = BlockLength.politisWhite(pairedLogRatios);
 * </pre>
 *
 * @since 0.9
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.9")
public final class BlockLength {

	/** The method, for artifacts and docs. */
	public static final String METHOD = "Politis-White (2004, corrected 2009) automatic block length for the circular block "
			+ "bootstrap, flat-top lag window";

	private BlockLength() {
	}

	/**
	 * The block length, in values of {@code series}, that the circular block bootstrap of its mean wants; 1 for fewer than
	 * 4 values, a constant series, or one whose estimated long-run variance is not positive (no formula to apply).
	 *
	 * @throws IllegalArgumentException if a value is not finite
	 */
	public static double politisWhite(double[] series) {
		Window w = window(series);
		if (w == null || !(w.longRun() > 0)) {
			return 1;
		}
		int n = series.length;
		double upper = Math.ceil(Math.min(3 * Math.sqrt(n), n / 3.0));
		double d = 4.0 / 3.0 * w.longRun() * w.longRun();
		double b = Math.cbrt(2 * w.weighted() * w.weighted() / d) * Math.cbrt(n);
		return Math.max(1, Math.min(b, upper));
	}

	/**
	 * How many times the variance of the series' mean exceeds what as many independent values of the same variance give:
	 * the flat-top lag-window estimate of the long-run variance ({@code g} above, the same window and bandwidth) over
	 * the variance, at least 1, so a correction never narrows an interval; 1 for fewer than 4 values, a constant series
	 * or a long-run variance that is not positive. Dividing a count by it gives the effective sample size of a mean (or
	 * of a proportion: the series of 0s and 1s, in time order).
	 *
	 * @throws IllegalArgumentException if a value is not finite
	 * @since 0.9
	 */
	public static double designEffect(double[] series) {
		Window w = window(series);
		if (w == null || !(w.longRun() > 0)) {
			return 1;
		}
		return Math.max(1, w.longRun() / w.variance());
	}

	/**
	 * The flat-top window's sums: the variance {@code R(0)}, {@code g} (the long-run variance) and {@code G}.
	 */
	private record Window(double variance, double longRun, double weighted) {
	}

	/** The window's sums; null for fewer than 4 values or a constant series. */
	private static Window window(double[] series) {
		int n = series.length;
		for (int i = 0; i < n; i++) {
			if (!Double.isFinite(series[i])) {
				throw new IllegalArgumentException("series value " + i + " is not a finite number: " + series[i]);
			}
		}
		if (n < 4) {
			return null;
		}
		double mean = 0;
		for (double v : series) {
			mean += v;
		}
		mean /= n;
		double[] centred = new double[n];
		for (int i = 0; i < n; i++) {
			centred[i] = series[i] - mean;
		}
		int k = Math.max(5, (int) Math.ceil(Math.sqrt(Math.log10(n))));
		int maxLag = Math.min(n - 1, (int) Math.ceil(Math.sqrt(n)) + k);
		double[] acv = new double[maxLag + 1];
		for (int lag = 0; lag <= maxLag; lag++) {
			double sum = 0;
			for (int i = lag; i < n; i++) {
				sum += centred[i] * centred[i - lag];
			}
			acv[lag] = sum / n;
		}
		if (!(acv[0] > 0)) {
			return null;
		}
		double critical = 2 * Math.sqrt(Math.log10(n) / n);
		int m = -1;
		for (int candidate = 0; candidate + k <= maxLag && m < 0; candidate++) {
			boolean quiet = true;
			for (int j = 1; j <= k && quiet; j++) {
				quiet = Math.abs(acv[candidate + j] / acv[0]) < critical;
			}
			if (quiet) {
				m = candidate;
			}
		}
		int window = m < 0 ? maxLag : Math.min(2 * Math.max(m, 1), maxLag);
		double bigG = 0;
		double g = acv[0];
		for (int lag = 1; lag <= window; lag++) {
			double t = (double) lag / window;
			double w = t <= 0.5 ? 1 : 2 * (1 - t);
			bigG += 2 * w * lag * acv[lag];
			g += 2 * w * acv[lag];
		}
		return new Window(acv[0], g, bigG);
	}
}
