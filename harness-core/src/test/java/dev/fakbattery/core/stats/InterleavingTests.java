package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.fakbattery.core.stats.Interleaving.Arm;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Interleaving")
class InterleavingTests {

	@ParameterizedTest(name = "[{index}] n = {0}")
	@ValueSource(ints = { 0, 1, 2, 7, 8, 101 })
	@DisplayName("every schedule has exactly n of each arm")
	void balanced(int n) {
		for (long seed = 0; seed < 20; seed++) {
			for (List<Arm> schedule : List.of(Interleaving.abba(n, seed), Interleaving.shuffled(n, seed))) {
				assertThat(schedule).hasSize(2 * n);
				assertThat(Collections.frequency(schedule, Arm.A)).isEqualTo(n);
			}
		}
	}

	@Test
	@DisplayName("ABBA schedules are blocks of A B B A or B A A B, both chosen, then a half block for odd n")
	void abbaBlocks() {
		List<Arm> schedule = Interleaving.abba(2_001, 5);
		int abba = 0;
		for (int block = 0; block < 1_000; block++) {
			List<Arm> four = schedule.subList(4 * block, 4 * block + 4);
			assertThat(four).isIn(List.of(Arm.A, Arm.B, Arm.B, Arm.A), List.of(Arm.B, Arm.A, Arm.A, Arm.B));
			abba += four.get(0) == Arm.A ? 1 : 0;
		}

		assertThat(abba).isBetween(420, 580);
		assertThat(schedule.subList(4_000, 4_002)).isIn(List.of(Arm.A, Arm.B), List.of(Arm.B, Arm.A));
	}

	@Test
	@DisplayName("over many blocks each arm sits at each block position about equally often")
	void positionsBalanceOverBlocks() {
		int blocks = 4_000;
		List<Arm> schedule = Interleaving.abba(2 * blocks, 11);
		int[] aAtPosition = new int[4];
		for (int i = 0; i < schedule.size(); i++) {
			aAtPosition[i % 4] += schedule.get(i) == Arm.A ? 1 : 0;
		}

		// binomial(4000, 0.5) has sd ~32; allow 5 sd
		assertThatEachIsNear(aAtPosition, blocks / 2, 160);
	}

	@Test
	@DisplayName("a linear drift over the run cancels exactly between ABBA arms, unlike raw-always-first")
	void linearDriftCancels() {
		List<Arm> abba = Interleaving.abba(500, 13);
		List<Arm> rawFirst = Collections.nCopies(500, List.of(Arm.A, Arm.B)).stream().flatMap(List::stream).toList();

		assertThat(driftBias(abba)).isZero();
		assertThat(driftBias(rawFirst)).isEqualTo(-500);
	}

	/** Sum of the run index (a drift of 1 per request) over arm A minus over arm B. */
	private static long driftBias(List<Arm> schedule) {
		long bias = 0;
		for (int i = 0; i < schedule.size(); i++) {
			bias += schedule.get(i) == Arm.A ? i : -i;
		}
		return bias;
	}

	@Test
	@DisplayName("shuffled schedules put each arm first about half the time over many seeds")
	void shuffledPositionsBalanceOverSeeds() {
		int seeds = 4_000;
		int[] aAtPosition = new int[6];
		for (long seed = 0; seed < seeds; seed++) {
			List<Arm> schedule = Interleaving.shuffled(3, seed);
			for (int i = 0; i < 6; i++) {
				aAtPosition[i] += schedule.get(i) == Arm.A ? 1 : 0;
			}
		}

		assertThatEachIsNear(aAtPosition, seeds / 2, 160);
	}

	private static void assertThatEachIsNear(int[] counts, int expected, int slack) {
		assertThat(Arrays.stream(counts).boxed().toList())
				.allSatisfy(count -> assertThat(count).isBetween(expected - slack, expected + slack));
	}

	@Test
	@DisplayName("the same seed gives the same schedule; another seed another one")
	void deterministic() {
		assertThat(Interleaving.abba(64, 42)).isEqualTo(Interleaving.abba(64, 42));
		assertThat(Interleaving.shuffled(64, 42)).isEqualTo(Interleaving.shuffled(64, 42));
		assertThat(Interleaving.abba(64, 42)).isNotEqualTo(Interleaving.abba(64, 43));
		assertThat(Interleaving.shuffled(64, 42)).isNotEqualTo(Interleaving.shuffled(64, 43));
	}

	@Test
	@DisplayName("schedules are unmodifiable and a negative count is rejected")
	void guards() {
		List<Arm> schedule = Interleaving.abba(2, 1);

		assertThat(schedule).isUnmodifiable();
		assertThat(Interleaving.shuffled(2, 1)).isUnmodifiable();
		assertThatIllegalArgumentException().isThrownBy(() -> Interleaving.abba(-1, 1)).withMessageContaining("-1");
	}
}
