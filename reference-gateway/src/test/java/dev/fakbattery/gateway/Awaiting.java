package dev.fakbattery.gateway;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling for conditions another thread makes true. */
final class Awaiting {

	private Awaiting() {
	}

	/** Whether {@code condition} became true within {@code limit}, checked every 5 ms. */
	static boolean until(BooleanSupplier condition, Duration limit) {
		long deadline = System.nanoTime() + limit.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}
}
