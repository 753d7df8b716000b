package dev.fakbattery.engine;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus histogram in seconds with fixed upper bounds, as the engines export for TTFT, ITL and E2E latency.
 *
 * @since 0.1
 */
final class LatencyHistogram {

	private final double[] bounds;

	private final LongAdder[] counts;

	private final DoubleAdder sum = new DoubleAdder();

	private final LongAdder count = new LongAdder();

	LatencyHistogram(double... bounds) {
		this.bounds = bounds.clone();
		this.counts = new LongAdder[bounds.length];
		for (int i = 0; i < bounds.length; i++) {
			counts[i] = new LongAdder();
		}
	}

	void observeNanos(long nanos) {
		double seconds = Math.max(0, nanos) / 1e9;
		for (int i = 0; i < bounds.length; i++) {
			if (seconds <= bounds[i]) {
				counts[i].increment();
				break;
			}
		}
		sum.add(seconds);
		count.increment();
	}

	double[] bounds() {
		return bounds.clone();
	}

	/** Cumulative counts per bound, as the {@code _bucket} samples show them. */
	long[] cumulativeCounts() {
		long[] cumulative = new long[bounds.length];
		long running = 0;
		for (int i = 0; i < bounds.length; i++) {
			running += counts[i].sum();
			cumulative[i] = running;
		}
		return cumulative;
	}

	long count() {
		return count.sum();
	}

	double sum() {
		return sum.sum();
	}
}
