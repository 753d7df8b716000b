package dev.fakbattery.core.load;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apiguardian.api.API;

/**
 * Tells a person watching a long run how far it is: {@code [tax] sweep c=64 raw 120/256 ETA 12s},
 * at most once per interval (default {@value #DEFAULT_INTERVAL_SECONDS} s) and once at the end.
 * The ETA extrapolates the rate so far; {@code ?} before the first step. Thread-safe.
 *
 * <pre>
 * Progress progress = Progress.start("tax", "witness raw+gateway", 32);
 * ... progress.advance(); ...
 * progress.finish();
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class Progress {

	/** Seconds between two lines unless told otherwise. */
	public static final long DEFAULT_INTERVAL_SECONDS = 5;

	private static final Progress SILENT = new Progress("", "", 0, Duration.ofDays(365), null, System::nanoTime);

	private final String label;

	private final String step;

	private final long total;

	private final long intervalNanos;

	private final PrintStream out;

	private final LongSupplier clock;

	private final long startNanos;

	private final AtomicLong done = new AtomicLong();

	private final AtomicLong lastPrintNanos;

	Progress(String label, String step, long total, Duration interval, PrintStream out, LongSupplier clock) {
		this.label = Objects.requireNonNull(label, "label");
		this.step = Objects.requireNonNull(step, "step");
		this.total = total;
		this.intervalNanos = interval.toNanos();
		this.out = out;
		this.clock = clock;
		this.startNanos = clock.getAsLong();
		this.lastPrintNanos = new AtomicLong(startNanos);
	}

	/** Progress over {@code total} steps, printed to {@link System#out} at most every 5 s. */
	public static Progress start(String label, String step, long total) {
		return new Progress(label, step, total, Duration.ofSeconds(DEFAULT_INTERVAL_SECONDS), System.out, System::nanoTime);
	}

	/** Progress printed to {@code out} at most every {@code interval}, timed by {@code clock} (nanoseconds). */
	public static Progress start(String label, String step, long total, Duration interval, PrintStream out, LongSupplier clock) {
		return new Progress(label, step, total, interval, Objects.requireNonNull(out, "out"), clock);
	}

	/** A progress that prints nothing. */
	public static Progress silent() {
		return SILENT;
	}

	/** One more step done; prints when the interval has passed since the last line. */
	public void advance() {
		long now = done.incrementAndGet();
		if (out == null) {
			return;
		}
		long at = clock.getAsLong();
		long last = lastPrintNanos.get();
		if (at - last >= intervalNanos && lastPrintNanos.compareAndSet(last, at)) {
			out.println(line(now, at));
		}
	}

	/** Prints the final line. */
	public void finish() {
		if (out != null) {
			out.println(line(done.get(), clock.getAsLong()));
		}
	}

	/** Steps done so far. */
	public long done() {
		return done.get();
	}

	String line(long steps, long at) {
		String eta;
		if (steps >= total) {
			eta = "done in " + seconds(at - startNanos);
		}
		else if (steps == 0) {
			eta = "ETA ?";
		}
		else {
			eta = "ETA " + seconds((at - startNanos) / steps * (total - steps));
		}
		return "[" + label + "] " + step + " " + steps + "/" + total + " " + eta;
	}

	private static String seconds(long nanos) {
		return Math.round(nanos / 1e9) + "s";
	}
}
