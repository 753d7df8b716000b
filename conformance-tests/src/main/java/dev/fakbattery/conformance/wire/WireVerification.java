package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.NotJudged;
import dev.fakbattery.conformance.rules.WireRule;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wire conformance rules, each named and displayed by its id, run for each engine dialect and each mode:
 * what the gateway must leave unchanged ({@link PassThroughRules}: W01, W05, W08 to W10, W15, W21, W22, W25, W27, W28),
 * what it decides ({@link AdjudicationRules}: W02 to W04, W06, W07, W13, W17, W23, W24), and here how it behaves as a
 * server to real clients: broken upstreams (W11), poisoned results (W12), timing (W14, W26), bad input (W16), cache
 * reset (W18), the official OpenAI SDK (W19) and stream framing (W20). The index of the rules is
 * {@link dev.fakbattery.conformance.rules.WireRule}; RULES.md gives each rule's MUST sentence, when it is skipped and
 * what to check when it fails.
 *
 * <p>The TCK way: a gateway project subclasses this with the kit as a test-scoped dependency and overrides
 * {@link #createGateway} (its gateway, started in front of the kit's upstream and configured with the kit's policy
 * convention), optionally {@link #engines()} and {@link #upstreamPort} (by default they read {@code gateway.url},
 * {@code engine} and {@code kit.upstream.port}, as the configured classes do); {@link #config()} is the run's
 * configuration.
 * Tag {@value #TIMING} marks the rules that wait on paced streams (W14, W26).
 * Under JUnit's parallel execution a subclass runs alone ({@link Isolated}, inherited): its timing rules (W14, W26)
 * time paced streams.
 *
 * @since 0.6
 */
@Isolated
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@DisplayName("wire conformance rules")
public abstract class WireVerification extends AdjudicationRules {

	/** Tag of the rules that wait on a paced upstream; the self-test runs them only where they are the point. */
	public static final String TIMING = "wire-timing";

	/** How late a content delta may arrive behind the upstream's pace before it counts as held. */
	static final int HOLD_LIMIT_MILLIS = 150;

	/**
	 * Judged paced streams W14 needs before its verdict: it passes when this many were not held while fewer were, and
	 * fails when this many were held while fewer were not, so a verdict is the majority of at most 5 judged streams and a
	 * gateway that buffers four streams in five fails. A busy machine holds a faithful hop's deltas in one stream now and
	 * then (under two CPU burners, 11 deltas in each of 3 tries once, 2026-12-01), a buffering gateway in every one.
	 */
	static final int JUDGED_NEEDED = 3;

	/**
	 * Paced streams W14 sends at most: {@code 2 * JUDGED_NEEDED - 1} judged ones decide, and 3 more may be lost to the kit's
	 * own upstream falling behind its pace, or to no stream delivered, before the rule stops undecided.
	 */
	static final int ATTEMPTS = 2 * JUDGED_NEEDED - 1 + 3;

	/** How many of the paced deltas may be held (one scheduling stall holds a few; a buffer holds many). */
	static final int HELD_ALLOWED = KitFront.PACED_DELTAS / 4;

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W11 malformed or truncated upstream gives 502, or an error frame and no finish, and completes no call")
	public void required_W11_badUpstream502(Dialect engine, String mode) {
		for (Scenario scenario : List.of(Scenario.TRUNCATED, Scenario.MALFORMED)) {
			Exchange answer = send(engine, mode, scenario).answer();
			boolean streamed = stream(mode) && answer.status == 200;
			boolean signalled = streamed
					? !answer.errorFrames().isEmpty()
					: answer.status == 502 && answer.json().map(j -> j.path("error").isObject()).orElse(false);
			require(signalled, WireRule.W11, engine, mode, "502 with an OpenAI-shaped error (or, once streaming, an error frame) for "
					+ scenario.marker(), "status " + answer.status + " body " + abbreviate(answer.body));
			List<String> wrong = new ArrayList<>(answer.finishReason().map(f -> "finish_reason " + f).stream().toList());
			(streamed ? answer.toolCallDeltas().stream().map(d -> d.name().orElse(null)) : answer.calls().stream().map(Exchange.Call::name))
					.filter(name -> name != null && (!streamed || !name.startsWith("allow_")))
					.forEach(name -> wrong.add("call " + name));
			require(wrong.isEmpty(), WireRule.W11, engine, mode, "no finish and no call but the allowed ones already streaming for "
					+ scenario.marker(), wrong);
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W12 poisoned tool result quarantined")
	public void required_W12_quarantine(Dialect engine, String mode) {
		Sent sent = send(engine, mode, Scenario.QUARANTINE);
		String upstreamBody = upstream(engine).received(sent.nonce()).map(KitUpstream.Received::body).orElse("");
		require(sent.answer().status == 200, WireRule.W12, engine, mode, "status 200", sent.answer().status);
		require(!upstreamBody.isEmpty() && !lower(upstreamBody).contains(lower(SECRET)), WireRule.W12, engine, mode,
				"the request forwarded upstream without the secret", upstreamBody.isEmpty() ? "nothing forwarded" : "the secret upstream");
		require(!lower(sent.answer().body).contains(lower(SECRET)), WireRule.W12, engine, mode, "a response without the secret",
				"the secret in the response");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@Tag(TIMING)
	@DisplayName("W14 streaming not buffered")
	public void stochastic_W14_notBuffered(Dialect engine, String mode) {
		onlyWhenStreaming(mode, WireRule.W14, "concerns streaming");
		PacedTries tries = new PacedTries();
		for (int attempt = 1; attempt <= ATTEMPTS && tries.verdict().isEmpty(); attempt++) {
			tries.add(pacedStream(engine, mode));
		}
		String target = WireRule.W14.id() + " [" + engine + " " + mode + "] on " + gateway(engine).description();
		if (tries.verdict().isEmpty()) {
			if (tries.late.isEmpty()) {
				throw new NotJudged(target + ": no paced stream was delivered in " + ATTEMPTS + " tries (" + String.join("; ",
						tries.undelivered) + ")");
			}
			pending(target + ": undecided after " + ATTEMPTS + " paced streams: " + tries + "; the kit's paced upstream fell behind "
					+ "its own pace in " + tries.late.size() + " (" + String.join("; ", tries.late) + "), and a gateway that buffers "
					+ "cannot be told from an upstream that bunches its writes. Fix: run W14 on a quieter machine");
		}
		require(tries.verdict().get(), WireRule.W14, engine, mode, "of the judged paced streams, most with at most " + HELD_ALLOWED
				+ " of " + KitFront.PACED_DELTAS + " content deltas held more than " + HOLD_LIMIT_MILLIS
				+ " ms longer than the least held one", tries + ": " + String.join("; ", tries.held));
	}

	/**
	 * W14's tries so far: the streams not held, held (what was held), the kit's upstream late (how), or not delivered
	 * (what the client got instead).
	 */
	static final class PacedTries {

		int clean;

		final List<String> held = new ArrayList<>();

		final List<String> late = new ArrayList<>();

		final List<String> undelivered = new ArrayList<>();

		void add(PacedStream stream) {
			if (stream.undelivered().isPresent()) {
				undelivered.add(stream.undelivered().get());
			}
			else if (stream.upstreamLate().isPresent()) {
				late.add(stream.upstreamLate().get());
			}
			else if (stream.held().isPresent()) {
				held.add(stream.held().get());
			}
			else {
				clean++;
			}
		}

		/** Passed (true) or failed (false) once {@link #JUDGED_NEEDED} judged streams agree; empty while undecided. */
		Optional<Boolean> verdict() {
			if (clean >= JUDGED_NEEDED) {
				return Optional.of(true);
			}
			return held.size() >= JUDGED_NEEDED ? Optional.of(false) : Optional.empty();
		}

		@Override
		public String toString() {
			return (clean + held.size()) + " judged (" + clean + " not held, " + held.size() + " held), " + late.size()
					+ " with the kit's upstream behind its pace, " + undelivered.size() + " not delivered";
		}
	}

	/**
	 * One paced stream as W14 reads it: whether the kit's own upstream kept its pace (else nothing about the gateway
	 * can be read from it), and whether the gateway held its deltas.
	 *
	 * @param upstreamLate how the upstream fell behind, when more than {@link #HELD_ALLOWED} of its content writes came
	 *        less than {@link #BUNCHED_MILLIS} ms after the one before (it stalled and caught up: a buffering gateway
	 *        would then pass the stream it was handed in one burst)
	 * @param held what was held, when more than {@link #HELD_ALLOWED} deltas were held longer than
	 *        {@link #HOLD_LIMIT_MILLIS}
	 */
	record PacedStream(Optional<String> upstreamLate, Optional<String> held, Optional<String> undelivered) {

		PacedStream(Optional<String> upstreamLate, Optional<String> held) {
			this(upstreamLate, held, Optional.empty());
		}
	}

	/** A content write less than this after the one before it means the upstream fell behind and caught up. */
	static final int BUNCHED_MILLIS = KitFront.PACE_MILLIS / 2;

	private PacedStream pacedStream(Dialect engine, String mode) {
		Sent sent = sendFresh(engine, mode, Scenario.PACED.marker(), Map.of());
		if (!delivered(sent.answer(), true)) {
			return new PacedStream(Optional.empty(), Optional.empty(), Optional.of("no stream delivered: " + describe(sent.answer())));
		}
		List<Long> arrivals = sent.answer().events.stream()
				.filter(t -> carriesContent(t.event()))
				.map(Exchange.Timed::arrivedNanos)
				.toList();
		PacedStream judged = judgePaced(arrivals, upstream(engine).pacedWrites(sent.nonce()));
		return arrivals.isEmpty() && judged.undelivered().isPresent()
				? new PacedStream(Optional.empty(), Optional.empty(),
						Optional.of(judged.undelivered().get() + " (" + describe(sent.answer())
								+ ")"))
				: judged;
	}

	/**
	 * One paced stream judged from when the upstream wrote each event ({@code writes}: the role chunk, then the content
	 * deltas) and when each content delta reached the client ({@code arrivals}), both in nanoseconds of one clock: how
	 * long each delta took, less the shortest such time.
	 */
	static PacedStream judgePaced(List<Long> arrivals, List<Long> writes) {
		if (writes.size() < KitFront.PACED_DELTAS + 1) {
			return new PacedStream(Optional.empty(), Optional.empty(), Optional.of("the kit's upstream wrote " + writes.size() + " of the "
					+ (KitFront.PACED_DELTAS + 1) + " paced events" + (writes.isEmpty() ? " (it was not reached)" : "")));
		}
		if (arrivals.isEmpty()) {
			return new PacedStream(Optional.empty(), Optional.empty(), Optional.of("no stream delivered: none of the "
					+ KitFront.PACED_DELTAS + " content deltas the kit's upstream wrote reached the client"));
		}
		if (arrivals.size() != KitFront.PACED_DELTAS) {
			return new PacedStream(Optional.empty(), Optional.of(arrivals.size() + " content deltas reached the client of the "
					+ KitFront.PACED_DELTAS + " the kit's upstream wrote"));
		}
		int bunched = 0;
		for (int i = 2; i <= KitFront.PACED_DELTAS; i++) {
			bunched += (writes.get(i) - writes.get(i - 1)) / 1_000_000 < BUNCHED_MILLIS ? 1 : 0;
		}
		if (bunched > HELD_ALLOWED) {
			return new PacedStream(Optional.of(bunched + " of " + (KitFront.PACED_DELTAS - 1) + " content writes less than "
					+ BUNCHED_MILLIS + " ms after the one before, " + KitFront.PACE_MILLIS + " ms asked"), Optional.empty());
		}
		long[] transit = new long[arrivals.size()];
		long fastest = Long.MAX_VALUE;
		for (int i = 0; i < transit.length; i++) {
			transit[i] = (arrivals.get(i) - writes.get(i + 1)) / 1_000_000;
			fastest = Math.min(fastest, transit[i]);
		}
		int held = 0;
		int worst = 0;
		for (int i = 0; i < transit.length; i++) {
			held += transit[i] - fastest > HOLD_LIMIT_MILLIS ? 1 : 0;
			worst = transit[i] > transit[worst] ? i : worst;
		}
		return new PacedStream(Optional.empty(), held <= HELD_ALLOWED
				? Optional.empty()
				: Optional.of(held + " held, the longest delta " + worst + " by " + (transit[worst] - fastest) + " ms"));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W16 bad client input gives 400")
	public void required_W16_badInput400(Dialect engine, String mode) {
		Exchange garbage = client.post(gateway(engine).baseUrl(), "{not json", stream(mode), Map.of());
		require(garbage.status == 400 && (WireJson.read(garbage.body).map(j -> j.path("error").isObject()).orElse(false)
				|| WireJson.read(garbage.body).equals(WireJson.read(upstream(engine).badInput400()))), WireRule.W16, engine, mode,
				"400 with an OpenAI-shaped error (or the engine's own 400 relayed unchanged) for a body that is not JSON",
				describe(garbage));
		ObjectNode empty = request("unused", stream(mode));
		empty.putArray("messages");
		Exchange noMessages = client.post(gateway(engine).baseUrl(), empty.toString(), stream(mode), Map.of());
		require(noMessages.status == 400, WireRule.W16, engine, mode, "400 for empty messages", describe(noMessages));
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W18 engine prefix cache reset after a quarantine")
	public void optional_W18_cacheReset(Dialect engine, String mode) {
		onlyWhenRecordDeclared(engine, WireRule.W18);
		int before = upstream(engine).cacheResets();
		sendFresh(engine, mode, Scenario.QUARANTINE.marker(), Map.of());
		int after = upstream(engine).cacheResets();
		require(after > before, WireRule.W18, engine, mode, "a POST " + engine.cacheResetPath()
				+ " after the quarantine", (after - before) + " reset(s)");
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W19 the official OpenAI SDK reads every answer as the kit does")
	public void required_W19_officialSdk(Dialect engine, String mode, TestReporter reporter) {
		List<String> markers = new ArrayList<>(Scenario.ANSWERS.stream().map(Scenario::marker).toList());
		upstream(engine).errorFixtures().stream().map(KitUpstream::errorMarker).forEach(markers::add);
		List<String> unreadable = new ArrayList<>();
		for (String marker : markers) {
			Sent sent = send(engine, mode, marker, Map.of());
			ObjectNode request = request(marker, sent.nonce(), stream(mode));
			WireChecks.SdkJudgement judged = WireChecks.sdk(sent.answer(), sdk(engine).read(request), () -> rawSdk(engine).read(request),
					marker);
			require(judged.passed(), WireRule.W19, engine, mode, judged.expected(), judged.observed());
			if (!judged.judged()) {
				unreadable.add(judged.observed());
			}
		}
		if (!unreadable.isEmpty()) {
			reporter.publishEntry(WireRule.W19.id() + " not judged: " + SdkReader.SDK + " cannot read the engine's own answer",
					String.join("; ", unreadable));
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@DisplayName("W20 every data event is a chunk or an error frame, [DONE] once and last")
	public void required_W20_framing(Dialect engine, String mode) {
		onlyWhenStreaming(mode, WireRule.W20, "concerns SSE framing");
		for (Scenario scenario : Scenario.ANSWERS) {
			Exchange answer = send(engine, mode, scenario).answer();
			if (answer.status == 200) {
				List<String> wrong = WireChecks.framing(answer);
				require(wrong.isEmpty(), WireRule.W20, engine, mode, "chat.completion.chunk or error frames, then [DONE] once, last ("
						+ scenario.marker() + ")", wrong);
			}
		}
	}

	@ParameterizedTest(name = NAME)
	@MethodSource(TARGETS)
	@Tag(TIMING)
	@DisplayName("W26 a long pause of the upstream does not cut the stream")
	public void required_W26_longGap(Dialect engine, String mode) {
		onlyWhenStreaming(mode, WireRule.W26, "concerns a pause in the middle of a stream");
		Exchange truth = truth(engine, mode, Scenario.GAP);
		Exchange answer = send(engine, mode, Scenario.GAP).answer();
		long pause = 0;
		for (int i = 1; i < answer.events.size(); i++) {
			pause = Math.max(pause, (answer.events.get(i).arrivedNanos() - answer.events.get(i - 1).arrivedNanos()) / 1_000_000);
		}
		boolean whole = answer.status == 200 && answer.sawDone && answer.errorFrames().isEmpty()
				&& answer.content().equals(truth.content());
		require(whole, WireRule.W26, engine, mode,
				"the whole stream after a " + KitFront.GAP_MILLIS + " ms pause (content [" + truth.content()
						+ "], [DONE], no error frame)",
				"status " + answer.status + ", content [" + answer.content() + "], " + (answer.sawDone ? "" : "no ")
						+ "[DONE], " + answer.errorFrames().size() + " error frame(s), longest pause " + pause + " ms");
	}

	private static boolean carriesContent(SseEvent event) {
		return event.kind() == SseEvent.Kind.DATA && event.event().isEmpty() && event.json().isPresent()
				&& event.chunk().choices().stream().anyMatch(c -> c.delta().content().filter(t -> !t.isEmpty()).isPresent());
	}
}
