package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.load.ClientLag;
import dev.fakbattery.api.load.ClosedLoop;
import dev.fakbattery.api.load.LoadRunner;
import dev.fakbattery.api.load.Progress;
import dev.fakbattery.api.load.RequestSource;
import dev.fakbattery.api.load.TargetClient;
import dev.fakbattery.wire.JsonNumbers;

/**
 * A sweep's warm-up before its first level: pairs of closed-loop batches (arm A, then arm B) until one pair reads the
 * load client's lag p99 within {@link ClientLag#LIMIT_P99_MICROS}, or the time cap has passed. Nothing of it is measured.
 *
 * <p>Why not a fixed count: on a small machine the client shares its cores with a freshly started gateway JVM whose JIT
 * compiler runs for a minute or more, and the client wakes late meanwhile. On 2 cores against llama-server the first
 * level read client lag p99 2-3.9 ms and the levels two minutes later 0.6-1.0 ms, whichever order the levels ran in;
 * a fixed warm-up of 8 requests left every sweep's first levels invalid. A warm-up that never steadies costs only time:
 * each measured level is checked for client lag on its own, and the readings here go into the artifact.
 *
 * @param concurrency the warm-up's concurrency
 * @param batchRequests requests per batch
 * @param lags client lag of each batch, in run order (A, B, A, B, ...)
 * @param seconds how long the warm-up took
 * @param steady whether a pair read within the limit before the cap
 * @since 0.4
 */
record SteadyWarmup(int concurrency, int batchRequests, List<ClientLag> lags, double seconds, boolean steady) {

	/** How the warm-up stops, for the artifact. */
	static final String RULE = "pairs of closed-loop batches (arm A then arm B) until both batches of one pair read client lag "
			+ "p99 <= " + (int) ClientLag.LIMIT_P99_MICROS + " us, or the time cap; not measured";

	/** Warms {@code a} and {@code b} with batches of {@code max(4c, 16)} requests of {@code source}'s warm-up conversations. */
	static SteadyWarmup run(TargetClient a, TargetClient b, RequestSource source, int concurrency, Duration cap,
			Duration batchTimeCap) {
		int batch = Math.max(4 * concurrency, 16);
		ClosedLoop loop = new ClosedLoop(concurrency, batch, 0, batchTimeCap);
		System.out.println("[tax] warm-up c=" + concurrency + " until the client lag p99 <= 1 ms, at most " + cap.toSeconds() + " s");
		SteadyWarmup warmup = until(pair -> {
			int first = RequestSource.WARMUP_OFFSET + 2 * pair * batch;
			return new ClientLag[] {
				LoadRunner.run(a, index -> source.conversation(first + index), loop, Progress.silent()).clientLag(),
				LoadRunner.run(b, index -> source.conversation(first + batch + index), loop, Progress.silent()).clientLag() };
		}, concurrency, batch, cap, System::nanoTime);
		System.out.println("[tax] " + warmup);
		return warmup;
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
			steady = both[0].withinLimit() && both[1].withinLimit();
		}
		return new SteadyWarmup(concurrency, batchRequests, List.copyOf(lags), (clock.getAsLong() - start) / 1e9, steady);
	}

	/** Writes {@code rule, concurrency, batches, requests, seconds, steady, batch_client_lag_p99_us}. */
	void writeTo(ObjectNode node) {
		node.put("rule", RULE);
		node.put("concurrency", concurrency);
		node.put("batches", lags.size());
		node.put("requests", lags.size() * batchRequests);
		JsonNumbers.put(node, "seconds", seconds, 1);
		node.put("steady", steady);
		ArrayNode p99 = node.putArray("batch_client_lag_p99_us");
		lags.forEach(lag -> JsonNumbers.add(p99, lag.p99Micros(), 0));
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "warm-up c=%d: %d batches of %d in %.0f s, %s (last batch client lag p99 %.0f us)",
				concurrency, lags.size(), batchRequests, seconds, steady ? "steady" : "not steady by the cap",
				lags.isEmpty() ? Double.NaN : lags.get(lags.size() - 1).p99Micros());
	}
}
