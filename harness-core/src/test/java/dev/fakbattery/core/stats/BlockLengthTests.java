package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("BlockLength: Politis-White automatic block length")
class BlockLengthTests {

	/** A stationary AR(1) series of unit variance. */
	static double[] ar1(long seed, int n, double phi) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] x = new double[n];
		double scale = Math.sqrt(1 - phi * phi);
		x[0] = random.nextGaussian();
		for (int i = 1; i < n; i++) {
			x[i] = phi * x[i - 1] + scale * random.nextGaussian();
		}
		return x;
	}

	/** The length the estimate tends to on AR(1): {@code (1.5 (2 phi / (1 - phi^2))^2)^(1/3) n^(1/3)}. */
	static double ar1Theory(double phi, int n) {
		double ratio = 2 * phi / (1 - phi * phi);
		return Math.cbrt(1.5 * ratio * ratio) * Math.cbrt(n);
	}

	@Test
	@DisplayName("on a long AR(1) series it lands near the length theory gives, for weak and strong correlation")
	void ar1NearTheory() {
		for (double phi : new double[]{ 0.5, 0.8 }) {
			double theory = ar1Theory(phi, 20_000);
			double estimate = BlockLength.politisWhite(ar1(11, 20_000, phi));

			assertThat(estimate).as("phi %s, theory %s", phi, theory).isCloseTo(theory, within(0.3 * theory));
		}
	}

	@Test
	@DisplayName("stronger correlation, longer blocks; independent values, blocks of about one")
	void orderedByCorrelation() {
		double none = BlockLength.politisWhite(ar1(12, 2_000, 0));
		double some = BlockLength.politisWhite(ar1(12, 2_000, 0.5));
		double strong = BlockLength.politisWhite(ar1(12, 2_000, 0.9));

		assertThat(none).isLessThan(3);
		assertThat(some).isGreaterThan(none);
		assertThat(strong).isGreaterThan(2 * some);
	}

	@Test
	@DisplayName("a drift that never decorrelates gives long blocks, held to min(3 sqrt(n), n / 3)")
	void trendIsBounded() {
		assertThat(BlockLength.politisWhite(trend(400))).isBetween(20.0, 60.0);
		assertThat(BlockLength.politisWhite(trend(30))).isBetween(5.0, 10.0);
		assertThat(BlockLength.politisWhite(ar1(13, 30, 0.999))).isBetween(1.0, 10.0);
	}

	private static double[] trend(int n) {
		double[] trend = new double[n];
		for (int i = 0; i < n; i++) {
			trend[i] = i;
		}
		return trend;
	}

	@Test
	@DisplayName("fewer than 4 values or a constant series: 1")
	void degenerateIsOne() {
		assertThat(BlockLength.politisWhite(new double[]{ 1, 5, 2 })).isEqualTo(1);
		assertThat(BlockLength.politisWhite(new double[]{ 3, 3, 3, 3, 3, 3 })).isEqualTo(1);
	}

	@Test
	@DisplayName("a value that is not finite is refused, naming it")
	void notFinite() {
		assertThatIllegalArgumentException().isThrownBy(() -> BlockLength.politisWhite(new double[]{ 1, 2, Double.NaN, 4, 5 }))
				.withMessageContaining("value 2");
	}
}
