package dev.fakbattery.core.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.fakbattery.core.stats.Slo;

import org.apiguardian.api.API;

/**
 * One open loop whose arrivals keep coming while it is read, two targets taking turns by segment: the engine behind
 * both holds the offered rate as in one long run (a queue builds where the rate is more than it serves), never a batch
 * at a time with time to drain between batches.
 *
 * <p>First a ramp of unmeasured arrivals (warm-up conversations, the targets alternating request by request) brings
 * the engine to the rate's state; then segment after segment of {@code segmentRequests} arrivals, each
 * {@code segmentRequests / rate} seconds long, every request of a segment going to the target {@code firstBySegment}
 * names. The k-th segment of either target has the same arrival offsets (seeded by k) and the same conversations (the
 * target's running count), so the targets are paired as ABBA batches are. {@link #segment(int)} reads a segment once
 * every request due in it has ended, while the arrivals of later segments go on.
 *
 * <p>Bounded twice: the arrivals end with the last segment, and at {@code timeCap} after the start what is in flight
 * is interrupted (recorded failed) and nothing more is sent (counted not sent). {@link #close()} ends both at once: a
 * level decided early stops so, and the next one starts on an engine that holds nothing of it.
 *
 * @since 0.10
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.10")
public final class AlternatingOpenLoop implements AutoCloseable {

	private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

	/**
	 * The margin added to the hard bound: a request's send time is taken just before the client's own, so this covers the
	 * gap between the two (a gap that long would show as the client's lag).
	 */
	public static final long KNOWN_BAD_MARGIN_MS = 1_000;

	/**
	 * The hard bound on a one-request conversation, in multiples of {@link Slo#longestGoodMs(int)} (the longest a request
	 * meeting the SLOs can take), {@link #KNOWN_BAD_MARGIN_MS} added: a request still running past it is a failure on its
	 * arm, never merely slow (a target that hangs fails). One that ends between the SLOs' bound and the hard bound is its
	 * own outcome, not good where it missed them.
	 */
	public static final int HARD_BOUND_FACTOR = 2;

	/** How the error of an outcome failed at the hard bound, without waiting for its end, begins. */
	public static final String PAST_HARD_BOUND = "no complete answer within the hard bound ";

	/** The ramp's failed requests (of both targets), as the segments read them. */
	private final Queue<RequestOutcome> rampFailures = new ConcurrentLinkedQueue<>();

	private final TargetClient[] clients;

	private final RequestSource source;

	private final double rate;

	private final int maxConcurrency;

	private final boolean[] firstBySegment;

	private final long segmentNanos;

	private final long rampNanos;

	/** Per arrival: its offset from the start, its segment (-1 for the ramp), its target (0 first, 1 second), its conversation. */
	private final long[] offsets;

	private final int[] segmentOf;

	private final int[] targetOf;

	private final int[] conversationOf;

	/** The first arrival of each segment, the ramp's count first; one more entry than segments. */
	private final int[] segmentStart;

	private final List<CompletableFuture<List<RequestOutcome>>> done;

	/** Per arrival: when it was about to be sent (0 before), and how long past that it is known not to meet the SLOs (-1: never). */
	private final java.util.concurrent.atomic.AtomicLongArray sentAt;

	private final long[] knownBadAfter;

	private final Optional<Slo> slo;

	/** Written by the arrivals' thread as each segment ends, read by whoever reads the segment. */
	private final java.util.concurrent.atomic.AtomicReferenceArray<ClientLag> segmentLag;

	private final Semaphore slots;

	private final Progress progress;

	private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();

	private final Thread arrivals;

	private final long start;

	private final long deadline;

	private volatile boolean stopped;

	private volatile boolean capped;

	private AlternatingOpenLoop(TargetClient first, TargetClient second, RequestSource source, double rate, double burstiness, long seed,
			int rampRequests, int segmentRequests, boolean[] firstBySegment, int maxConcurrency, Duration timeCap, Optional<Slo> slo,
			Progress progress) {
		this.clients = new TargetClient[]{ first, second };
		this.slo = slo;
		this.source = source;
		this.rate = rate;
		this.maxConcurrency = maxConcurrency;
		this.firstBySegment = firstBySegment.clone();
		this.progress = progress;
		this.slots = maxConcurrency > 0 ? new Semaphore(maxConcurrency) : null;
		this.segmentNanos = Math.round(segmentRequests / rate * 1e9);
		this.rampNanos = rampRequests == 0 ? 0 : Math.round(rampRequests / rate * 1e9);
		int segments = firstBySegment.length;
		int total = rampRequests + segments * segmentRequests;
		offsets = new long[total];
		segmentOf = new int[total];
		targetOf = new int[total];
		conversationOf = new int[total];
		segmentStart = new int[segments + 1];
		if (rampRequests > 0) {
			ArrivalSchedule ramp = ArrivalSchedule.gamma(rampRequests, rate, burstiness, seed - 1);
			for (int i = 0; i < rampRequests; i++) {
				offsets[i] = ramp.offsetNanos(i);
				segmentOf[i] = -1;
				targetOf[i] = i % 2;
				conversationOf[i] = RequestSource.WARMUP_OFFSET + i;
			}
		}
		int[] perTarget = new int[2];
		int next = rampRequests;
		for (int s = 0; s < segments; s++) {
			int target = firstBySegment[s] ? 0 : 1;
			int k = perTarget[target] / segmentRequests;
			ArrivalSchedule schedule = ArrivalSchedule.gamma(segmentRequests, rate, burstiness, seed + k);
			segmentStart[s] = next;
			long base = rampNanos + s * segmentNanos;
			for (int i = 0; i < segmentRequests; i++, next++) {
				// within the segment: the last arrival lands at its end, the first a gap after its start
				offsets[next] = base + schedule.offsetNanos(i);
				segmentOf[next] = s;
				targetOf[next] = target;
				conversationOf[next] = perTarget[target]++;
			}
		}
		segmentStart[segments] = next;
		done = new ArrayList<>(total);
		for (int i = 0; i < total; i++) {
			done.add(new CompletableFuture<>());
		}
		segmentLag = new java.util.concurrent.atomic.AtomicReferenceArray<>(segments);
		sentAt = new java.util.concurrent.atomic.AtomicLongArray(total);
		knownBadAfter = new long[total];
		java.util.Arrays.fill(knownBadAfter, -1);
		start = System.nanoTime();
		deadline = start + timeCap.toNanos();
		arrivals = Thread.ofPlatform().name("fak-alternating-arrivals").daemon().start(this::arrive);
	}

	/**
	 * Starts the loop now.
	 *
	 * @param first the target of segments where {@code firstBySegment} is true (arm A)
	 * @param second the other target (arm B)
	 * @param source the conversations; both targets get the same ones, each in its own running order
	 * @param rate offered requests per second, kept through the ramp and every segment
	 * @param burstiness the gamma shape of the gaps (1 Poisson)
	 * @param seed the arrivals' seed: the k-th segment of either target draws from {@code seed + k}
	 * @param rampRequests unmeasured arrivals before the first segment (0 for none)
	 * @param segmentRequests arrivals in one segment, at least 1
	 * @param firstBySegment per segment, whether it goes to {@code first}; as many segments as entries
	 * @param maxConcurrency the most requests in flight, 0 for no cap (a request waiting for a slot keeps its due time)
	 * @param timeCap the loop stops by itself this long after its start
	 * @param slo where given, {@link #segment(int)} waits for a one-request conversation only until its hard bound:
	 *        {@value #HARD_BOUND_FACTOR} x {@link Slo#longestGoodMs(int)} at its {@code max_tokens} plus
	 *        {@value #KNOWN_BAD_MARGIN_MS} ms, counted from just before it was sent; it is then read as failed, saying so
	 * @param progress ticks once per measured conversation
	 * @throws IllegalArgumentException for a rate not positive and finite, no segment, or counts out of range
	 */
	public static AlternatingOpenLoop start(TargetClient first, TargetClient second, RequestSource source, double rate, double burstiness,
			long seed, int rampRequests, int segmentRequests, boolean[] firstBySegment, int maxConcurrency, Duration timeCap,
			Optional<Slo> slo, Progress progress) {
		if (!(rate > 0) || Double.isInfinite(rate)) {
			throw new IllegalArgumentException("rate must be a positive finite number of requests/s, got " + rate);
		}
		if (firstBySegment.length == 0 || segmentRequests < 1 || rampRequests < 0) {
			throw new IllegalArgumentException("needs at least one segment of at least one request and a ramp >= 0, got "
					+ firstBySegment.length + " segments of " + segmentRequests + ", ramp " + rampRequests);
		}
		if (maxConcurrency < 0 || maxConcurrency > ClosedLoop.MAX_CONCURRENCY) {
			throw new IllegalArgumentException(
					"maxConcurrency must be within 0.." + ClosedLoop.MAX_CONCURRENCY + ", got " + maxConcurrency);
		}
		return new AlternatingOpenLoop(first, second, source, rate, burstiness, seed, rampRequests, segmentRequests, firstBySegment,
				maxConcurrency, timeCap, slo, progress);
	}

	/** Seconds one segment's arrivals span: its requests over the rate. */
	public double segmentSeconds() {
		return segmentNanos / 1e9;
	}

	/** Seconds the ramp's arrivals span. */
	public double rampSeconds() {
		return rampNanos / 1e9;
	}

	private void arrive() {
		int i = 0;
		int current = -1;
		try (ClientLagProbe lag = ClientLagProbe.start()) {
			for (; i < offsets.length && !stopped; i++) {
				long intended = start + offsets[i];
				if (intended >= deadline) {
					capped = true;
					break;
				}
				if (segmentOf[i] != current) {
					// a segment's lag is read over the time its arrivals span
					sleepUntil(start + rampNanos + Math.max(0, segmentOf[i]) * segmentNanos);
					current = endSegment(lag, current, segmentOf[i]);
				}
				sleepUntil(intended);
				if (stopped) {
					break;
				}
				int index = i;
				senders.submit(() -> send(index, intended));
			}
			if (i == offsets.length) {
				sleepUntil(start + rampNanos + firstBySegment.length * segmentNanos);
				endSegment(lag, current, firstBySegment.length);
			}
		}
		finally {
			for (int unsent = i; unsent < offsets.length; unsent++) {
				done.get(unsent).complete(List.of());
			}
			senders.shutdown();
			try {
				if (!stopped && !senders.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
					capped = true;
				}
			}
			catch (InterruptedException e) {
				// close(): interrupted to stop at once
			}
			senders.shutdownNow();
			try {
				senders.awaitTermination(GRACE_NANOS, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private int endSegment(ClientLagProbe lag, int ended, int next) {
		if (ended >= 0 && !stopped) {
			segmentLag.set(ended, lag.read());
		}
		lag.reset();
		return next;
	}

	private void send(int index, long intended) {
		Queue<RequestOutcome> outcomes = new ConcurrentLinkedQueue<>();
		boolean acquired = false;
		try {
			if (slots != null) {
				slots.acquire();
				acquired = true;
			}
			boolean warmup = segmentOf[index] < 0;
			Conversation conversation = source.conversation(conversationOf[index]);
			if (conversation.singleTurn()) {
				slo.flatMap(s -> {
					java.util.OptionalDouble ms = s.longestGoodMs(conversation.first().maxTokens());
					return ms.isPresent() ? Optional.of(ms.getAsDouble()) : Optional.empty();
				}).ifPresent(ms -> knownBadAfter[index] = Math.round((HARD_BOUND_FACTOR * ms + KNOWN_BAD_MARGIN_MS) * 1e6));
			}
			sentAt.set(index, System.nanoTime());
			LoadRunner.converse(clients[targetOf[index]], conversation, conversationOf[index], warmup, intended, outcomes);
			if (!warmup) {
				progress.advance();
			}
		}
		catch (InterruptedException e) {
			// stopped while waiting for a slot: never sent
		}
		finally {
			if (acquired) {
				slots.release();
			}
			done.get(index).complete(List.copyOf(outcomes));
		}
	}

	/**
	 * Segment {@code s} (0-based, in run order) as one run of its target, once every request due in it has ended (or
	 * the loop stopped): its outcomes, its requests not sent, its span of arrivals as its duration and the client's lag
	 * over that span. The first segment of each target also counts that target's ramp requests as warm-up, and its failed
	 * ones (the hard bound's included) are kept ({@link #rampFailures()}).
	 */
	public LoadResult segment(int s) {
		if (s < 0 || s >= firstBySegment.length) {
			throw new IllegalArgumentException("segment " + s + " is not within 0.." + (firstBySegment.length - 1));
		}
		int target = firstBySegment[s] ? 0 : 1;
		// in conversation order, each conversation's turns in order: the arrivals are indexed so
		List<RequestOutcome> outcomes = new ArrayList<>();
		int sent = 0;
		for (int i = segmentStart[s]; i < segmentStart[s + 1]; i++) {
			List<RequestOutcome> conversation = awaitOrKnownBad(i, target, intendedOf(i));
			outcomes.addAll(conversation);
			sent += conversation.isEmpty() ? 0 : 1;
		}
		int warmupSent = 0;
		int warmupFailed = 0;
		if (firstOf(target) == s) {
			for (int i = 0; i < segmentStart[0]; i++) {
				if (targetOf[i] == target) {
					// a ramp request queued behind an overloaded engine is read like a measured one: not waited for past the hard bound
					List<RequestOutcome> ramp = awaitOrKnownBad(i, target, intendedOf(i));
					warmupSent += ramp.isEmpty() ? 0 : 1;
					List<RequestOutcome> failed = ramp.stream().filter(o -> !o.ok()).toList();
					warmupFailed += failed.isEmpty() ? 0 : 1;
					rampFailures.addAll(failed);
				}
			}
		}
		int planned = segmentStart[s + 1] - segmentStart[s];
		long from = start + rampNanos + s * segmentNanos;
		long to = Math.max(from + segmentNanos, outcomes.stream().mapToLong(RequestOutcome::endNanos).max().orElse(0));
		ClientLag lag = segmentLag.get(s) == null ? ClientLag.none() : segmentLag.get(s);
		String mode = String.format(Locale.ROOT, "segment %d of a sustained open loop at %s req/s (%d arrivals in %.2f s)", s, rate,
				planned, segmentSeconds());
		return new LoadResult(clients[target].name(), clients[target].baseUrl().toString(), mode, maxConcurrency, rate, planned, outcomes,
				warmupSent, warmupFailed, planned - sent, from, to, segmentSeconds(), Optional.empty(), capped, lag);
	}

	/** The failed ramp requests of both targets read so far: all of them once each target's first segment was read. */
	public List<RequestOutcome> rampFailures() {
		return List.copyOf(rampFailures);
	}

	private int firstOf(int target) {
		for (int s = 0; s < firstBySegment.length; s++) {
			if ((firstBySegment[s] ? 0 : 1) == target) {
				return s;
			}
		}
		return -1;
	}

	private long intendedOf(int index) {
		return start + offsets[index];
	}

	/**
	 * The arrival's outcomes once it has ended; or, for a one-request conversation still running past its hard bound, a
	 * failed outcome saying so, without waiting for its end (it runs on, as part of the load).
	 */
	private List<RequestOutcome> awaitOrKnownBad(int index, int target, long intended) {
		CompletableFuture<List<RequestOutcome>> future = done.get(index);
		while (!future.isDone()) {
			long sent = sentAt.get(index);
			long bound = knownBadAfter[index];
			long wait = sent == 0 ? TimeUnit.MILLISECONDS.toNanos(20) : bound < 0 ? Long.MAX_VALUE : sent + bound - System.nanoTime();
			if (sent != 0 && bound >= 0 && wait <= 0) {
				long now = System.nanoTime();
				// no elapsed time in the text: outcomes are grouped by their error, and the outcome keeps its sent and end times
				double longestGood = ((bound / 1e6) - KNOWN_BAD_MARGIN_MS) / HARD_BOUND_FACTOR;
				String error = String.format(Locale.ROOT,
						PAST_HARD_BOUND + "of %.0f ms (%d x the %.0f ms a request meeting %s can take with at most %d output "
								+ "tokens, plus %d ms): a failure, not waited for to its end",
						bound / 1e6, HARD_BOUND_FACTOR, longestGood, slo.orElseThrow(),
						source.conversation(conversationOf[index]).first().maxTokens(), KNOWN_BAD_MARGIN_MS);
				RequestOutcome bad = RequestOutcome.failed(clients[target].name(), conversationOf[index], false, intended, sent, now, 0,
						error,
						null);
				return List.of(bad.withDetail(bad.detail().at(conversationOf[index], 0)));
			}
			try {
				future.get(Math.min(wait, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
			}
			catch (java.util.concurrent.TimeoutException e) {
				// look again: sent since, or past its bound
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				close();
			}
			catch (ExecutionException e) {
				throw new IllegalStateException("request " + index + " of the open loop failed", e.getCause());
			}
		}
		// done: its value at once (the futures are only ever completed normally)
		return future.join();
	}

	/** Stops the arrivals and interrupts what is in flight (recorded failed); returns once every request has ended. */
	@Override
	public void close() {
		stopped = true;
		arrivals.interrupt();
		// a reader interrupted while it waited closes the loop too: its interrupt status is set aside for the join and kept
		boolean interrupted = Thread.interrupted();
		try {
			arrivals.join(TimeUnit.NANOSECONDS.toMillis(GRACE_NANOS) * 2);
		}
		catch (InterruptedException e) {
			interrupted = true;
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		if (arrivals.isAlive()) {
			throw new IllegalStateException("the open loop's requests did not stop within 20 s of close()");
		}
	}

	private void sleepUntil(long nanos) {
		long remaining;
		while (!stopped && (remaining = nanos - System.nanoTime()) > 0) {
			LockSupport.parkNanos(remaining);
		}
	}
}
