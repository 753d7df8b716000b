package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import dev.fakbattery.core.StubEngine;
import dev.fakbattery.core.stats.Slo;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("AlternatingOpenLoop: one sustained open loop, two targets taking turns by segment")
class AlternatingOpenLoopTests {

	private static final ChatPayload STREAM = ChatPayload.streaming("m", "hi", 3);

	private static final RequestSource SOURCE = RequestSource.fixed(STREAM);

	/** A B B A: the segments' targets. */
	private static final boolean[] ABBA = { true, false, false, true };

	@Test
	@DisplayName("segments go to their targets, the k-th of each with the same arrivals and conversations; the ramp is warm-up")
	void segmentsTakeTurns() throws Exception {
		try (Stub stub = Stub.of("ok");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 100, 6, 5, Duration.ofSeconds(30), java.util.Optional.empty())) {
			List<LoadResult> segments = List.of(loop.segment(0), loop.segment(1), loop.segment(2), loop.segment(3));
			assertThat(segments).extracting(LoadResult::target).containsExactly("raw", "gateway", "gateway", "raw");
			assertThat(segments).allSatisfy(s -> {
				assertThat(s.outcomes()).hasSize(5).allMatch(RequestOutcome::ok).noneMatch(RequestOutcome::warmup);
				assertThat(s.notSent()).isZero();
				assertThat(s.durationS()).isEqualTo(0.05);
			});
			assertThat(segments.get(0).outcomes()).extracting(RequestOutcome::index).containsExactly(0, 1, 2, 3, 4);
			assertThat(segments.get(1).outcomes()).extracting(RequestOutcome::index).containsExactly(0, 1, 2, 3, 4);
			assertThat(segments.get(3).outcomes()).extracting(RequestOutcome::index).containsExactly(5, 6, 7, 8, 9);
			assertThat(offsets(segments.get(0))).as("the first segment of each target: the same arrivals")
					.isEqualTo(offsets(segments.get(1)));
			assertThat(offsets(segments.get(2))).isEqualTo(offsets(segments.get(3)));
			assertThat(segments.get(0).warmupSent() + segments.get(1).warmupSent()).as("the ramp, split between the targets").isEqualTo(6);
			assertThat(segments.get(2).warmupSent()).isZero();
			assertThat(stub.engine().requests()).isEqualTo(26);
			assertThat(segments.get(1).startNanos() - segments.get(0).startNanos()).as("segments follow each other without a gap")
					.isEqualTo(50_000_000L);
		}
	}

	/**
	 * Five ramp requests alternate from the first target (three raw, two gateway), each counted in its own target's first
	 * segment; a ramp answered well fails nothing; a segment spans its arrivals (the last one lands at its end), after
	 * the ramp's; progress ticks once per measured conversation, never for the ramp.
	 */
	@Test
	@DisplayName("an odd ramp: each target's first segment counts its own ramp requests, none failed; segments span their arrivals")
	void rampAndSpans() throws Exception {
		Progress progress = Progress.start("loop", "conversations", 8, Duration.ofDays(1),
				new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), System::nanoTime);
		try (Stub stub = Stub.of("ok");
				AlternatingOpenLoop loop = AlternatingOpenLoop.start(stub.raw(), stub.gateway(), SOURCE, 100, 1.0, 3, 5, 2, ABBA, 0,
						Duration.ofSeconds(30), java.util.Optional.empty(), progress)) {
			assertThat(loop.rampSeconds()).isEqualTo(0.05);
			LoadResult raw = loop.segment(0);
			LoadResult gateway = loop.segment(1);
			assertThat(raw.warmupSent()).isEqualTo(3);
			assertThat(gateway.warmupSent()).isEqualTo(2);
			assertThat(raw.warmupFailed() + gateway.warmupFailed()).isZero();
			assertThat(loop.rampFailures()).isEmpty();
			for (int s = 0; s < ABBA.length; s++) {
				LoadResult segment = loop.segment(s);
				assertThat(segment.outcomes()).hasSize(2)
						.allSatisfy(o -> assertThat(o.intendedNanos())
								.isGreaterThanOrEqualTo(segment.startNanos())
								.isLessThanOrEqualTo(segment.startNanos() + 20_000_000L));
				assertThat(segment.endNanos()).isGreaterThanOrEqualTo(segment.startNanos() + 20_000_000L);
			}
			assertThat(progress.done()).isEqualTo(8);
		}
	}

	/**
	 * Each target on a stub of its own: the ramp's requests alternate from the first target and ask the warm-up
	 * conversations, each segment's go to its own target and ask that target's next conversations; every segment has the
	 * client's lag read over its span; a segment past the last is refused.
	 */
	@Test
	@DisplayName("each target gets its own segments and its share of the ramp, with the conversations due to it; each segment has its lag")
	void targetsAndConversations() throws Exception {
		java.util.Queue<Integer> asked = new java.util.concurrent.ConcurrentLinkedQueue<>();
		RequestSource recording = index -> {
			asked.add(index);
			return SOURCE.conversation(index);
		};
		try (StubEngine rawEngine = StubEngine.chat("ok");
				StubEngine gatewayEngine = StubEngine.chat("ok");
				TargetClient raw = TargetClient.open("raw", rawEngine.uri());
				TargetClient gateway = TargetClient.open("gateway", gatewayEngine.uri());
				AlternatingOpenLoop loop = AlternatingOpenLoop.start(raw, gateway, recording, 100, 1.0, 3, 5, 2, ABBA, 0,
						Duration.ofSeconds(30), java.util.Optional.empty(), Progress.silent())) {
			for (int s = 0; s < ABBA.length; s++) {
				assertThat(loop.segment(s).clientLag().count()).as("segment %d's lag", s).isPositive();
			}
			assertThat(rawEngine.requests()).as("3 ramp requests and 2 segments of 2").isEqualTo(7);
			assertThat(gatewayEngine.requests()).as("2 ramp requests and 2 segments of 2").isEqualTo(6);
			int warmup = RequestSource.WARMUP_OFFSET;
			assertThat(asked).containsExactlyInAnyOrder(warmup, warmup + 1, warmup + 2, warmup + 3, warmup + 4, 0, 1, 2, 3, 0, 1, 2, 3);
			assertThatThrownBy(() -> loop.segment(4)).isInstanceOf(IllegalArgumentException.class)
					.hasMessage("segment 4 is not within 0..3");
		}
	}

	@Test
	@DisplayName("a concurrency cap from 0 (none) to the closed loop's most is taken; below or above it is refused")
	void concurrencyBounds() {
		try (TargetClient a = TargetClient.open("raw", java.net.URI.create("http://127.0.0.1:9/v1"))) {
			for (int cap : new int[]{ -1, ClosedLoop.MAX_CONCURRENCY + 1 }) {
				assertThatThrownBy(() -> AlternatingOpenLoop.start(a, a, SOURCE, 1, 1, 0, 0, 1, ABBA, cap, Duration.ofMillis(100),
						java.util.Optional.empty(), Progress.silent())).hasMessageContaining("got " + cap);
			}
			for (int cap : new int[]{ 0, ClosedLoop.MAX_CONCURRENCY }) {
				AlternatingOpenLoop.start(a, a, SOURCE, 1, 1, 0, 0, 1, ABBA, cap, Duration.ofMillis(100), java.util.Optional.empty(),
						Progress.silent()).close();
			}
		}
	}

	/** The due times of a segment's requests, relative to its first. */
	private static List<Long> offsets(LoadResult segment) {
		long first = segment.outcomes().get(0).intendedNanos();
		return segment.outcomes().stream().map(o -> (o.intendedNanos() - first) / 1_000).toList();
	}

	/**
	 * The stub serves at most 50 requests a second; offered 100, a queue builds: the arrivals of later segments go out
	 * while earlier ones are still answered (nothing is drained between segments), and the last segment waits longer
	 * than the first.
	 */
	@Test
	@DisplayName("a rate above what the target serves builds a queue across segments, never drained between them")
	void aQueueBuilds() throws Exception {
		try (Stub stub = Stub.of("queue");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 100, 10, 10, Duration.ofSeconds(60), java.util.Optional.empty())) {
			LoadResult first = loop.segment(0);
			LoadResult second = loop.segment(1);
			LoadResult last = loop.segment(3);
			long firstEnded = first.outcomes().stream().mapToLong(RequestOutcome::endNanos).max().orElseThrow();
			long secondSent = second.outcomes().stream().mapToLong(RequestOutcome::sentNanos).min().orElseThrow();
			assertThat(secondSent).as("the next segment went out before the first was answered").isLessThan(firstEnded);
			assertThat(median(last)).as("the last segment's E2EL median against the first's: the queue grew")
					.isGreaterThan(median(first) + 5 * StubEngine.QUEUE_SERVICE_MS);
		}
	}

	private static double median(LoadResult result) {
		double[] e2el = result.outcomes().stream().mapToDouble(o -> o.timing().e2elMs()).sorted().toArray();
		return e2el[e2el.length / 2];
	}

	@Test
	@DisplayName("close() stops the arrivals at once and ends what is in flight: later segments read as not sent or failed")
	void closeStops() throws Exception {
		try (Stub stub = Stub.of("hang")) {
			AlternatingOpenLoop loop = stub.loop(SOURCE, 20, 0, 4, Duration.ofSeconds(60), java.util.Optional.empty());
			Thread.sleep(300);
			long before = System.nanoTime();
			loop.close();
			assertThat(System.nanoTime() - before).as("close() does not wait for the hung requests").isLessThan(15_000_000_000L);
			LoadResult first = loop.segment(0);
			assertThat(first.outcomes()).isNotEmpty().allSatisfy(o -> assertThat(o.error()).contains("interrupted"));
			LoadResult last = loop.segment(3);
			assertThat(last.notSent()).isEqualTo(4);
			assertThat(last.outcomes()).isEmpty();
			assertThat(last.endNanos() - last.startNanos()).as("a segment nothing was sent in spans its arrivals: 4 at 20/s")
					.isEqualTo(200_000_000L);
		}
	}

	@Test
	@DisplayName("the time cap stops the loop by itself: what hangs fails, what was not due is not sent")
	void timeCap() throws Exception {
		try (Stub stub = Stub.of("hang");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 20, 0, 4, Duration.ofMillis(300), java.util.Optional.empty())) {
			LoadResult first = loop.segment(0);
			assertThat(first.timeCapped()).isTrue();
			assertThat(first.outcomes()).isNotEmpty().allSatisfy(o -> assertThat(o.ok()).isFalse());
			assertThat(loop.segment(3).notSent()).isEqualTo(4);
		}
	}

	/**
	 * The SLOs ttft 100 ms, tpot 10 ms and 3 tokens: no request meeting them takes more than 120 ms, so the hard bound is
	 * 2 x 120 + 1000 = 1240 ms; a request hung for 60 s is read as failed 1.24 s after it was sent, not at the time cap,
	 * its ramp request too (a failed warm-up request, kept with its error); a conversation that may have more turns is
	 * waited for.
	 */
	@Test
	@DisplayName("a one-request conversation running past its hard bound is a failure, read without waiting; a longer one is waited for")
	void pastTheHardBoundIsAFailure() throws Exception {
		Slo slo = Slo.parse("ttft:100 tpot:10");
		assertThat(slo.longestGoodMs(3)).hasValue(120);
		String error = "no complete answer within the hard bound of 1240 ms (2 x the 120 ms a request meeting ttft:100.0 tpot:10.0 "
				+ "can take with at most 3 output tokens, plus 1000 ms): a failure, not waited for to its end";
		try (Stub stub = Stub.of("hang");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 20, 2, 2, Duration.ofSeconds(60), java.util.Optional.of(slo))) {
			long before = System.nanoTime();
			LoadResult first = loop.segment(0);
			assertThat(System.nanoTime() - before).as("read at the bound, not at the 60 s cap").isLessThan(20_000_000_000L);
			assertThat(first.timeCapped()).isFalse();
			assertThat(first.warmupSent()).as("its ramp request, hung too, read the same way").isOne();
			assertThat(first.warmupFailed()).as("a failure, not merely slow").isOne();
			assertThat(loop.rampFailures()).singleElement().satisfies(o -> assertThat(o.error()).isEqualTo(error));
			assertThat(first.notSent()).isZero();
			assertThat(first.failed()).as("counted failed on its arm").hasSize(2);
			assertThat(first.outcomes()).hasSize(2).allSatisfy(o -> {
				assertThat(o.ok()).isFalse();
				assertThat(o.target()).isEqualTo("raw");
				assertThat(o.error()).isEqualTo(error);
				assertThat(o.endNanos() - o.sentNanos()).isGreaterThanOrEqualTo(1_240_000_000L);
				assertThat(o.intendedNanos()).as("its due time, within the segment's span of 2 arrivals at 20/s")
						.isBetween(first.startNanos(), first.startNanos() + 100_000_000L)
						.isLessThanOrEqualTo(o.sentNanos());
			});
		}
		RequestSource longer = index -> new Conversation() {
			@Override
			public ChatPayload first() {
				return STREAM;
			}

			@Override
			public java.util.Optional<ChatPayload> next(RequestOutcome answer) {
				return java.util.Optional.of(STREAM);
			}
		};
		try (Stub stub = Stub.of("hang");
				AlternatingOpenLoop loop = stub.loop(longer, 20, 0, 2, Duration.ofMillis(2_500), java.util.Optional.of(slo))) {
			LoadResult first = loop.segment(0);
			assertThat(first.timeCapped()).as("waited for, to the cap").isTrue();
			assertThat(first.outcomes()).allSatisfy(o -> assertThat(o.error()).contains("interrupted"));
		}
	}

	/**
	 * The SLOs ttft 1000 ms, tpot 10 ms and 3 tokens: 1020 ms at most meeting them, a hard bound of 3040 ms. A request
	 * answered after 2.5 s is past the SLOs' bound and its margin (2020 ms) but within the hard bound: waited for, its own
	 * outcome (answered, not good), never a failure.
	 */
	@Test
	@DisplayName("a request past the SLOs' bound but within its hard bound is waited for: answered and not good, not failed")
	void withinTheHardBoundIsWaitedFor() throws Exception {
		Slo slo = Slo.parse("ttft:1000 tpot:10");
		try (Stub stub = Stub.of("delay=2500");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 20, 0, 1, Duration.ofSeconds(60), java.util.Optional.of(slo))) {
			LoadResult first = loop.segment(0);
			assertThat(first.outcomes()).singleElement().satisfies(o -> {
				assertThat(o.ok()).as(String.valueOf(o.error())).isTrue();
				assertThat(o.e2elMs()).isGreaterThanOrEqualTo(2_500);
				assertThat(slo.isMetBy(o.timing())).isFalse();
			});
		}
	}

	/**
	 * Every request of the loop ended long before its 1.5 s cap: read again once the cap has passed, the loop still says
	 * it was not capped (the arrivals' thread waits for the requests it sent, not for the cap).
	 */
	@Test
	@DisplayName("a loop whose requests all ended within its cap is not read as capped once the cap has passed")
	void notCappedAfterTheCapPassed() throws Exception {
		long before = System.nanoTime();
		try (Stub stub = Stub.of("ok");
				AlternatingOpenLoop loop = stub.loop(SOURCE, 100, 0, 2, Duration.ofMillis(1_500), java.util.Optional.empty())) {
			assertThat(loop.segment(3).timeCapped()).isFalse();
			Thread.sleep(Math.max(0, 1_800 - (System.nanoTime() - before) / 1_000_000));
			assertThat(loop.segment(3).outcomes()).hasSize(2).allMatch(RequestOutcome::ok);
			assertThat(loop.segment(3).timeCapped()).as("read after the cap").isFalse();
		}
	}

	/**
	 * A cap of one request in flight against a stub answering after 30 ms while arrivals come every 10 ms on average: the
	 * requests queue for the one slot, each sent only once the one before has ended, none before its due time.
	 */
	@Test
	@DisplayName("a concurrency cap holds the requests in flight to it; a request waiting for its slot is sent late, never early")
	void capHoldsRequestsInFlight() throws Exception {
		try (Stub stub = Stub.of("delay=30");
				AlternatingOpenLoop loop = AlternatingOpenLoop.start(stub.raw(), stub.gateway(), SOURCE, 100, 1.0, 3, 0, 2, ABBA, 1,
						Duration.ofSeconds(10), java.util.Optional.empty(), Progress.silent())) {
			List<RequestOutcome> all = new java.util.ArrayList<>();
			for (int s = 0; s < ABBA.length; s++) {
				all.addAll(loop.segment(s).outcomes());
			}
			assertThat(all).hasSize(8)
					.allMatch(RequestOutcome::ok)
					.allSatisfy(o -> assertThat(o.sentNanos()).isGreaterThanOrEqualTo(o.intendedNanos()));
			all.sort(java.util.Comparator.comparingLong(RequestOutcome::sentNanos));
			for (int i = 1; i < all.size(); i++) {
				assertThat(all.get(i).sentNanos()).as("request %d of 8 went out after the one before it ended", i)
						.isGreaterThanOrEqualTo(all.get(i - 1).endNanos());
			}
		}
	}

	/**
	 * Eight segments in an uneven order: each segment's requests go to its own target, and each segment's lag is read over
	 * its own span only. The probe records at most one sample per millisecond, so segments read over disjoint spans hold
	 * together no more samples than the milliseconds the loop ran; a lag carried from one segment into the next would
	 * count the early spans again and again.
	 */
	@Test
	@DisplayName("each segment's requests go to its target, and its client lag covers its own span, not the ones before it")
	void segmentsOwnTargetsAndLag() throws Exception {
		boolean[] order = { true, true, false, true, false, false, true, false };
		long before = System.nanoTime();
		try (Stub stub = Stub.of("ok");
				AlternatingOpenLoop loop = AlternatingOpenLoop.start(stub.raw(), stub.gateway(), SOURCE, 100, 1.0, 3, 0, 5, order, 0,
						Duration.ofSeconds(30), java.util.Optional.empty(), Progress.silent())) {
			long samples = 0;
			for (int s = 0; s < order.length; s++) {
				LoadResult segment = loop.segment(s);
				assertThat(segment.target()).isEqualTo(order[s] ? "raw" : "gateway");
				assertThat(segment.outcomes()).as("segment %d", s)
						.hasSize(5)
						.allSatisfy(o -> assertThat(o.target()).isEqualTo(segment.target()));
				samples += segment.clientLag().count();
			}
			long elapsedMs = (System.nanoTime() - before) / 1_000_000;
			assertThat(samples).as("lag samples over the 8 segments, against the %d ms the loop ran", elapsedMs)
					.isPositive()
					.isLessThanOrEqualTo(elapsedMs + order.length);
		}
	}

	/**
	 * A reader interrupted while it waits for a hung segment closes the loop and returns what the loop recorded (the
	 * requests in flight interrupted), keeping its interrupt status for its caller.
	 */
	@Test
	@DisplayName("a reader interrupted while it waits closes the loop and returns, its interrupt status kept")
	void interruptedReaderCloses() throws Exception {
		try (Stub stub = Stub.of("hang")) {
			AlternatingOpenLoop loop = stub.loop(SOURCE, 20, 0, 4, Duration.ofSeconds(60), java.util.Optional.empty());
			java.util.concurrent.CompletableFuture<LoadResult> read = new java.util.concurrent.CompletableFuture<>();
			boolean[] interrupted = new boolean[1];
			Thread reader = Thread.ofPlatform().start(() -> {
				try {
					LoadResult first = loop.segment(0);
					interrupted[0] = Thread.currentThread().isInterrupted();
					read.complete(first);
				}
				catch (RuntimeException e) {
					read.completeExceptionally(e);
				}
			});
			Thread.sleep(300);
			reader.interrupt();
			reader.join(30_000);
			assertThat(reader.isAlive()).as("the reader returned").isFalse();
			assertThat(read).isCompleted();
			assertThat(read.get().outcomes()).isNotEmpty().allSatisfy(o -> assertThat(o.error()).contains("interrupted"));
			assertThat(interrupted[0]).as("the reader's interrupt status").isTrue();
			assertThat(loop.segment(3).notSent()).as("the loop was closed: the last segment (due 0.6 s on) was never sent").isEqualTo(4);
		}
	}

	@Test
	@DisplayName("no segment, a rate of zero or a negative ramp is refused with what was given")
	void refused() {
		try (TargetClient a = TargetClient.open("raw", java.net.URI.create("http://127.0.0.1:9/v1"))) {
			assertThatThrownBy(
					() -> AlternatingOpenLoop.start(a, a, SOURCE, 0, 1, 0, 0, 1, ABBA, 0, Duration.ofSeconds(1), java.util.Optional.empty(),
							Progress.silent()))
					.hasMessageContaining("got 0.0");
			assertThatThrownBy(
					() -> AlternatingOpenLoop.start(a, a, SOURCE, 1, 1, 0, 0, 1, new boolean[0], 0, Duration.ofSeconds(1),
							java.util.Optional.empty(),
							Progress.silent()))
					.hasMessageContaining("0 segments");
			assertThatThrownBy(
					() -> AlternatingOpenLoop.start(a, a, SOURCE, 1, 1, 0, -1, 1, ABBA, 0, Duration.ofSeconds(1),
							java.util.Optional.empty(), Progress.silent()))
					.hasMessageContaining("ramp -1");
		}
	}

	/** The loopback stub in {@code mode} and two clients of it, raw and gateway. */
	private record Stub(StubEngine engine, TargetClient raw, TargetClient gateway) implements AutoCloseable {

		static Stub of(String mode) throws java.io.IOException {
			StubEngine engine = StubEngine.chat(mode);
			return new Stub(engine, TargetClient.open("raw", engine.uri()), TargetClient.open("gateway", engine.uri()));
		}

		/** A loop over both clients: ABBA segments of {@code size}, seed 3, no concurrency cap. */
		AlternatingOpenLoop loop(RequestSource source, double rate, int ramp, int size, Duration cap, java.util.Optional<Slo> slo) {
			return AlternatingOpenLoop.start(raw, gateway, source, rate, 1.0, 3, ramp, size, ABBA, 0, cap, slo, Progress.silent());
		}

		@Override
		public void close() {
			raw.close();
			gateway.close();
			engine.close();
		}
	}
}
