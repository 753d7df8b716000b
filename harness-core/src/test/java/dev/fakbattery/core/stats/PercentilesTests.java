package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Percentiles")
class PercentilesTests {

	/** Expected values are Python 3.11 {@code statistics.median} and NumPy 2.4 {@code np.percentile}. */
	static final double[] LOGNORMAL_37 = { 16.811, 23.094, 21.084, 9.303, 9.969, 13.819, 13.258, 22.413, 30.964,
		14.212, 8.22, 10.438, 24.285, 20.983, 12.482, 26.32, 13.672, 18.966, 46.473, 11.992, 23.881, 26.48,
		15.042, 11.199, 34.175, 32.115, 30.356, 22.783, 18.8, 29.547, 14.945, 9.386, 14.549, 13.163, 9.704,
		10.453, 28.895 };

	@Test
	@DisplayName("the median of 8 samples is the mean of the two middle ones, as statistics.median")
	void medianOfEvenCountIsPythonsMedian() {
		double[] eight = { 0.412, 0.397, 0.455, 0.401, 0.389, 0.430, 0.420, 0.405 };

		assertThat(Percentiles.median(eight)).isEqualTo(0.4085);
	}

	@Test
	@DisplayName("the median of an odd count is the middle sample")
	void medianOfOddCountIsTheMiddleSample() {
		assertThat(Percentiles.median(new double[]{ 3, 1, 2 })).isEqualTo(2);
		assertThat(Percentiles.median(LOGNORMAL_37)).isEqualTo(16.811);
	}

	@Test
	@DisplayName("percentiles equal np.percentile (linear) to the bit")
	void percentilesMatchNumpy() {
		double[] sorted = Percentiles.sortedCopy(LOGNORMAL_37);

		assertThat(Percentiles.percentile(sorted, 50)).isEqualTo(16.811);
		assertThat(Percentiles.percentile(sorted, 90)).isEqualTo(30.5992);
		assertThat(Percentiles.percentile(sorted, 95)).isEqualTo(32.526999999999994);
		assertThat(Percentiles.percentile(sorted, 99)).isEqualTo(42.04572);
		assertThat(Percentiles.percentile(sorted, 99.9)).isEqualTo(46.03027200000007);
		assertThat(Percentiles.percentile(sorted, 0)).isEqualTo(8.22);
		assertThat(Percentiles.percentile(sorted, 100)).isEqualTo(46.473);
	}

	@Test
	@DisplayName("no samples have no median and no percentile: NaN, not 0")
	void emptyIsNaN() {
		assertThat(Percentiles.median(new double[0])).isNaN();
		assertThat(Percentiles.percentile(new double[0], 99)).isNaN();
	}

	@Test
	@DisplayName("a NaN sample or an out-of-range percentile is rejected")
	void rejectsBadInput() {
		assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.median(new double[]{ 1, Double.NaN }))
				.withMessageContaining("sample 1 is not a finite number");
		assertThatIllegalArgumentException().isThrownBy(() -> Percentiles.percentile(new double[]{ 1 }, 100.5))
				.withMessageContaining("[0, 100]");
	}
}
