package dev.fakbattery.bench.tax;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

/**
 * The engine double's scheduling lag, seen through a probe so this module's main code does not
 * depend on the double: {@link #reset()} after a warm-up, {@link #read()} after the run.
 *
 * @since 0.1
 */
public interface UpstreamLag {

	/** The most p99 scheduling lag that still lets a run count: {@value} µs (1 ms). */
	double LIMIT_P99_MICROS = 1_000.0;

	/** Clears the lag histogram. */
	void reset();

	/** The lag since the last reset. */
	Reading read();

	/**
	 * Lag of the double's emissions: start of write minus deadline.
	 *
	 * @param count emissions recorded
	 * @param p50Micros median, {@code NaN} when none
	 * @param p99Micros 99th percentile, {@code NaN} when none
	 * @param maxMicros largest, {@code NaN} when none
	 * @since 0.1
	 */
	record Reading(long count, double p50Micros, double p99Micros, double maxMicros) {

		/** Whether the double kept its schedule: p99 at most 1 ms over at least one emission. */
		public boolean withinLimit() {
			return count > 0 && p99Micros <= LIMIT_P99_MICROS;
		}

		/** {@code count, p50_us, p99_us, max_us, limit_p99_us, within_limit}. */
		public void writeTo(ObjectNode node) {
			node.put("count", count);
			JsonNumbers.put(node, "p50_us", p50Micros, 1);
			JsonNumbers.put(node, "p99_us", p99Micros, 1);
			JsonNumbers.put(node, "max_us", maxMicros, 1);
			node.put("limit_p99_us", LIMIT_P99_MICROS);
			node.put("within_limit", withinLimit());
		}

		@Override
		public String toString() {
			return String.format(java.util.Locale.ROOT, "p99 %.1f us (p50 %.1f, max %.1f) over %d emissions", p99Micros, p50Micros,
					maxMicros, count);
		}
	}
}
