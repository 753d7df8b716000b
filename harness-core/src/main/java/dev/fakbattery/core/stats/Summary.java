package dev.fakbattery.core.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.HdrHistogram.AbstractHistogram;
import org.apiguardian.api.API;

/**
 * The distribution summary the serving benchmarks report for one metric, in milliseconds: count,
 * mean, median, population std, min, max and p50/p90/p95/p99/p99.9.
 *
 * <h2>Which computation is used when</h2>
 * <ul>
 * <li>{@link #ofMillis(double...)}: samples held in memory are summarised <b>exactly</b>
 * ({@link Method#EXACT}). The median is Python's {@code statistics.median} (the mean of the two
 * middle values for an even count, so the median of 8 samples matches fak's tax witness),
 * percentiles are NumPy's {@code linear} {@code np.percentile}, std is {@code np.std} (population).
 * Use it for the small per-arm sample sets of a tax witness and for anything that must equal a
 * Python tool's number.</li>
 * <li>{@link #ofMicrosHistogram(AbstractHistogram)}: a latency distribution recorded into an
 * HdrHistogram in microseconds is summarised from the histogram ({@link Method#HDR_HISTOGRAM}).
 * Values are accurate to the histogram's precision (3 significant digits, at most 0.1% off, as
 * {@link LatencyRecorder} records them); percentiles are the histogram's value at that percentile,
 * not interpolated. Use it for long or concurrent load runs, where holding every sample is not
 * wanted.</li>
 * <li>{@link LatencyRecorder#summary()} picks between the two: exact while it still holds every
 * sample, the histogram once there were more than its exact capacity.</li>
 * </ul>
 *
 * <p>Unknown is {@code NaN}, never 0: an empty sample gives count 0 and {@code NaN} everywhere
 * else.
 *
 * @param method how the numbers were computed
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record Summary(Method method, long count, double mean, double median, double std, double min, double max,
		double p50, double p90, double p95, double p99, double p999) {

	/** How a summary was computed. @since 0.1 */
	public enum Method {
		/** From every sample, exactly. */
		EXACT,
		/** From an HdrHistogram, to its precision. */
		HDR_HISTOGRAM
	}

	/** The percentiles every summary carries, as written in field names ({@code p99.9_ttft_ms}). */
	static final double[] PERCENTILES = { 50, 90, 95, 99, 99.9 };

	private static final double MICROS_PER_MILLI = 1000.0;

	/**
	 * Summarises samples in milliseconds exactly ({@link Method#EXACT}).
	 * @throws IllegalArgumentException if a sample is {@code NaN} or infinite
	 */
	public static Summary ofMillis(double... samplesMs) {
		double[] sorted = Percentiles.sortedCopy(samplesMs);
		int n = sorted.length;
		if (n == 0) {
			return empty(Method.EXACT);
		}
		double mean = mean(sorted);
		return new Summary(Method.EXACT, n, mean, Percentiles.medianOfSorted(sorted), populationStd(sorted, mean),
				sorted[0], sorted[n - 1], Percentiles.percentile(sorted, 50), Percentiles.percentile(sorted, 90),
				Percentiles.percentile(sorted, 95), Percentiles.percentile(sorted, 99),
				Percentiles.percentile(sorted, 99.9));
	}

	/**
	 * Summarises a histogram whose values are microseconds ({@link Method#HDR_HISTOGRAM}); the
	 * summary is in milliseconds.
	 */
	public static Summary ofMicrosHistogram(AbstractHistogram micros) {
		long n = micros.getTotalCount();
		if (n == 0) {
			return empty(Method.HDR_HISTOGRAM);
		}
		return new Summary(Method.HDR_HISTOGRAM, n, ms(micros.getMean()), at(micros, 50),
				ms(micros.getStdDeviation()), ms(micros.getMinValue()), ms(micros.getMaxValue()), at(micros, 50),
				at(micros, 90), at(micros, 95), at(micros, 99), at(micros, 99.9));
	}

	/** The summary of no samples: count 0, every statistic {@code NaN}. */
	public static Summary empty(Method method) {
		double nan = Double.NaN;
		return new Summary(method, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan);
	}

	/** Whether there was at least one sample. */
	public boolean isEmpty() {
		return count == 0;
	}

	/** The value at one of the reported percentiles (50, 90, 95, 99, 99.9). */
	public double percentile(double pct) {
		if (pct == 50) {
			return p50;
		}
		if (pct == 90) {
			return p90;
		}
		if (pct == 95) {
			return p95;
		}
		if (pct == 99) {
			return p99;
		}
		if (pct == 99.9) {
			return p999;
		}
		throw new IllegalArgumentException("percentile " + pct + " is not reported; reported are 50, 90, 95, 99 and 99.9");
	}

	/**
	 * Writes the summary under vLLM's field names for metric {@code m}: {@code mean_<m>_ms},
	 * {@code median_<m>_ms}, {@code std_<m>_ms}, {@code p<N>_<m>_ms} (as {@code p99.9_<m>_ms}), plus
	 * {@code count_<m>}, {@code min_<m>_ms}, {@code max_<m>_ms} and {@code method_<m>}. {@code NaN}
	 * is written as {@code null}.
	 */
	public void writeTo(ObjectNode node, String metric) {
		node.put("count_" + metric, count);
		node.put("method_" + metric, method.name());
		JsonNumbers.put(node, "mean_" + metric + "_ms", mean);
		JsonNumbers.put(node, "median_" + metric + "_ms", median);
		JsonNumbers.put(node, "std_" + metric + "_ms", std);
		JsonNumbers.put(node, "min_" + metric + "_ms", min);
		JsonNumbers.put(node, "max_" + metric + "_ms", max);
		for (double pct : PERCENTILES) {
			JsonNumbers.put(node, "p" + percentileWord(pct) + "_" + metric + "_ms", percentile(pct));
		}
	}

	/** vLLM's {@code p_word}: {@code 99} for 99.0, {@code 99.9} for 99.9. */
	static String percentileWord(double pct) {
		return pct == Math.rint(pct) ? Long.toString((long) pct) : Double.toString(pct);
	}

	private static double mean(double[] values) {
		double sum = 0;
		for (double v : values) {
			sum += v;
		}
		return sum / values.length;
	}

	private static double populationStd(double[] values, double mean) {
		double squares = 0;
		for (double v : values) {
			squares += (v - mean) * (v - mean);
		}
		return Math.sqrt(squares / values.length);
	}

	private static double at(AbstractHistogram micros, double pct) {
		return ms(micros.getValueAtPercentile(pct));
	}

	private static double ms(double micros) {
		return micros / MICROS_PER_MILLI;
	}
}
