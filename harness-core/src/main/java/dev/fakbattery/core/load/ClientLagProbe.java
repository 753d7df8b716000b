package dev.fakbattery.core.load;

import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apiguardian.api.API;

/**
 * Measures the load client's scheduling lag while it runs, the way jHiccup measures a JVM's: a virtual thread parks
 * for {@value #INTERVAL_MICROS} µs again and again and records how much later than asked it woke. It shares the
 * carrier threads with the virtual threads that send requests and read responses, so when the client has more work
 * than its cores, the probe wakes late exactly as a response read would. Cheap: one wake-up per millisecond.
 *
 * <pre>
 * try (ClientLagProbe probe = ClientLagProbe.start()) {
 *     ... run the arm ...
 *     ClientLag lag = probe.read();
 * }
 * </pre>
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ClientLagProbe implements AutoCloseable {

	/** How long the probe parks between samples: {@value} µs. */
	public static final long INTERVAL_MICROS = 1_000;

	/** How the lag is measured, for artifacts. */
	public static final String METHOD = "a virtual thread on the client's carriers parks 1 ms at a time; lag = wake-up time - "
			+ "asked wake-up time (jHiccup's method; includes the timer's own wake-up latency)";

	private final Recorder recorder = new Recorder(3);

	private final Thread thread;

	private volatile boolean stopped;

	private Histogram total = new Histogram(3);

	private Optional<HostCpu> since = HostCpu.now();

	private ClientLagProbe() {
		this.thread = Thread.ofVirtual().name("fak-client-lag").start(this::sample);
	}

	/** Starts probing now. */
	public static ClientLagProbe start() {
		return new ClientLagProbe();
	}

	private void sample() {
		long interval = INTERVAL_MICROS * 1_000;
		while (!stopped) {
			long due = System.nanoTime() + interval;
			long remaining;
			while ((remaining = due - System.nanoTime()) > 0 && !stopped) {
				LockSupport.parkNanos(remaining);
			}
			if (!stopped) {
				recorder.recordValue((System.nanoTime() - due) / 1_000);
			}
		}
	}

	/** The lag since the start (or the last {@link #reset()}), with the host's CPU accounting over the same stretch. */
	public synchronized ClientLag read() {
		total.add(recorder.getIntervalHistogram());
		Optional<HostCpu> host = since.flatMap(start -> HostCpu.now().map(now -> now.since(start)));
		return new ClientLag(total.copy(), host);
	}

	/** Forgets what was recorded so far, for example after a warm-up. */
	public synchronized void reset() {
		recorder.reset();
		total = new Histogram(3);
		since = HostCpu.now();
	}

	/** Stops the probe thread. */
	@Override
	public void close() {
		stopped = true;
		LockSupport.unpark(thread);
		try {
			thread.join(1_000);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
