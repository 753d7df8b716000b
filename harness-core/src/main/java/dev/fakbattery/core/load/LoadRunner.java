package dev.fakbattery.core.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.fakbattery.core.stats.LatencyRecorder;

import org.apiguardian.api.API;

/**
 * Runs a {@link ClosedLoop} or an {@link OpenLoop} against one {@link TargetClient}, each request on
 * its own virtual thread. Every run is bounded twice: by its request count and by its time cap, at
 * which requests in flight are interrupted (and recorded as failed) and requests not yet sent are
 * counted as not sent; nothing is dropped silently. {@link Progress} ticks once per measured conversation
 * ({@link Progress#silent()} for none). Requests come from a {@link RequestSource} (a workload's conversations, each
 * of one or more turns) or are one fixed {@link ChatPayload}; the client's own scheduling lag is probed during the
 * measured phase ({@link ClientLagProbe}) and kept in the result.
 *
 * <pre>
 * LoadResult result = LoadRunner.run(raw, payload, new ClosedLoop(64, 256, 64, Duration.ofMinutes(2)), progress);
 * LoadSummary summary = LoadSummary.of(result, Optional.empty());
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class LoadRunner {

	private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

	private LoadRunner() {
	}

	/** A closed-loop run of one fixed request; see {@link ClosedLoop}. */
	public static LoadResult run(TargetClient client, ChatPayload payload, ClosedLoop spec, Progress progress) {
		return run(client, RequestSource.fixed(payload), spec, progress);
	}

	/** An open-loop run of one fixed request; see {@link OpenLoop}. */
	public static LoadResult run(TargetClient client, ChatPayload payload, OpenLoop spec, Progress progress) {
		return run(client, RequestSource.fixed(payload), spec, progress);
	}

	/**
	 * A closed-loop run of a workload's conversations; see {@link ClosedLoop}. {@code spec.requests()} counts
	 * conversations; every request of every conversation is an outcome.
	 */
	public static LoadResult run(TargetClient client, RequestSource source, ClosedLoop spec, Progress progress) {
		long deadline = System.nanoTime() + spec.timeCap().toNanos();
		Warmup warmup = warmUp(client, source, spec.warmupRequests(), spec.concurrency(), deadline);
		Queue<RequestOutcome> outcomes = new ConcurrentLinkedQueue<>();
		AtomicInteger next = new AtomicInteger();
		try (ClientLagProbe lag = ClientLagProbe.start()) {
			long start = System.nanoTime();
			boolean capped = runWorkers(spec.concurrency(), deadline, () -> {
				while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
					int i = next.getAndIncrement();
					if (i >= spec.requests()) {
						return;
					}
					converse(client, source, i, false, System.nanoTime(), outcomes);
					progress.advance();
				}
			});
			long end = System.nanoTime();
			return result(client, "closed-loop concurrency " + spec.concurrency(), spec.concurrency(), Double.NaN, spec.requests(),
					outcomes, warmup, start, end, null, capped, lag.read());
		}
	}

	/** An open-loop run of a workload's conversations, one arriving at each scheduled time; see {@link OpenLoop}. */
	public static LoadResult run(TargetClient client, RequestSource source, OpenLoop spec, Progress progress) {
		long deadline = System.nanoTime() + spec.timeCap().toNanos();
		int warmConcurrency = spec.maxConcurrency() > 0 ? spec.maxConcurrency() : Math.max(1, Math.min(16, spec.warmupRequests()));
		Warmup warmup = warmUp(client, source, spec.warmupRequests(), warmConcurrency, deadline);
		Queue<RequestOutcome> outcomes = new ConcurrentLinkedQueue<>();
		Semaphore slots = spec.maxConcurrency() > 0 ? new Semaphore(spec.maxConcurrency()) : null;
		LatencyRecorder schedule = new LatencyRecorder();
		ArrivalSchedule arrivals = spec.arrivals();
		boolean capped = false;
		try (ClientLagProbe lag = ClientLagProbe.start()) {
			long start = System.nanoTime();
			try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
				for (int i = 0; i < arrivals.size(); i++) {
					long intended = start + arrivals.offsetNanos(i);
					if (intended >= deadline) {
						capped = true;
						break;
					}
					sleepUntil(intended);
					schedule.recordMillis(Math.max(0, System.nanoTime() - intended) / 1e6);
					int index = i;
					senders.submit(() -> sendInSlot(client, source, index, intended, slots, outcomes, progress));
				}
				capped |= awaitOrInterrupt(senders, deadline);
			}
			long end = System.nanoTime();
			String mode = "open-loop " + arrivals.describe() + (slots == null ? "" : ", max concurrency " + spec.maxConcurrency());
			return result(client, mode, spec.maxConcurrency(), arrivals.rate(), arrivals.size(), outcomes, warmup, start, end,
					schedule, capped, lag.read());
		}
	}

	private static void sendInSlot(TargetClient client, RequestSource source, int index, long intended, Semaphore slots,
			Queue<RequestOutcome> outcomes, Progress progress) {
		if (slots != null) {
			try {
				slots.acquire();
			}
			catch (InterruptedException e) {
				return;
			}
		}
		try {
			converse(client, source, index, false, intended, outcomes);
			progress.advance();
		}
		finally {
			if (slots != null) {
				slots.release();
			}
		}
	}

	/** Sends conversation {@code index} of {@code source} now, turn after turn; its outcomes in turn order. */
	public static List<RequestOutcome> conversation(TargetClient client, RequestSource source, int index, boolean warmup) {
		Queue<RequestOutcome> outcomes = new java.util.ArrayDeque<>();
		converse(client, source, index, warmup, System.nanoTime(), outcomes);
		return List.copyOf(outcomes);
	}

	/**
	 * Sends conversation {@code index} turn after turn; a failed turn ends it (the failure is its outcome). Only the
	 * first turn carries the schedule's intended time; a later turn is intended when the answer before it ended.
	 */
	static void converse(TargetClient client, RequestSource source, int index, boolean warmup, long intended,
			Queue<RequestOutcome> outcomes) {
		converse(client, source.conversation(index), index, warmup, intended, outcomes);
	}

	/** Sends {@code conversation} as conversation {@code index}, turn after turn; see the overload above. */
	static void converse(TargetClient client, Conversation conversation, int index, boolean warmup, long intended,
			Queue<RequestOutcome> outcomes) {
		ChatPayload payload = conversation.first();
		long due = intended;
		for (int turn = 0; payload != null && !Thread.currentThread().isInterrupted(); turn++) {
			RequestOutcome outcome = client.send(payload, index, warmup, due);
			outcome = outcome.withDetail(outcome.detail().at(index, turn));
			outcomes.add(outcome);
			if (!outcome.ok()) {
				return;
			}
			payload = conversation.next(outcome).orElse(null);
			due = System.nanoTime();
		}
	}

	private static Warmup warmUp(TargetClient client, RequestSource source, int requests, int concurrency, long deadline) {
		if (requests == 0) {
			return new Warmup(0, 0);
		}
		Queue<RequestOutcome> outcomes = new ConcurrentLinkedQueue<>();
		AtomicInteger next = new AtomicInteger();
		runWorkers(Math.min(concurrency, requests), deadline, () -> {
			int i;
			while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline && (i = next.getAndIncrement()) < requests) {
				converse(client, source, RequestSource.WARMUP_OFFSET + i, true, System.nanoTime(), outcomes);
			}
		});
		return new Warmup(outcomes.size(), (int) outcomes.stream().filter(o -> !o.ok()).count());
	}

	/** Runs {@code count} copies of {@code worker}; whether the time cap interrupted them. */
	private static boolean runWorkers(int count, long deadline, Runnable worker) {
		try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
			for (int w = 0; w < count; w++) {
				workers.submit(worker);
			}
			return awaitOrInterrupt(workers, deadline);
		}
	}

	private static boolean awaitOrInterrupt(ExecutorService tasks, long deadline) {
		tasks.shutdown();
		try {
			if (tasks.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return false;
			}
			tasks.shutdownNow();
			if (!tasks.awaitTermination(GRACE_NANOS, TimeUnit.NANOSECONDS)) {
				throw new IllegalStateException("requests did not stop within 10 s of the time cap");
			}
			return true;
		}
		catch (InterruptedException e) {
			tasks.shutdownNow();
			Thread.currentThread().interrupt();
			return true;
		}
	}

	private static void sleepUntil(long nanos) {
		long remaining;
		while ((remaining = nanos - System.nanoTime()) > 0) {
			LockSupport.parkNanos(remaining);
		}
	}

	private static LoadResult result(TargetClient client, String mode, int concurrency, double rate, int planned,
			Queue<RequestOutcome> outcomes, Warmup warmup, long start, long end, LatencyRecorder schedule, boolean capped,
			ClientLag lag) {
		List<RequestOutcome> sorted = new ArrayList<>(outcomes);
		sorted.sort(Comparator.comparingInt(RequestOutcome::index).thenComparingInt(RequestOutcome::turn));
		int sent = (int) sorted.stream().filter(o -> o.turn() == 0).count();
		return new LoadResult(client.name(), client.baseUrl().toString(), mode, concurrency, rate, planned, sorted,
				warmup.sent(), warmup.failed(), planned - sent, start, end, LoadResult.spanS(sorted),
				schedule == null ? java.util.Optional.empty() : java.util.Optional.of(schedule.summary()), capped, lag);
	}

	private record Warmup(int sent, int failed) {
	}
}
