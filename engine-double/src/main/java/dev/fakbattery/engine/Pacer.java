package dev.fakbattery.engine;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for absolute {@link System#nanoTime()} deadlines: parks until {@code spinNanos} before the deadline, then
 * spins. Parking against the deadline, not sleeping a duration, keeps a late wake-up from delaying later tokens.
 *
 * @since 0.1
 */
final class Pacer {

	private final long spinNanos;

	Pacer(long spinNanos) {
		this.spinNanos = spinNanos;
	}

	/**
	 * Returns at or after {@code deadline}.
	 *
	 * @throws InterruptedIOException when the thread is interrupted (the double is closing)
	 */
	void awaitDeadline(long deadline) throws InterruptedIOException {
		for (;;) {
			if (Thread.interrupted()) {
				throw new InterruptedIOException("engine double closing");
			}
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				return;
			}
			if (remaining > spinNanos) {
				LockSupport.parkNanos(remaining - spinNanos);
			}
			else {
				Thread.onSpinWait();
			}
		}
	}
}
