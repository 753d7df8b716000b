package dev.fakbattery.engine;

import org.HdrHistogram.Histogram;

/**
 * How late the double's own scheduled emissions were: for every emission (a token step of a stream, or a
 * non-streamed answer), the time its pre-serialized bytes start to be written minus its deadline. Time a slow reader
 * keeps the socket blocked is not lag. A bench declares its run invalid when {@code p99Micros} exceeds its limit,
 * because then the double, not the gateway, added the latency.
 *
 * @param count emissions recorded since the last reset
 * @param p50Micros median lag in microseconds, {@code NaN} when nothing was recorded
 * @param p99Micros 99th percentile lag in microseconds, {@code NaN} when nothing was recorded
 * @param maxMicros largest lag in microseconds, {@code NaN} when nothing was recorded
 * @since 0.1
 */
public record LagStats(long count, double p50Micros, double p99Micros, double maxMicros) {

	static LagStats of(Histogram nanos) {
		long count = nanos.getTotalCount();
		if (count == 0) {
			return new LagStats(0, Double.NaN, Double.NaN, Double.NaN);
		}
		return new LagStats(count,
				nanos.getValueAtPercentile(50) / 1_000.0,
				nanos.getValueAtPercentile(99) / 1_000.0,
				nanos.getMaxValue() / 1_000.0);
	}
}
