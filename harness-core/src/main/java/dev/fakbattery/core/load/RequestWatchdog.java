package dev.fakbattery.core.load;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends one request that outlives its deadline (headers and whole body) by interrupting the thread
 * that reads it, so even a stream that never ends stops by itself. The interrupt can only land
 * before {@link #finish()}: after it, the thread's interrupt status is what it was.
 */
final class RequestWatchdog {

	private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
			Thread.ofPlatform().daemon().name("fak-load-watchdog").factory());

	private final Thread reader = Thread.currentThread();

	private final ScheduledFuture<?> alarm;

	private boolean done;

	private boolean fired;

	/** Arms a watchdog for the calling thread. */
	RequestWatchdog(Duration timeout) {
		this.alarm = TIMER.schedule(this::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	private synchronized void fire() {
		if (!done) {
			fired = true;
			reader.interrupt();
		}
	}

	/** Disarms it; whether it fired, in which case its interrupt is cleared. Call on the reading thread. */
	synchronized boolean finish() {
		done = true;
		alarm.cancel(false);
		if (fired) {
			Thread.interrupted();
		}
		return fired;
	}
}
