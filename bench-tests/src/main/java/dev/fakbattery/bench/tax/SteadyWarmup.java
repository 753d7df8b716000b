package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.wire.JsonNumbers;

/**
 * A sweep's warm-up before its first level: pairs of closed-loop batches (arm A, then arm B) until the load client's
 * lag p99 over the latest batches reads within {@link ClientLag#LIMIT_P99_MICROS}, or the time cap ({@code sweep.warmup.s})
 * has passed. The latest batches are the last pair, with earlier ones added until they hold {@value #WINDOW_SAMPLES}
 * probe samples (about a second): a batch of a fast engine lasts a few milliseconds, and the p99 of a handful of samples
 * is their maximum. Nothing of the warm-up is measured, but every failed request of it is kept per arm and judged like a
 * level's ({@link #failures()}).
 *
 * <p>Why not a fixed count: on a small machine the client shares its cores with a freshly started gateway JVM whose JIT
 * compiler runs for a minute or more, and the client wakes late meanwhile. On 2 cores against llama-server the first
 * level read client lag p99 2-3.9 ms and the levels two minutes later 0.6-1.0 ms, whichever order the levels ran in;
 * a fixed warm-up of 8 requests left every sweep's first levels invalid. A warm-up that never steadies costs only time:
 * each measured level is checked for client lag on its own, and the readings here go into the artifact.
 *
 * <p>Why at {@link #concurrency(List) at least 8 streams} rather than at the first level: a JIT compiler warms on
 * requests, not on seconds, and the first level is often 1 stream. Against the engine double (1.3 s a request at one
 * stream, 1.8 s at eight) a batch of 16 at one stream took 21 s and the warm-up ran to its 126 s cap in six batches
 * (issue [14]); at eight streams a batch of 32 takes about 7 s, six times the requests a second.
 *
 * @param concurrency the warm-up's concurrency
 * @param batchRequests requests per batch
 * @param lags client lag of each batch, in run order (A, B, A, B, ...)
 * @param seconds how long the warm-up took
 * @param steady whether a pair read within the limit before the cap
 * @param failedA arm A's failed warm-up requests, kept to be judged ({@link #failures()})
 * @param failedB arm B's failed warm-up requests
 * @since 0.4
 */
record SteadyWarmup(int concurrency, int batchRequests, List<ClientLag> lags, double seconds, boolean steady,
		List<RequestOutcome> failedA, List<RequestOutcome> failedB) {

	SteadyWarmup {
		failedA = List.copyOf(failedA);
		failedB = List.copyOf(failedB);
	}

	/** A warm-up whose requests all answered. */
	SteadyWarmup(int concurrency, int batchRequests, List<ClientLag> lags, double seconds, boolean steady) {
		this(concurrency, batchRequests, lags, seconds, steady, List.of(), List.of());
	}

	/** This warm-up with its arms' failed requests. */
	SteadyWarmup withFailures(List<RequestOutcome> a, List<RequestOutcome> b) {
		return new SteadyWarmup(concurrency, batchRequests, lags, seconds, steady, a, b);
	}

	/** Each arm's failed warm-up requests, judged like a level's ({@link ArmFailures}): A raw, B gateway. */
	ArmFailures failures() {
		return new ArmFailures("warm-up", failedA.size(), failedB.size(), lags.size() / 2 * batchRequests,
				failedB.stream().findFirst().map(RequestOutcome::error).orElse(null));
	}

	/** The fewest probe samples the steadiness is judged on: {@value} (one a millisecond). */
	static final long WINDOW_SAMPLES = 1_000;

	/** The warm-up's concurrency when the sweep's levels allow it: {@value}. */
	static final int CONCURRENCY = 8;

	/** How the warm-up stops, for the artifact. */
	static final String RULE = "pairs of closed-loop batches (arm A then arm B) until the client lag p99 over the last pair "
			+ "(and earlier batches until " + WINDOW_SAMPLES + " probe samples) is <= " + (int) ClientLag.LIMIT_P99_MICROS
			+ " us, or the time cap; not measured";

	/**
	 * The warm-up's concurrency for a sweep of {@code levels}: {@value #CONCURRENCY} streams, but never fewer than the
	 * first level nor more than the highest (a sweep of one stream warms with one).
	 */
	static int concurrency(List<Integer> levels) {
		int highest = levels.stream().mapToInt(Integer::intValue).max().orElseThrow();
		return Math.max(levels.get(0), Math.min(CONCURRENCY, highest));
	}

	/** Warms {@code a} and {@code b} with batches of {@code max(4c, 16)} requests of {@code source}'s warm-up conversations. */
	static SteadyWarmup run(TargetClient a, TargetClient b, RequestSource source, int concurrency, Duration cap,
			Duration batchTimeCap) {
		int batch = Math.max(4 * concurrency, 16);
		ClosedLoop loop = new ClosedLoop(concurrency, batch, 0, batchTimeCap);
		Progress progress = Progress.seconds("tax", "warm-up c=" + concurrency + " (until the client lag p99 <= 1 ms) seconds",
				cap.toSeconds());
		List<ClientLag> seen = new ArrayList<>();
		List<RequestOutcome> failedA = new ArrayList<>();
		List<RequestOutcome> failedB = new ArrayList<>();
		SteadyWarmup warmup = until(pair -> {
			int first = RequestSource.WARMUP_OFFSET + 2 * pair * batch;
			LoadResult resultA = LoadRunner.run(a, index -> source.conversation(first + index), loop, Progress.silent());
			LoadResult resultB = LoadRunner.run(b, index -> source.conversation(first + batch + index), loop, Progress.silent());
			failedA.addAll(resultA.failed());
			failedB.addAll(resultB.failed());
			ClientLag[] both = { resultA.clientLag(), resultB.clientLag() };
			seen.addAll(List.of(both));
			progress.detail(detail(seen, batch));
			return both;
		}, concurrency, batch, cap, System::nanoTime).withFailures(failedA, failedB);
		progress.finish();
		System.out.println("[tax] " + warmup);
		return warmup;
	}

	/** What the warm-up knows so far, for the progress line: batches run and the latest window's lag. */
	static String detail(List<ClientLag> lags, int batchRequests) {
		ClientLag window = window(lags);
		return String.format(Locale.ROOT, "%d batches of %d, client lag p99 %.0f us over the last %d samples (limit %d us)", lags.size(),
				batchRequests, window.p99Micros(), window.count(), (int) ClientLag.LIMIT_P99_MICROS);
	}

	/** Runs pairs ({@code pair} returns arm A's and arm B's lag) until one is steady or {@code cap} has passed. */
	static SteadyWarmup until(IntFunction<ClientLag[]> pair, int concurrency, int batchRequests, Duration cap, LongSupplier clock) {
		long start = clock.getAsLong();
		List<ClientLag> lags = new ArrayList<>();
		boolean steady = false;
		for (int p = 0; !steady && (p == 0 || clock.getAsLong() - start < cap.toNanos()); p++) {
			ClientLag[] both = pair.apply(p);
			lags.add(both[0]);
			lags.add(both[1]);
			steady = latest(lags).withinLimit();
		}
		return new SteadyWarmup(concurrency, batchRequests, List.copyOf(lags), (clock.getAsLong() - start) / 1e9, steady);
	}

	/** The last two batches, and earlier ones until {@value #WINDOW_SAMPLES} samples; not enough samples reads as not steady. */
	static ClientLag latest(List<ClientLag> lags) {
		ClientLag window = window(lags);
		return window.count() < WINDOW_SAMPLES ? ClientLag.none() : window;
	}

	private static ClientLag window(List<ClientLag> lags) {
		List<ClientLag> window = new ArrayList<>();
		long samples = 0;
		for (int i = lags.size() - 1; i >= 0 && (window.size() < 2 || samples < WINDOW_SAMPLES); i--) {
			window.add(lags.get(i));
			samples += lags.get(i).count();
		}
		return ClientLag.merge(window);
	}

	/** Writes {@code rule, concurrency, batches, requests, seconds, steady, failed, batch_client_lag_p99_us}. */
	void writeTo(ObjectNode node) {
		node.put("rule", RULE);
		node.put("concurrency", concurrency);
		node.put("batches", lags.size());
		node.put("requests", lags.size() * batchRequests);
		JsonNumbers.put(node, "seconds", seconds, 1);
		node.put("steady", steady);
		ObjectNode failed = node.putObject("failed");
		failed.put("raw", failedA.size());
		failed.put("gateway", failedB.size());
		failedA.stream().findFirst().ifPresent(o -> failed.put("raw_first", o.error()));
		failedB.stream().findFirst().ifPresent(o -> failed.put("gateway_first", o.error()));
		ArrayNode p99 = node.putArray("batch_client_lag_p99_us");
		lags.forEach(lag -> JsonNumbers.add(p99, lag.p99Micros(), 0));
	}

	@Override
	public String toString() {
		ClientLag window = window(lags);
		return String.format(Locale.ROOT,
				"warm-up c=%d: %d batches of %d in %.0f s, %s (client lag p99 %.0f us over the last %d samples%s)",
				concurrency, lags.size(), batchRequests, seconds, steady ? "steady" : "not steady by the cap", window.p99Micros(),
				window.count(), window.count() < WINDOW_SAMPLES ? ", fewer than the " + WINDOW_SAMPLES + " it needs" : "");
	}
}
