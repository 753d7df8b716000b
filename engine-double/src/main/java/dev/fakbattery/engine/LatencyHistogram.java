package dev.fakbattery.engine;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

import dev.fakbattery.wire.PromText;

/**
 * A Prometheus histogram in seconds with fixed upper bounds, as the engines export for TTFT, ITL and E2E latency.
 *
 * @since 0.1
 */
final class LatencyHistogram implements PromText.Histogram {

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

	@Override
	public double[] bounds() {
		return bounds.clone();
	}

	@Override
	public long[] cumulativeCounts() {
		long[] cumulative = new long[bounds.length];
		long running = 0;
		for (int i = 0; i < bounds.length; i++) {
			running += counts[i].sum();
			cumulative[i] = running;
		}
		return cumulative;
	}

	@Override
	public long count() {
		return count.sum();
	}

	@Override
	public double sum() {
		return sum.sum();
	}
}
