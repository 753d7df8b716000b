package dev.fakbattery.engine;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Scheduling lag of the double's emissions, in nanoseconds. Writers record wait-free into an HdrHistogram
 * {@link Recorder}; readers fold the interval histograms into a running total.
 *
 * @since 0.1
 */
final class LagRecorder {

	private final Recorder recorder = new Recorder(3);

	private final Histogram total = new Histogram(3);

	private Histogram interval;

	void record(long lagNanos) {
		recorder.recordValue(Math.max(0, lagNanos));
	}

	synchronized LagStats snapshot() {
		interval = recorder.getIntervalHistogram(interval);
		total.add(interval);
		return LagStats.of(total);
	}

	synchronized void reset() {
		interval = recorder.getIntervalHistogram(interval);
		total.reset();
	}
}
