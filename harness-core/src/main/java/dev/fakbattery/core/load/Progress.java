package dev.fakbattery.core.load;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apiguardian.api.API;

/**
 * Tells a person watching a long run how far it is: {@code [tax] sweep c=64 raw 120/256 ETA 12s, batches 4/6 per arm,
 * ratio 0.9973 [0.9962, 0.9981]}, at most once per interval (default {@value #DEFAULT_INTERVAL_SECONDS} s) and once
 * at the end, with the caller's current {@linkplain #detail(String) detail} (level, batches, interval). The ETA
 * extrapolates the rate so far; {@code ?} before the first step. Thread-safe.
 *
 * <p>A progress {@linkplain #start(String, String, long) started on System.out} also ticks by itself every second
 * ({@link #tick()}), so a step that takes longer than the interval (a wave of 128 streams, a warm-up batch) still
 * prints a line each interval; {@link #finish()}, or the last step, stops the ticking. Tests drive {@link #tick()} with a fake clock.
 *
 * <pre>
 * Progress progress = Progress.start("tax", "witness raw+gateway", 32);
 * ... progress.advance(); progress.detail("ratio 0.99 [0.98, 1.00]"); ...
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

	private volatile String detail = "";

	/** Whether the steps are the seconds since the start ({@link #seconds}), read off the clock at each tick. */
	private volatile boolean clocked;

	private volatile ScheduledFuture<?> ticker;

	private static final ScheduledExecutorService TICKS = Executors.newSingleThreadScheduledExecutor(runnable -> {
		Thread thread = new Thread(runnable, "progress-ticks");
		thread.setDaemon(true);
		return thread;
	});

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

	/**
	 * Progress over {@code total} steps, printed to {@link System#out} every {@value #DEFAULT_INTERVAL_SECONDS} s whether
	 * or not a step completed, until {@link #finish()}.
	 */
	public static Progress start(String label, String step, long total) {
		Progress progress = new Progress(label, step, total, Duration.ofSeconds(DEFAULT_INTERVAL_SECONDS), System.out, System::nanoTime);
		progress.ticker = TICKS.scheduleAtFixedRate(progress::tick, 1, 1, TimeUnit.SECONDS);
		return progress;
	}

	/** Progress printed to {@code out} at most every {@code interval}, timed by {@code clock} (nanoseconds). */
	public static Progress start(String label, String step, long total, Duration interval, PrintStream out, LongSupplier clock) {
		return new Progress(label, step, total, interval, Objects.requireNonNull(out, "out"), clock);
	}

	/**
	 * Progress over {@code totalSeconds} whose steps are the seconds since the start, read off the clock at every tick:
	 * for a step with a cap but no count (a warm-up until the client is steady, a soak), so its ETA counts down to the
	 * cap instead of stretching while no step is reported.
	 */
	public static Progress seconds(String label, String step, long totalSeconds) {
		Progress progress = start(label, step, totalSeconds);
		progress.clocked = true;
		return progress;
	}

	/** {@link #seconds(String, String, long)} printed to {@code out} at most every {@code interval}, timed by {@code clock}. */
	static Progress seconds(String label, String step, long totalSeconds, Duration interval, PrintStream out, LongSupplier clock) {
		Progress progress = start(label, step, totalSeconds, interval, out, clock);
		progress.clocked = true;
		return progress;
	}

	/** A progress that prints nothing. */
	public static Progress silent() {
		return SILENT;
	}

	/** One more step done; prints when the interval has passed since the last line. */
	public void advance() {
		done.incrementAndGet();
		tick();
	}

	/** Steps done so far set to {@code steps} (e.g. seconds of a warm-up); prints when the interval has passed. */
	public void set(long steps) {
		done.set(steps);
		tick();
	}

	/** What the run knows now, appended to each line after a comma (e.g. {@code batches 4/6, ratio ...}); blank for none. */
	public void detail(String text) {
		detail = Objects.requireNonNull(text, "text");
	}

	/**
	 * Prints a line when the interval has passed since the last one, whether or not a step completed; once every step is
	 * done the ticking stops (a caller that never calls {@link #finish()} leaves no ticker behind).
	 */
	public void tick() {
		if (out == null) {
			return;
		}
		if (clocked) {
			done.accumulateAndGet(Math.min(total, (clock.getAsLong() - startNanos) / 1_000_000_000L), Math::max);
		}
		ScheduledFuture<?> running = ticker;
		if (running != null && done.get() >= total) {
			running.cancel(false);
			return;
		}
		long at = clock.getAsLong();
		long last = lastPrintNanos.get();
		if (at - last >= intervalNanos && lastPrintNanos.compareAndSet(last, at)) {
			out.println(line(done.get(), at, false));
		}
	}

	/** Stops the ticking and prints the final line. */
	public void finish() {
		ScheduledFuture<?> running = ticker;
		if (running != null) {
			running.cancel(false);
		}
		if (out != null) {
			out.println(line(done.get(), clock.getAsLong(), true));
		}
	}

	/** Steps done so far. */
	public long done() {
		return done.get();
	}

	String line(long steps, long at) {
		return line(steps, at, false);
	}

	/** The line; a finished run (which may stop short of its total, e.g. a level that stopped early) reads done. */
	String line(long steps, long at, boolean finished) {
		String eta;
		if (finished || steps >= total) {
			eta = "done in " + seconds(at - startNanos);
		}
		else if (steps == 0) {
			eta = "ETA ?";
		}
		else {
			eta = "ETA " + seconds((at - startNanos) / steps * (total - steps));
		}
		String known = detail;
		return "[" + label + "] " + step + " " + steps + "/" + total + " " + eta + (known.isBlank() ? "" : ", " + known);
	}

	private static String seconds(long nanos) {
		return Math.round(nanos / 1e9) + "s";
	}
}
