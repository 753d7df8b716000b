package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import dev.fakbattery.conformance.wire.WireVerification.PacedStream;
import dev.fakbattery.conformance.wire.WireVerification.PacedTries;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("W14's verdict: the majority of its judged paced streams")
class PacedTriesTests {

	private static final PacedStream CLEAN = new PacedStream(Optional.empty(), Optional.empty());

	private static final PacedStream HELD = new PacedStream(Optional.empty(), Optional.of("20 held"));

	private static final PacedStream LATE = new PacedStream(Optional.of("12 of 19 writes bunched"), Optional.empty());

	private static final PacedStream UNDELIVERED = new PacedStream(Optional.empty(), Optional.empty(), Optional.of("status 500"));

	@Test
	@DisplayName("a gateway that buffers four streams in five fails: three held decide, whatever clean one came first")
	void fourInFiveBufferedFails() {
		PacedTries tries = tries(CLEAN, HELD, HELD);
		assertThat(tries.verdict()).as("two held, one clean: undecided").isEmpty();
		tries.add(HELD);
		assertThat(tries.verdict()).hasValue(false);
		assertThat(tries.held).containsExactly("20 held", "20 held", "20 held");
	}

	@Test
	@DisplayName("three streams not held pass, however many were held before; two do not")
	void threeCleanPass() {
		PacedTries tries = tries(HELD, CLEAN, HELD, CLEAN);
		assertThat(tries.verdict()).isEmpty();
		tries.add(CLEAN);
		assertThat(tries.verdict()).hasValue(true);
	}

	@Test
	@DisplayName("streams the kit's upstream was late for, or that were not delivered, judge nothing")
	void lateAndUndeliveredAreNotJudged() {
		PacedTries tries = tries(LATE, LATE, LATE, UNDELIVERED, UNDELIVERED, UNDELIVERED, CLEAN, CLEAN);
		assertThat(tries.verdict()).isEmpty();
		assertThat(tries.late).hasSize(3).containsOnly("12 of 19 writes bunched");
		assertThat(tries.undelivered).hasSize(3).containsOnly("status 500");
		assertThat(tries.held).isEmpty();
		assertThat(tries.clean).isEqualTo(2);
	}

	@Test
	@DisplayName("a stream not delivered counts as that before anything else, an upstream late before a held stream")
	void precedence() {
		PacedTries tries = tries(new PacedStream(Optional.of("late"), Optional.of("held"), Optional.of("no stream")),
				new PacedStream(Optional.of("late"), Optional.of("held")));
		assertThat(tries.undelivered).containsExactly("no stream");
		assertThat(tries.late).containsExactly("late");
		assertThat(tries.held).isEmpty();
		assertThat(tries.clean).isZero();
	}

	@Test
	@DisplayName("the tries are told as judged (not held, held), the upstream behind its pace, not delivered")
	void told() {
		assertThat(tries(CLEAN, CLEAN, HELD, LATE, UNDELIVERED, UNDELIVERED))
				.hasToString("3 judged (2 not held, 1 held), 1 with the kit's upstream behind its pace, 2 not delivered");
	}

	private static PacedTries tries(PacedStream... streams) {
		PacedTries tries = new PacedTries();
		for (PacedStream stream : streams) {
			tries.add(stream);
		}
		return tries;
	}
}
