package dev.fakbattery.core.load;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apiguardian.api.API;

/**
 * When each request of an open-loop run is meant to be sent, precomputed before the run as
 * offsets from its start, as {@code vllm bench serve} does: inter-arrival gaps are drawn from
 * {@code gamma(shape = burstiness, scale = 1 / (rate * burstiness))} (burstiness 1 is Poisson,
 * infinite is constant spacing), summed, then rescaled so the last arrival lands at
 * {@code count / rate}. The runner sleeps against these absolute offsets, so a late send never
 * delays the ones after it (vllm#21104).
 *
 * <pre>
 * ArrivalSchedule arrivals = ArrivalSchedule.poisson(5_000, 1_000.0, 42);   // ~5 s at 1,000 req/s
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ArrivalSchedule {

	private final long[] offsetsNanos;

	private final double rate;

	private final double burstiness;

	private final long seed;

	private ArrivalSchedule(long[] offsetsNanos, double rate, double burstiness, long seed) {
		this.offsetsNanos = offsetsNanos;
		this.rate = rate;
		this.burstiness = burstiness;
		this.seed = seed;
	}

	/** Poisson arrivals at {@code rate} requests per second: gamma with burstiness 1. */
	public static ArrivalSchedule poisson(int count, double rate, long seed) {
		return gamma(count, rate, 1.0, seed);
	}

	/** Evenly spaced arrivals, {@code 1 / rate} apart. */
	public static ArrivalSchedule constant(int count, double rate) {
		return gamma(count, rate, Double.POSITIVE_INFINITY, 0);
	}

	/** Every request at once (vLLM's default {@code --request-rate inf}). */
	public static ArrivalSchedule immediate(int count) {
		checkCount(count);
		return new ArrivalSchedule(new long[count], Double.POSITIVE_INFINITY, Double.NaN, 0);
	}

	/**
	 * Gamma-distributed gaps; burstiness below 1 is burstier than Poisson, above 1 smoother.
	 * @throws IllegalArgumentException for a count below 1, a rate or burstiness not positive
	 */
	public static ArrivalSchedule gamma(int count, double rate, double burstiness, long seed) {
		checkCount(count);
		if (!(rate > 0) || Double.isInfinite(rate)) {
			throw new IllegalArgumentException("rate must be a positive finite number of requests/s, got " + rate
					+ "; use immediate(count) for an infinite rate");
		}
		if (!(burstiness > 0)) {
			throw new IllegalArgumentException("burstiness must be > 0 (1 = Poisson, infinity = constant), got " + burstiness);
		}
		double[] cumulative = new double[count];
		SplittableRandom random = new SplittableRandom(seed);
		double sum = 0;
		for (int i = 0; i < count; i++) {
			sum += Double.isInfinite(burstiness) ? 1.0 / rate : Gamma.sample(random, burstiness, 1.0 / (rate * burstiness));
			cumulative[i] = sum;
		}
		double scale = sum > 0 ? (count / rate) / sum : 0;
		long[] offsets = new long[count];
		for (int i = 0; i < count; i++) {
			offsets[i] = Math.round(cumulative[i] * scale * 1e9);
		}
		return new ArrivalSchedule(offsets, rate, burstiness, seed);
	}

	private static void checkCount(int count) {
		if (count < 1) {
			throw new IllegalArgumentException("an arrival schedule needs at least 1 request, got " + count);
		}
	}

	/** Requests in the schedule. */
	public int size() {
		return offsetsNanos.length;
	}

	/** When request {@code i} is due, in nanoseconds after the run's start. */
	public long offsetNanos(int i) {
		return offsetsNanos[i];
	}

	/** A copy of every offset. */
	public long[] offsetsNanos() {
		return Arrays.copyOf(offsetsNanos, offsetsNanos.length);
	}

	/** The target rate in requests per second; infinite for {@link #immediate(int)}. */
	public double rate() {
		return rate;
	}

	/** The gamma shape; 1 Poisson, infinite constant, {@code NaN} for {@link #immediate(int)}. */
	public double burstiness() {
		return burstiness;
	}

	public long seed() {
		return seed;
	}

	/** For artifacts: {@code poisson 1000.0 req/s x 5000 (seed 42)}. */
	public String describe() {
		String kind = Double.isInfinite(rate)
				? "immediate"
				: Double.isInfinite(burstiness)
						? "constant"
						: burstiness == 1.0 ? "poisson" : String.format(Locale.ROOT, "gamma(burstiness %.3g)", burstiness);
		return String.format(Locale.ROOT, "%s %s req/s x %d (seed %d)", kind, rate, size(), seed);
	}

	/** Marsaglia-Tsang gamma sampling over a seeded generator. */
	static final class Gamma {

		private Gamma() {
		}

		static double sample(SplittableRandom random, double shape, double scale) {
			if (shape < 1) {
				double u = random.nextDouble();
				return sample(random, shape + 1, scale) * Math.pow(u == 0 ? Double.MIN_VALUE : u, 1.0 / shape);
			}
			double d = shape - 1.0 / 3.0;
			double c = 1.0 / Math.sqrt(9 * d);
			while (true) {
				double x = random.nextGaussian();
				double v = 1 + c * x;
				if (v <= 0) {
					continue;
				}
				v = v * v * v;
				double u = random.nextDouble();
				if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
					return d * v * scale;
				}
			}
		}
	}
}
