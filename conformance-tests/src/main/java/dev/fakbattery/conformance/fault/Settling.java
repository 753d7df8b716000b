package dev.fakbattery.conformance.fault;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * F05's evidence that a gateway stopped taking an upstream's answer: the bytes written stopped growing for a stable
 * period of time in which the kit itself ran. Time the kit's JVM was held (its collector's pauses, a reading that woke
 * late on a busy machine) does not count: the upstream the kit plays and an in-process gateway were held with it, so
 * a pause is no evidence of a bound (2026-12-03, beside two CPU burners, a gateway that buffers without bound passed
 * F05 on one target when those seconds counted).
 */
final class Settling {

	private final long stableNanos;

	private long last = Long.MIN_VALUE;

	private long since;

	private long held;

	Settling(long stableNanos) {
		this.stableNanos = stableNanos;
	}

	/**
	 * One reading of the bytes {@code written} at {@code nowNanos}, the kit having been held {@code heldNanos} since the
	 * last reading; true once the bytes have not changed for the stable period, held time left out.
	 */
	boolean observe(long nowNanos, long written, long heldNanos) {
		if (written != last) {
			last = written;
			since = nowNanos;
			held = 0;
			return false;
		}
		held += heldNanos;
		return nowNanos - since - held >= stableNanos;
	}

	/** Milliseconds this JVM's collectors have spent, all of them together (pauses and concurrent work alike). */
	static long collectorMillis() {
		long total = 0;
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			total += Math.max(0, collector.getCollectionTime());
		}
		return total;
	}
}
