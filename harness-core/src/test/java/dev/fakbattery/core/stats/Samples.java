package dev.fakbattery.core.stats;

import java.util.SplittableRandom;

/** Seeded draws from known distributions for the statistics tests. */
final class Samples {

	private Samples() {
	}

	static double[] normal(long seed, int n, double mean, double sd) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] out = new double[n];
		for (int i = 0; i < n; i++) {
			out[i] = mean + sd * random.nextGaussian();
		}
		return out;
	}

	/** Log-normal with the given median: latency-shaped, right-skewed. */
	static double[] lognormal(long seed, int n, double median, double sigma) {
		SplittableRandom random = new SplittableRandom(seed);
		double[] out = new double[n];
		for (int i = 0; i < n; i++) {
			out[i] = median * Math.exp(sigma * random.nextGaussian());
		}
		return out;
	}

	static double[] times(double[] values, double factor) {
		double[] out = values.clone();
		for (int i = 0; i < out.length; i++) {
			out[i] *= factor;
		}
		return out;
	}

	static double[] multiply(double[] a, double[] b) {
		double[] out = new double[a.length];
		for (int i = 0; i < out.length; i++) {
			out[i] = a[i] * b[i];
		}
		return out;
	}
}
