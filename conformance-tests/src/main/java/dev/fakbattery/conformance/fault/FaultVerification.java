package dev.fakbattery.conformance.fault;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.fakbattery.conformance.rules.FaultRule;
import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.ClientLagProbe;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SseReader;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.TestAbortedException;

/**
 * The fault rules, each named and displayed by its id (F01..F07), run for each engine dialect and each mode against
 * the gateway under test and a {@link FaultUpstream} that misbehaves on purpose. RULES.md ("Faults") gives each
 * rule's MUST sentence, its numbers, and what to check when it fails; the index is
 * {@link dev.fakbattery.conformance.rules.FaultRule}.
 *
 * <p>The TCK way: subclass this and override {@link #createGateway} (the gateway in front of the kit's fault upstream),
 * optionally {@link #engines()}, {@link #upstreamPort} and {@link #limits} (the limits the gateway documents, when it
 * does not declare them itself: F02, F04, F06 and F07 hold it to them).
 * Under JUnit's parallel execution a subclass runs alone ({@link Isolated}, inherited): F01 times a 200 ms cancel
 * and F05 floods the gateway.
 *
 * @since 0.6
 */
@Isolated
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@DisplayName("fault rules")
public abstract class FaultVerification extends FaultKit {

	static final String TARGETS = "targets";

	static final String NAME = "{0} {1}";

	/** F01: the most a gateway may take to cancel its upstream request after the client left. */
	static final Duration CANCEL_WITHIN = Duration.ofMillis(200);

	/**
	 * F01, F03 and F04: tries at most, each judged unless the kit's own JVM stalled long enough to explain what went wrong
	 * (a late cancel, an upstream timeout); all of them explained so is PENDING_MEASUREMENT, never a pass.
	 */
	static final int STALL_TRIES = 3;

	/**
	 * F04: bytes past the event limit an upstream may still push before the gateway stops reading: one connection's
	 * socket buffers at this machine's largest plus 4 MiB of the gateway's own reading, at least 16 MiB.
	 */
	static final long BUFFER_SLACK = SocketBuffers.ofThisMachine().allowance(16L * UpstreamAnswers.MIB, 4L * UpstreamAnswers.MIB, 1);

	/**
	 * F05: the most a stream with a stalled client may take from its upstream: the socket buffers of both connections
	 * (upstream to gateway, gateway to client) at this machine's largest plus 8 MiB held by the gateway, at least 32 MiB.
	 */
	static final long SLOW_CLIENT_BOUND = SocketBuffers.ofThisMachine()
			.allowance(32L * UpstreamAnswers.MIB, 8L * UpstreamAnswers.MIB,
					2);

	/** F05: how far the upstream's answer goes past {@link #SLOW_CLIENT_BOUND}, so that a gateway without a bound takes more. */
	static final long FLOOD_PAST_BOUND = 16L * UpstreamAnswers.MIB;

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F01 client disconnect cancels the upstream request")
	public void required_F01_disconnectCancelsUpstream(Dialect engine, String mode) throws Exception {
		onlyWhenStreaming(mode, FaultRule.F01, "needs a stream for the client to leave mid-way");
		List<String> stalled = new ArrayList<>();
		for (int attempt = 1; attempt <= STALL_TRIES; attempt++) {
			Request request = request(Fault.PACED, 2000, true);
			long left;
			long millis;
			ClientLag lag;
			try (ClientLagProbe probe = ClientLagProbe.start()) {
				try (FaultClient client = FaultClient.post(gateway(engine).baseUrl(), "/chat/completions", headers(engine, Map.of()),
						request.body().getBytes(StandardCharsets.UTF_8), false, 0, Duration.ofSeconds(30))) {
					trackStream(engine, request, client.status());
					requireFaultSeen(FaultRule.F01, engine, mode, request, client.status());
					require(client.status() == 200, FaultRule.F01, engine, mode, "a 200 stream to leave", "status " + client.status());
					SseReader reader = new SseReader(client.body());
					reader.next();
					reader.next();
					left = System.nanoTime();
					client.leave();
				}
				UpstreamCall call = callOf(FaultRule.F01, engine, mode, request, Duration.ofSeconds(5), "a 200 stream the client left");
				boolean cancelled = call.awaitClosedByGateway(Duration.ofSeconds(3));
				millis = TimeUnit.NANOSECONDS.toMillis(call.closedAt() - left);
				lag = probe.read();
				require(cancelled, FaultRule.F01, engine, mode,
						"the upstream request cancelled within " + CANCEL_WITHIN.toMillis() + " ms of the client leaving",
						"the upstream connection still open 3000 ms later (" + call.written() + " bytes taken)");
			}
			if (millis <= CANCEL_WITHIN.toMillis()) {
				break;
			}
			// late: judged only when the kit's own JVM did not stall long enough to explain it (a GC pause, a busy machine)
			long stallMillis = Math.round(lag.maxMicros() / 1000);
			require(explainedByKitStall(millis, stallMillis), FaultRule.F01, engine, mode,
					"the upstream request cancelled within " + CANCEL_WITHIN.toMillis() + " ms of the client leaving",
					"cancelled after " + millis + " ms (the kit's own longest stall meanwhile " + stallMillis + " ms)");
			stalled.add("try " + attempt + ": cancelled after " + millis + " ms, the kit itself stalled " + stallMillis + " ms");
			pendingAfterTries(FaultRule.F01, engine, mode, attempt, stalled, "lateness");
		}
		FaultClient.Answer after = send(engine, request(Fault.TEXT, 1, true), Map.of(), false, Duration.ofSeconds(10));
		require(errorFreeStream(after), FaultRule.F01, engine, mode, "the next stream served whole after the cancel", describe(after));
	}

	/**
	 * Whether a cancel seen {@code millis} after the client left may be the kit's own doing: its JVM stalled at least as
	 * long as the cancel was late ({@code millis} past {@link #CANCEL_WITHIN}).
	 */
	static boolean explainedByKitStall(long millis, long stallMillis) {
		return stallMillis >= millis - CANCEL_WITHIN.toMillis();
	}

	/** The gateway's documented upstream timeout, where it has one: how long a kit stall may be the gateway's own wait. */
	private Optional<Duration> upstreamTimeout(Dialect engine) {
		OptionalLong millis = limit(gateway(engine), Limit.UPSTREAM_TIMEOUT);
		return millis.isPresent() ? Optional.of(Duration.ofMillis(millis.getAsLong())) : Optional.empty();
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F02 upstream stall past the timeout: 504 or an error frame, never a hang")
	public void required_F02_stallAnswered(Dialect engine, String mode) throws Exception {
		long timeout = requireLimit(engine, FaultRule.F02, Limit.UPSTREAM_TIMEOUT);
		Duration deadline = Duration.ofMillis(timeout + Math.max(timeout / 2, 2000));
		// both stalls at once, each on its own connection: the rule waits one timeout, not two
		List<Fault> stalls = List.of(Fault.STALL_HEADERS, Fault.STALL_BODY);
		List<Request> requests = stalls.stream().map(fault -> request(fault, 1, stream(mode))).toList();
		List<FaultClient.Answer> answers = sendAll(engine, requests, deadline);
		for (int i = 0; i < stalls.size(); i++) {
			Fault fault = stalls.get(i);
			Request request = requests.get(i);
			FaultClient.Answer answer = answers.get(i);
			requireFaultSeen(FaultRule.F02, engine, mode, request, answer);
			boolean answered = stream(mode)
					? errorFrameThenDone(answer) || (fault == Fault.STALL_HEADERS && openAiError(answer, 504))
					: openAiError(answer, 504);
			require(answered, FaultRule.F02, engine, mode, (stream(mode)
					? "an error frame then [DONE]" + (fault == Fault.STALL_HEADERS
							? " (or 504 with an OpenAI-shaped error)"
							: "")
					: "504 with an OpenAI-shaped error") + " within "
					+ deadline.toMillis() + " ms of an upstream that " + stall(fault) + " (upstream timeout " + timeout + " ms)",
					describe(answer));
			require(answer.millis() >= timeout * 8 / 10, FaultRule.F02, engine, mode, "the answer after the documented upstream timeout of "
					+ timeout + " ms (" + stall(fault) + ")", "it after " + answer.millis() + " ms");
			UpstreamCall call = callOf(FaultRule.F02, engine, mode, request, Duration.ofSeconds(1), describe(answer));
			require(call.awaitClosedByGateway(Duration.ofSeconds(2)), FaultRule.F02, engine, mode,
					"the stalled upstream connection closed by the gateway (" + stall(fault) + ")", "it still open");
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F03 upstream reset mid-answer: an error frame then [DONE], no partial tool call")
	public void required_F03_resetAnswered(Dialect engine, String mode) throws Exception {
		// the upstream waits 1 s before its reset: a kit that stalled for the gateway's timeout made it silent that long
		Optional<Duration> timeout = upstreamTimeout(engine);
		Sent sent = sendJudgingKitStalls(FaultRule.F03, engine, mode, () -> request(Fault.RESET, 1, stream(mode)), Duration.ofSeconds(20),
				timeout, answer -> clearError(answer, mode));
		FaultClient.Answer answer = sent.answer();
		requireFaultSeen(FaultRule.F03, engine, mode, sent.request(), answer);
		require(sent.answered(), FaultRule.F03, engine, mode, stream(mode)
				? "an error frame then [DONE] (or 502 with an OpenAI-shaped error"
						+ " before anything was streamed)"
				: "502 with an OpenAI-shaped error", describe(answer));
		require(!answer.body().contains(FaultWire.cutToolName()), FaultRule.F03, engine, mode,
				"no byte of the cut tool call (" + FaultWire.cutToolName() + ")", "it in the answer: " + describe(answer));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F04 endless upstream line or event: bounded reading, a clear error")
	public void required_F04_endlessLineBounded(Dialect engine, String mode) throws Exception {
		long maxEventBytes = requireLimit(engine, FaultRule.F04, Limit.MAX_EVENT_BYTES);
		int capMib = (int) ((maxEventBytes + BUFFER_SLACK) / UpstreamAnswers.MIB) + 8;
		for (Fault fault : stream(mode) ? List.of(Fault.ENDLESS_LINE, Fault.ENDLESS_EVENT) : List.of(Fault.ENDLESS_LINE)) {
			Sent sent = sendJudgingKitStalls(FaultRule.F04, engine, mode, () -> request(fault, capMib, stream(mode)),
					Duration.ofSeconds(40),
					upstreamTimeout(engine),
					answer -> clearError(answer, mode));
			requireFaultSeen(FaultRule.F04, engine, mode, sent.request(), sent.answer());
			require(sent.answered(), FaultRule.F04, engine, mode, (stream(mode)
					? "an error frame then [DONE] (or 502 with an OpenAI-shaped error)"
					: "502 with an OpenAI-shaped error") + " for an " + fault.id(), describe(sent.answer()));
			UpstreamCall call = callOf(FaultRule.F04, engine, mode, sent.request(), Duration.ofSeconds(1), describe(sent.answer()));
			boolean closed = call.awaitClosedByGateway(Duration.ofSeconds(5));
			require(closed && call.written() <= maxEventBytes + BUFFER_SLACK, FaultRule.F04, engine, mode,
					"the gateway to stop reading an "
							+ fault.id() + " within " + maxEventBytes + " bytes (its event limit) + " + BUFFER_SLACK
							+ " bytes of socket buffers (" + SocketBuffers.ofThisMachine().source() + ")",
					closed ? "it took " + call.written() + " bytes" : "it took all " + call.written() + " bytes the upstream sent");
		}
	}

	/** F03's and F04's clear error: streaming, an error frame then [DONE] or a 502; otherwise a 502, OpenAI-shaped. */
	private static boolean clearError(FaultClient.Answer answer, String mode) {
		return stream(mode) ? errorFrameThenDone(answer) || openAiError(answer, 502) : openAiError(answer, 502);
	}

	/** A request sent, its answer, and whether that answer is the one the rule asks for. */
	private record Sent(Request request, FaultClient.Answer answer, boolean answered) {
	}

	/**
	 * Sends a fresh request until its answer is judged: a wrong answer that is a 504 while the kit's own JVM stalled for
	 * most of the gateway's upstream timeout ({@link #timeoutExplainedByKitStall}) is tried again, at most
	 * {@link #STALL_TRIES} times, then PENDING_MEASUREMENT; anything else is returned for the rule to judge.
	 */
	private Sent sendJudgingKitStalls(FaultRule rule, Dialect engine, String mode, Supplier<Request> fresh,
			Duration deadline, Optional<Duration> upstreamTimeout, Predicate<FaultClient.Answer> right)
			throws Exception {
		List<String> stalled = new ArrayList<>();
		for (int attempt = 1;; attempt++) {
			Request request = fresh.get();
			FaultClient.Answer answer;
			ClientLag lag;
			try (ClientLagProbe probe = ClientLagProbe.start()) {
				answer = send(engine, request, Map.of(), false, deadline);
				lag = probe.read();
			}
			boolean answered = right.test(answer);
			long stallMillis = Math.round(lag.maxMicros() / 1000);
			if (answered || upstreamTimeout.isEmpty() || !timeoutExplainedByKitStall(answer, upstreamTimeout.get(), stallMillis)) {
				return new Sent(request, answer, answered);
			}
			stalled.add("try " + attempt + ": " + describe(answer) + ", the kit itself stalled " + stallMillis + " ms");
			pendingAfterTries(rule, engine, mode, attempt, stalled, "an upstream timeout");
		}
	}

	/**
	 * Whether a gateway's upstream-timeout answer (504) may be the kit's own doing: the kit's upstream runs in the kit's
	 * JVM (and an in-process gateway too), so a JVM that stalled for most of the gateway's upstream timeout left the
	 * upstream silent that long, and the gateway timing it out was right. Judged only as a 504 with a stall of at least
	 * 8/10 of the timeout (the margin F02 gives the timeout itself); any other wrong answer is judged as usual.
	 */
	static boolean timeoutExplainedByKitStall(FaultClient.Answer answer, Duration upstreamTimeout, long stallMillis) {
		return answer.status() == 504 && stallMillis >= upstreamTimeout.toMillis() * 8 / 10;
	}

	/**
	 * After {@code attempt} tries each explained by the kit's own stall: nothing at all until {@link #STALL_TRIES}, then
	 * PENDING_MEASUREMENT naming every try (a skip under {@code allow.pending}, a failure otherwise), never a pass.
	 */
	private void pendingAfterTries(FaultRule rule, Dialect engine, String mode, int attempt, List<String> stalled, String what) {
		if (attempt < STALL_TRIES) {
			return;
		}
		String message = PENDING + rule.id() + " [" + engine + " " + mode + "] on " + gateway(engine).description()
				+ ": every try's " + what + " is the kit's own stall, not the gateway's (" + String.join("; ", stalled)
				+ "); run on a quieter machine";
		if (config().allowPending()) {
			throw new TestAbortedException(message);
		}
		throw new PendingMeasurementError(message);
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F05 slow client: bounded upstream reading, other streams unaffected")
	public void required_F05_slowClientBounded(Dialect engine, String mode) throws Exception {
		onlyWhenStreaming(mode, FaultRule.F05, "needs a stream for the client to read slowly");
		Request flood = request(Fault.FLOOD, (int) ((SLOW_CLIENT_BOUND + FLOOD_PAST_BOUND) / UpstreamAnswers.MIB), true);
		try (FaultClient slow = FaultClient.post(gateway(engine).baseUrl(), "/chat/completions", headers(engine, Map.of()),
				flood.body().getBytes(StandardCharsets.UTF_8), false, 4096, Duration.ofSeconds(60))) {
			trackStream(engine, flood, slow.status());
			requireFaultSeen(FaultRule.F05, engine, mode, flood, slow.status());
			require(slow.status() == 200, FaultRule.F05, engine, mode, "a 200 stream to read slowly", "status " + slow.status());
			List<Thread> others = new ArrayList<>();
			List<FaultClient.Answer> answers = java.util.Collections.synchronizedList(new ArrayList<>());
			readSlowly(slow.raw(), 1);
			for (int i = 0; i < 4; i++) {
				others.add(Thread.ofVirtual()
						.start(() -> answers.add(send(engine, request(Fault.PACED, 20, true), Map.of(), false, Duration.ofSeconds(5)))));
			}
			readSlowly(slow.raw(), 2);
			for (Thread other : others) {
				other.join();
			}
			UpstreamCall call = callOf(FaultRule.F05, engine, mode, flood, Duration.ofSeconds(1), "a 200 stream read slowly");
			Taken taken = settled(call);
			require(taken.bytes() <= SLOW_CLIENT_BOUND && !taken.growing() && !call.finished(), FaultRule.F05, engine, mode,
					"the stream of a client reading one byte a second to take at most "
							+ SLOW_CLIENT_BOUND + " bytes from its upstream (socket buffers from "
							+ SocketBuffers.ofThisMachine().source() + ")",
					"it took " + taken.bytes() + " bytes" + (call.finished() ? " (the whole answer)" : "")
							+ (taken.growing() ? " and was still taking more after " + SETTLE_CAP_S + " s" : ""));
			List<String> failed = answers.stream().filter(a -> !errorFreeStream(a)).map(FaultKit::describe).toList();
			require(answers.size() == 4 && failed.isEmpty(), FaultRule.F05, engine, mode,
					"4 other streams served whole within 5 s meanwhile",
					answers.size() + " answered, failed: " + failed);
			slow.leave();
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F06 request body over the limit gets 413")
	public void required_F06_bodyLimit(Dialect engine, String mode) throws Exception {
		long maxBodyBytes = requireLimit(engine, FaultRule.F06, Limit.MAX_BODY_BYTES);
		for (boolean chunked : List.of(false, true)) {
			Request over = request(Fault.TEXT, stream(mode), maxBodyBytes + 1024);
			FaultClient.Answer answer = sendOverLimit(engine, over, Map.of(), chunked, Duration.ofSeconds(30));
			require(openAiError(answer, 413), FaultRule.F06, engine, mode,
					"413 with an OpenAI-shaped error for a " + (chunked ? "chunked " : "")
							+ "body of " + (maxBodyBytes + 1024) + " bytes (limit " + maxBodyBytes + ")",
					describe(answer));
			require(upstream(engine).call(over.nonce()).isEmpty(), FaultRule.F06, engine, mode, "nothing forwarded upstream",
					"the request upstream");
		}
		Request under = request(Fault.TEXT, stream(mode), maxBodyBytes - 1024);
		FaultClient.Answer answer = send(engine, under, Map.of(), false, Duration.ofSeconds(30));
		require(answer.status() == 200, FaultRule.F06, engine, mode,
				"200 for a body of " + (maxBodyBytes - 1024) + " bytes, under the limit",
				describe(answer));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("F07 request headers over the limit get 431")
	public void required_F07_headerLimit(Dialect engine, String mode) {
		long maxHeaderBytes = requireLimit(engine, FaultRule.F07, Limit.MAX_HEADER_BYTES);
		for (int delta : List.of(1024, -1024)) {
			Request request = request(Fault.TEXT, 1, stream(mode));
			int length = request.body().getBytes(StandardCharsets.UTF_8).length;
			long base = FaultClient.headerBytes(gateway(engine).baseUrl(), headers(engine, Map.of("X-Fault-Padding", "")), length);
			Map<String, String> padding = Map.of("X-Fault-Padding", "h".repeat((int) (maxHeaderBytes + delta - base)));
			long bytes = FaultClient.headerBytes(gateway(engine).baseUrl(), headers(engine, padding), length);
			FaultClient.Answer answer = delta > 0
					? sendOverLimit(engine, request, padding, false, Duration.ofSeconds(20))
					: send(engine, request, padding, false, Duration.ofSeconds(20));
			if (delta > 0) {
				require(openAiError(answer, 431), FaultRule.F07, engine, mode,
						"431 with an OpenAI-shaped error for " + bytes + " bytes of headers (limit "
								+ maxHeaderBytes + ")",
						describe(answer));
				require(upstream(engine).call(request.nonce()).isEmpty(), FaultRule.F07, engine, mode, "nothing forwarded upstream",
						"the request upstream");
			}
			else {
				require(answer.status() == 200, FaultRule.F07, engine, mode, "200 for " + bytes + " bytes of headers, under the limit",
						describe(answer));
			}
		}
	}

	private static boolean errorFreeStream(FaultClient.Answer answer) {
		return answer.status() == 200 && answer.broke() == null && !answer.events().isEmpty() && answer.events().getLast().isDone()
				&& answer.events().stream().noneMatch(e -> e.isError());
	}

	private static String stall(Fault fault) {
		return fault == Fault.STALL_HEADERS ? "never sends its headers" : "goes silent mid-answer";
	}

	/**
	 * The bytes the call's upstream wrote once that stopped growing for 3 s of the kit's own running time (a gateway held
	 * back by its slow client; long enough that a gateway starved of CPU on a busy machine is not taken for one, and
	 * without the time the kit's JVM was held: {@link Settling}), or as soon as they passed the bound; still growing
	 * after {@value #SETTLE_CAP_S} s, no bound was seen.
	 */
	private static Taken settled(UpstreamCall call) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_CAP_S);
		Settling settling = new Settling(TimeUnit.SECONDS.toNanos(3));
		long written = call.written();
		settling.observe(System.nanoTime(), written, 0);
		long collected = Settling.collectorMillis();
		while (written <= SLOW_CLIENT_BOUND && !call.finished()) {
			if (System.nanoTime() >= deadline) {
				return new Taken(written, true);
			}
			long before = System.nanoTime();
			Thread.sleep(250);
			long now = System.nanoTime();
			long late = Math.max(0, now - before - TimeUnit.MILLISECONDS.toNanos(250));
			long collectedNow = Settling.collectorMillis();
			long paused = TimeUnit.MILLISECONDS.toNanos(collectedNow - collected);
			collected = collectedNow;
			written = call.written();
			if (settling.observe(now, written, late + paused)) {
				return new Taken(written, false);
			}
		}
		return new Taken(call.written(), false);
	}

	/** How long F05 waits for the bytes taken to settle: {@value} s. */
	static final int SETTLE_CAP_S = 20;

	/** The bytes an upstream wrote, and whether they were still growing when F05 stopped waiting for them to settle. */
	private record Taken(long bytes, boolean growing) {
	}

	/** Reads one byte a second for {@code seconds} seconds. */
	private static void readSlowly(InputStream raw, int seconds) throws IOException, InterruptedException {
		for (int i = 0; i < seconds; i++) {
			if (raw.read() < 0) {
				return;
			}
			Thread.sleep(1000);
		}
	}
}
