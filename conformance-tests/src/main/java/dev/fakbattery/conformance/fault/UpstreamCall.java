package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One chat request as the fault upstream saw it: how many bytes of the answer the gateway took (written into the
 * connection), whether the upstream finished its answer, and when the gateway closed the connection first (it read
 * end of input or a reset while the answer was still going).
 */
final class UpstreamCall {

	private final Fault fault;

	private final boolean stream;

	private final long arrived = System.nanoTime();

	private final AtomicLong written = new AtomicLong();

	private final CountDownLatch closed = new CountDownLatch(1);

	private volatile long closedAt;

	private volatile boolean finished;

	UpstreamCall(Fault fault, boolean stream) {
		this.fault = fault;
		this.stream = stream;
	}

	Fault fault() {
		return fault;
	}

	boolean stream() {
		return stream;
	}

	/** Bytes of the answer written into the connection so far. */
	long written() {
		return written.get();
	}

	void wrote(int bytes) {
		written.addAndGet(bytes);
	}

	/** Whether the upstream ended its answer itself (the gateway took all of it). */
	boolean finished() {
		return finished;
	}

	void finish() {
		finished = true;
	}

	/** Whether the gateway closed the connection before the upstream ended it. */
	boolean closedByGateway() {
		return closedAt != 0;
	}

	/** {@link System#nanoTime()} when the gateway closed the connection; 0 while open. */
	long closedAt() {
		return closedAt;
	}

	/** Milliseconds from the request's arrival to the gateway closing the connection. */
	long closedAfterMillis() {
		return closedAt == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(closedAt - arrived);
	}

	boolean awaitClosedByGateway(Duration timeout) throws InterruptedException {
		return closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** Watches the request side of the connection: end of input or a reset there means the gateway closed it. */
	void watchPeer(Socket socket, InputStream in) {
		Thread.ofVirtual().name("fault-upstream-peer-watch").start(() -> {
			try {
				while (in.read() >= 0) {
					// a gateway sends nothing more on a Connection: close exchange; anything read is ignored
				}
			}
			catch (IOException e) {
				// a reset, or the upstream closing the socket itself
			}
			gatewayClosed();
		});
	}

	void writeFailed(IOException e) {
		gatewayClosed();
	}

	private void gatewayClosed() {
		if (!finished && closedAt == 0) {
			closedAt = System.nanoTime();
			closed.countDown();
		}
	}
}
