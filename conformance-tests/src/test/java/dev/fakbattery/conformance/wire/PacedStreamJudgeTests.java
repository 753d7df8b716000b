package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * W14 judged from synthetic clocks: the rule must not read a stream its own upstream bunched as proof that the gateway
 * forwards deltas as they come (a gateway that flushes on a timer passes a burst it was handed whole).
 */
@DisplayName("W14's reading of one paced stream: held deltas, and an upstream that fell behind its own pace")
class PacedStreamJudgeTests {

	private static final long MS = 1_000_000L;

	/** The role chunk at 0, then each content delta at {@code at(i)} ms, i = 0..19. */
	private static List<Long> writes(IntToLongFunction at) {
		List<Long> writes = new ArrayList<>(List.of(0L));
		for (int i = 0; i < KitFront.PACED_DELTAS; i++) {
			writes.add(at.applyAsLong(i) * MS);
		}
		return writes;
	}

	/** Arrivals of the content deltas written at {@code writes}, through a hop that flushes every {@code window} ms. */
	private static List<Long> flushedEvery(List<Long> writes, long window) {
		return writes.subList(1, writes.size()).stream().map(w -> ((w / MS) / window + 1) * window * MS + MS).toList();
	}

	private static List<Long> forwardedAfter(List<Long> writes, long delayMs) {
		return writes.subList(1, writes.size()).stream().map(w -> w + delayMs * MS).toList();
	}

	@Test
	@DisplayName("no content delta reached the client: no stream delivered, not 0 deltas held")
	void nothingDelivered() {
		WireVerification.PacedStream stream = WireVerification.judgePaced(List.of(), writes(i -> 50 + 50L * i));
		assertThat(stream.held()).isEmpty();
		assertThat(stream.undelivered()).hasValueSatisfying(u -> assertThat(u).startsWith("no stream delivered: none of the 20 content "
				+ "deltas"));
	}

	@Test
	@DisplayName("an upstream on pace, a faithful hop: nothing held, the upstream not late")
	void faithful() {
		List<Long> writes = writes(i -> 50 + 50L * i);
		WireVerification.PacedStream stream = WireVerification.judgePaced(forwardedAfter(writes, 2), writes);
		assertThat(stream.upstreamLate()).isEmpty();
		assertThat(stream.held()).isEmpty();
	}

	@Test
	@DisplayName("an upstream on pace, a hop flushing every 500 ms: held")
	void bufferedOnPace() {
		List<Long> writes = writes(i -> 50 + 50L * i);
		WireVerification.PacedStream stream = WireVerification.judgePaced(flushedEvery(writes, 500), writes);
		assertThat(stream.upstreamLate()).isEmpty();
		assertThat(stream.held()).hasValueSatisfying(h -> assertThat(h).contains("held"));
	}

	@Test
	@DisplayName("an upstream that stalled 900 ms and caught up: late, not judged, although the same buffering hop would read as not held")
	void bunchedUpstreamIsNotJudged() {
		// deadlines every 50 ms from 50 ms; the writer stalls until 950 ms, then writes every late delta at once
		List<Long> writes = writes(i -> Math.max(950 + i, 50 + 50L * i));
		List<Long> arrivals = flushedEvery(writes, 500);
		WireVerification.PacedStream stream = WireVerification.judgePaced(arrivals, writes);
		assertThat(stream.upstreamLate()).hasValueSatisfying(late -> assertThat(late).contains("less than 25 ms after the one before"));
		assertThat(stream.held()).isEmpty();
		// without the pace check this stream would have passed a buffering hop: what the check guards against
		List<Long> transit = new ArrayList<>();
		for (int i = 0; i < arrivals.size(); i++) {
			transit.add((arrivals.get(i) - writes.get(i + 1)) / MS);
		}
		long fastest = transit.stream().mapToLong(Long::longValue).min().orElseThrow();
		assertThat(transit.stream().filter(t -> t - fastest > WireVerification.HOLD_LIMIT_MILLIS).count())
				.isLessThanOrEqualTo(WireVerification.HELD_ALLOWED);
	}

	@Test
	@DisplayName("a few bunched writes (one short stall) still judge the stream")
	void shortStallStillJudged() {
		List<Long> writes = writes(i -> Math.max(200 + i, 50 + 50L * i));
		WireVerification.PacedStream stream = WireVerification.judgePaced(forwardedAfter(writes, 2), writes);
		assertThat(stream.upstreamLate()).isEmpty();
		assertThat(stream.held()).isEmpty();
	}

	@Test
	@DisplayName("a stream missing deltas is held, named by the count")
	void missingDeltas() {
		List<Long> writes = writes(i -> 50 + 50L * i);
		WireVerification.PacedStream stream = WireVerification.judgePaced(forwardedAfter(writes, 2).subList(0, 12), writes);
		assertThat(stream.held()).hasValue("12 content deltas reached the client of the 20 the kit's upstream wrote");
	}
}
