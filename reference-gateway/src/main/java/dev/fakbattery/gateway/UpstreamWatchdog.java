package dev.fakbattery.gateway;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the time the gateway waits on an upstream body: a read that has waited the whole upstream timeout without a
 * byte closes the body (which unblocks the read and, for the JDK client, closes the connection, so the engine sees the
 * cancel) and fails with {@link UpstreamLimitException#stalled}. Only time spent inside {@code read} counts: a gateway
 * held back by a slow client is not a stalled upstream. One daemon timer thread per gateway re-arms each body's check
 * once per timeout, so the cost per byte is two clock reads.
 */
final class UpstreamWatchdog implements AutoCloseable {

	private final long timeoutNanos;

	private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
		Thread thread = new Thread(task, "reference-gateway-upstream-watchdog");
		thread.setDaemon(true);
		return thread;
	});

	UpstreamWatchdog(Duration timeout) {
		this.timeoutNanos = timeout.toNanos();
		// a closed body's check leaves the queue at once: kept until its delay it would hold the body for a whole
		// timeout, and at thousands of requests a second that is memory that grows with the rate (found by the soak)
		timer.setRemoveOnCancelPolicy(true);
	}

	/** Checks still scheduled: one per open body. */
	int pendingChecks() {
		return timer.getQueue().size();
	}

	/** {@code body}, failing a read that waits longer than the timeout, and any read past {@code maxBytes} in all. */
	InputStream watch(InputStream body, long maxBytes, String tooLarge) {
		return new Watched(body, maxBytes, tooLarge);
	}

	/** {@code body} with only the stall bound. */
	InputStream watch(InputStream body) {
		return watch(body, Long.MAX_VALUE, null);
	}

	@Override
	public void close() {
		timer.shutdownNow();
	}

	private final class Watched extends FilterInputStream {

		private final long maxBytes;

		private final String tooLarge;

		private long total;

		private volatile long readingSince;

		private volatile boolean stalled;

		private volatile boolean closed;

		private volatile ScheduledFuture<?> check;

		Watched(InputStream in, long maxBytes, String tooLarge) {
			super(in);
			this.maxBytes = maxBytes;
			this.tooLarge = tooLarge;
			arm(timeoutNanos);
		}

		@Override
		public int read() throws IOException {
			byte[] one = new byte[1];
			int n = read(one, 0, 1);
			return n < 0 ? -1 : one[0] & 0xff;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			readingSince = System.nanoTime();
			int n;
			try {
				n = in.read(b, off, len);
			}
			catch (IOException e) {
				throw stalled ? UpstreamLimitException.stalled(TimeUnit.NANOSECONDS.toMillis(timeoutNanos)) : e;
			}
			finally {
				readingSince = 0;
			}
			if (stalled) {
				throw UpstreamLimitException.stalled(TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
			}
			if (n > 0 && (total += n) > maxBytes) {
				throw UpstreamLimitException.tooLarge(tooLarge);
			}
			return n;
		}

		@Override
		public void close() throws IOException {
			closed = true;
			ScheduledFuture<?> pending = check;
			if (pending != null) {
				pending.cancel(false);
			}
			super.close();
		}

		private void arm(long delayNanos) {
			if (!closed) {
				check = timer.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
			}
		}

		private void check() {
			long since = readingSince;
			long waited = since == 0 ? 0 : System.nanoTime() - since;
			if (since != 0 && waited >= timeoutNanos) {
				stalled = true;
				try {
					in.close();
				}
				catch (IOException ignored) {
					// the read this unblocks reports the stall
				}
				return;
			}
			arm(timeoutNanos - waited);
		}
	}
}
