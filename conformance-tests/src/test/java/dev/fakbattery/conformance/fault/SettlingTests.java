package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("F05's settling: bytes that stopped growing for 3 s the kit itself ran")
class SettlingTests {

	private static final long S = 1_000_000_000L;

	@Test
	@DisplayName("unchanged bytes settle after the stable period")
	void settlesWhenStable() {
		Settling settling = new Settling(3 * S);
		assertThat(settling.observe(0, 100, 0)).isFalse();
		assertThat(settling.observe(2 * S, 100, 0)).isFalse();
		assertThat(settling.observe(3 * S, 100, 0)).isTrue();
	}

	@Test
	@DisplayName("growth starts the stable period again")
	void growthRestarts() {
		Settling settling = new Settling(3 * S);
		settling.observe(0, 100, 0);
		assertThat(settling.observe(2 * S, 200, 0)).isFalse();
		assertThat(settling.observe(4 * S, 200, 0)).isFalse();
		assertThat(settling.observe(5 * S, 200, 0)).isTrue();
	}

	@Test
	@DisplayName("time the kit was held (a collector's pause, a late reading) is no evidence of a bound")
	void heldTimeDoesNotCount() {
		Settling settling = new Settling(3 * S);
		settling.observe(0, 100, 0);
		assertThat(settling.observe(3 * S, 100, 2 * S)).as("2 s of the 3 held").isFalse();
		assertThat(settling.observe(4 * S, 100, 0)).isFalse();
		assertThat(settling.observe(5 * S, 100, 0)).isTrue();
	}

	@Test
	@DisplayName("held time before the bytes last grew is forgotten")
	void heldTimeResetsWithGrowth() {
		Settling settling = new Settling(3 * S);
		settling.observe(0, 100, 0);
		settling.observe(1 * S, 100, S);
		settling.observe(2 * S, 150, 0);
		assertThat(settling.observe(5 * S, 150, 0)).isTrue();
	}
}
