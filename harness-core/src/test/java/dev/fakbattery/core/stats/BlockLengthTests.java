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

	/**
	 * Values computed by an independent NumPy transcription of the paper (vectorised, written apart from this class;
	 * experiments/statistics/politis_white.py) on series both can generate bit for bit: an AR(1) over MINSTD's
	 * uniforms, and a golden-ratio sequence over a slow sine (whose autocorrelations never fall quiet).
	 */
	@Test
	@DisplayName("matches an independent NumPy transcription of the paper, whichever lag window the series leads to")
	void matchesReference() {
		assertThat(BlockLength.politisWhite(minstdAr1(300, 0.6))).isCloseTo(9.60713085082012, within(1e-9));
		assertThat(BlockLength.politisWhite(minstdAr1(200, 0.0))).isCloseTo(1.1703199545736476, within(1e-9));
		assertThat(BlockLength.politisWhite(minstdAr1(1000, 0.9))).isCloseTo(33.146676709647274, within(1e-9));
		double[] golden = new double[400];
		for (int i = 0; i < golden.length; i++) {
			golden[i] = (i * 0.6180339887498949) % 1.0 + Math.sin(0.05 * i);
		}
		assertThat(BlockLength.politisWhite(golden)).isCloseTo(35.45880507374025, within(1e-9));
	}

	/** {@code x[i] = phi x[i-1] + u[i]}, {@code u} MINSTD's uniforms from seed 42 minus 1/2. */
	static double[] minstdAr1(int n, double phi) {
		long state = 42;
		double[] x = new double[n];
		double previous = 0;
		for (int i = 0; i < n; i++) {
			state = (48271 * state) % 2147483647;
			previous = phi * previous + ((double) state / 2147483647 - 0.5);
			x[i] = previous;
		}
		return x;
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

	@Test
	@DisplayName("the design effect is near 1 on independent values, near (1 + phi) / (1 - phi) on AR(1), never under 1")
	void designEffect() {
		assertThat(BlockLength.designEffect(ar1(21, 20_000, 0))).isBetween(1.0, 1.1);
		assertThat(BlockLength.designEffect(ar1(22, 20_000, 0.5))).isCloseTo(3.0, org.assertj.core.data.Percentage.withPercentage(15));
		assertThat(BlockLength.designEffect(ar1(23, 20_000, 0.8))).isCloseTo(9.0, org.assertj.core.data.Percentage.withPercentage(20));
		assertThat(BlockLength.designEffect(ar1(24, 20_000, -0.5))).as("negative correlation: floored, never narrower").isEqualTo(1);
		assertThat(BlockLength.designEffect(new double[]{ 1, 0, 1 })).isEqualTo(1);
		assertThat(BlockLength.designEffect(new double[]{ 1, 1, 1, 1, 1, 1 })).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> BlockLength.designEffect(new double[]{ 1, 2, 3, Double.NaN }))
				.withMessageContaining("value 3");
	}
}
