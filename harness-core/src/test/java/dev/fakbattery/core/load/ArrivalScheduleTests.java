package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ArrivalSchedule")
class ArrivalScheduleTests {

	@Test
	@DisplayName("is seeded, increasing, and its last arrival lands at count / rate")
	void poissonRescaled() {
		ArrivalSchedule a = ArrivalSchedule.poisson(2_000, 500.0, 7);
		ArrivalSchedule b = ArrivalSchedule.poisson(2_000, 500.0, 7);
		assertThat(a.offsetsNanos()).containsExactly(b.offsetsNanos());
		assertThat(ArrivalSchedule.poisson(2_000, 500.0, 8).offsetsNanos()).isNotEqualTo(a.offsetsNanos());
		assertThat(a.offsetNanos(a.size() - 1)).isCloseTo(4_000_000_000L, within(1L));
		for (int i = 1; i < a.size(); i++) {
			assertThat(a.offsetNanos(i)).isGreaterThanOrEqualTo(a.offsetNanos(i - 1));
		}
		assertThat(a.describe()).isEqualTo("poisson 500.0 req/s x 2000 (seed 7)");
	}

	@Test
	@DisplayName("Poisson gaps have a coefficient of variation near 1, burstiness 4 near 0.5, constant 0")
	void burstiness() {
		assertThat(cv(ArrivalSchedule.poisson(20_000, 100.0, 1))).isCloseTo(1.0, within(0.05));
		assertThat(cv(ArrivalSchedule.gamma(20_000, 100.0, 4.0, 1))).isCloseTo(0.5, within(0.03));
		assertThat(cv(ArrivalSchedule.gamma(20_000, 100.0, 0.25, 1))).isCloseTo(2.0, within(0.15));
		assertThat(cv(ArrivalSchedule.constant(100, 100.0))).isCloseTo(0.0, within(1e-6));
		assertThat(ArrivalSchedule.immediate(3).offsetsNanos()).containsExactly(0, 0, 0);
	}

	@Test
	@DisplayName("rejects a rate, burstiness or count that cannot be scheduled, naming it")
	void rejectsBadInput() {
		assertThatThrownBy(() -> ArrivalSchedule.poisson(10, 0, 1)).hasMessageContaining("rate must be");
		assertThatThrownBy(() -> ArrivalSchedule.gamma(10, 1, -1, 1)).hasMessageContaining("burstiness must be");
		assertThatThrownBy(() -> ArrivalSchedule.poisson(0, 1, 1)).hasMessageContaining("at least 1 request");
	}

	private static double cv(ArrivalSchedule schedule) {
		int n = schedule.size();
		double[] gaps = new double[n];
		long previous = 0;
		for (int i = 0; i < n; i++) {
			gaps[i] = schedule.offsetNanos(i) - previous;
			previous = schedule.offsetNanos(i);
		}
		double mean = 0;
		for (double g : gaps) {
			mean += g / n;
		}
		double variance = 0;
		for (double g : gaps) {
			variance += (g - mean) * (g - mean) / n;
		}
		return Math.sqrt(variance) / mean;
	}
}
