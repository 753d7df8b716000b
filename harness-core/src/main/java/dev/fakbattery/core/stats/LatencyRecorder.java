package dev.fakbattery.core.stats;

import java.util.Arrays;

import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/**
 * Records latencies in milliseconds and summarises them exactly while the sample set is small,
 * from an HdrHistogram once it is not.
 *
 * <p>Every sample goes into a {@link Histogram} in whole microseconds with
 * {@value #SIGNIFICANT_DIGITS} significant digits (auto-resizing, so no value is out of range). The
 * first {@code exactCapacity} samples are also kept as they are. {@link #summary()} is
 * {@link Summary.Method#EXACT} while every sample is kept and {@link Summary.Method#HDR_HISTOGRAM}
 * after that; the summary says which. The default capacity,
 * {@value #DEFAULT_EXACT_CAPACITY}, covers every tax-witness arm; a load run with more requests is
 * summarised from the histogram.
 *
 * <pre>
 * LatencyRecorder ttft = new LatencyRecorder();
 * ttft.recordMillis(212.4);
 * Summary s = ttft.summary();
 * </pre>
 *
 * <p>Thread-safe: concurrent request workers may record into one recorder.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class LatencyRecorder {

	/** Precision of the histogram: at most 0.1% relative error. */
	public static final int SIGNIFICANT_DIGITS = 3;

	/** How many samples are kept for an exact summary unless told otherwise. */
	public static final int DEFAULT_EXACT_CAPACITY = 10_000;

	private final Histogram micros = new Histogram(SIGNIFICANT_DIGITS);

	private final int exactCapacity;

	private double[] exact = new double[16];

	private long count;

	/** A recorder that keeps up to {@value #DEFAULT_EXACT_CAPACITY} samples for an exact summary. */
	public LatencyRecorder() {
		this(DEFAULT_EXACT_CAPACITY);
	}

	/** @param exactCapacity how many samples to keep for an exact summary; 0 always uses the histogram */
	public LatencyRecorder(int exactCapacity) {
		if (exactCapacity < 0) {
			throw new IllegalArgumentException("exactCapacity must be >= 0, got " + exactCapacity);
		}
		this.exactCapacity = exactCapacity;
	}

	/**
	 * Records one latency.
	 * @throws IllegalArgumentException if it is negative, {@code NaN} or infinite
	 */
	public synchronized void recordMillis(double ms) {
		if (!(ms >= 0) || Double.isInfinite(ms)) {
			throw new IllegalArgumentException("latency must be a finite number of ms >= 0, got " + ms);
		}
		micros.recordValue(Math.round(ms * 1000.0));
		if (count < exactCapacity) {
			if (count == exact.length) {
				exact = Arrays.copyOf(exact, Math.min(exactCapacity, exact.length * 2));
			}
			exact[(int) count] = ms;
		}
		count++;
	}

	/** How many latencies were recorded. */
	public synchronized long count() {
		return count;
	}

	/** Exact while every sample is kept, from the histogram after; see the class comment. */
	public synchronized Summary summary() {
		if (count <= exactCapacity) {
			return Summary.ofMillis(Arrays.copyOf(exact, (int) count));
		}
		return Summary.ofMicrosHistogram(micros);
	}

	/** A copy of the histogram (microseconds), for merging or encoding. */
	public synchronized Histogram histogram() {
		return micros.copy();
	}
}
