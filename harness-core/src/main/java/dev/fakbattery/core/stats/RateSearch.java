package dev.fakbattery.core.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apiguardian.api.API;

/**
 * The highest offered request rate that still meets the SLOs, and what a gateway costs of it: the rate sweep's search
 * and its interval. At each offered rate an arm sent {@code requests} requests of which {@code good} met every SLO
 * ({@link Goodput}); a rate is met when {@code good / requests >= attainment} (for example 0.9, DistServe's
 * "SLO attainment"). The arm's maximum is the highest rate met (not assuming the curve falls only once); it is
 * censored when the highest rate tested was met (the true maximum lies above it).
 *
 * <h2>The interval</h2>
 * Each resample draws every rate's attainment from its Jeffreys posterior, {@code Beta(good + 1/2, requests - good +
 * 1/2)}, both arms on their own, calls the rate met when the drawn attainment is at least {@code attainment}, and takes
 * the maxima and the cost ({@code raw max - gateway max}) again; the bounds are percentiles of those draws. A resample in
 * which an arm met no rate tested has the maximum 0 (it lies below the lowest rate tested), so a lower bound of 0 reads
 * "below the lowest rate tested" (and an arm that met no rate as measured has the estimate 0 with its interval; the cost
 * is then undefined). The maxima move on the rate grid only, so the other bounds are rates that were tested; a cost
 * drawn with a maximum of 0 errs wide.
 * Why not redraw each rate's good count from its plug-in attainment (the parametric bootstrap this class used before
 * 0.8): a rate with every request good never varies there, so 20 good of 20 (Wilson [0.84, 1] against a target of 0.9)
 * is met in every resample and the interval collapses to a point; over simulated ladders near the target that
 * interval covered the true maximum in about 90 % of runs, the posterior's in 98 % ({@code RateSearchTests}).
 *
 * <pre>
 * RateSearch.Result result = RateSearch.compare(raw, gateway, 0.9, BootstrapCi.seeded(7));
 * // "the gateway costs 4.0 [0.0, 8.0] req/s of goodput at these SLOs"
 * </pre>
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class RateSearch {

	/**
	 * What one arm measured at one offered rate.
	 *
	 * @param rate offered requests per second
	 * @param requests requests planned at that rate (failed and unsent ones count, as not good)
	 * @param good requests that completed and met every SLO
	 * @param designEffect how many times the attainment's variance exceeds that of independent requests (at least 1):
	 *        misses that come in runs (a slow stretch of the engine, a queue that builds) count for fewer independent
	 *        requests; {@link #ofSeries} estimates it, the intervals use {@code requests / designEffect}
	 * @since 0.3
	 */
	public record Point(double rate, int requests, int good, double designEffect) {

		public Point {
			if (!(rate > 0) || requests < 0 || good < 0 || good > requests) {
				throw new IllegalArgumentException("a rate point needs rate > 0 and 0 <= good <= requests, got " + rate + ", " + good
						+ "/" + requests);
			}
			if (!(designEffect >= 1) || !Double.isFinite(designEffect)) {
				throw new IllegalArgumentException("a design effect is at least 1, got " + designEffect);
			}
		}

		/** A point whose requests are taken as independent (design effect 1). */
		public Point(double rate, int requests, int good) {
			this(rate, requests, good, 1);
		}

		/**
		 * The point of requests judged in time order ({@code true}: good), its design effect estimated from that series
		 * ({@link BlockLength#designEffect}): 1 when fewer than {@value #MIN_SERIES_FOR_DESIGN_EFFECT} requests give no
		 * estimate worth making.
		 *
		 * @since 0.9
		 */
		public static Point ofSeries(double rate, boolean[] goodInOrder) {
			int good = 0;
			double[] series = new double[goodInOrder.length];
			for (int i = 0; i < goodInOrder.length; i++) {
				series[i] = goodInOrder[i] ? 1 : 0;
				good += goodInOrder[i] ? 1 : 0;
			}
			double effect = goodInOrder.length >= MIN_SERIES_FOR_DESIGN_EFFECT ? BlockLength.designEffect(series) : 1;
			return new Point(rate, goodInOrder.length, good, effect);
		}

		/** {@code requests / designEffect}: as many independent requests would say as much. */
		public double effectiveRequests() {
			return requests / designEffect;
		}

		/** {@code good / requests}; {@code NaN} without requests. */
		public double attainment() {
			return requests == 0 ? Double.NaN : good / (double) requests;
		}

		/**
		 * The attainment's 95 % Wilson score interval over the {@linkplain #effectiveRequests() effective requests}:
		 * unlike the plug-in estimate it is not a point at 0 or 1 of {@code requests} (36 good of 36 reads [0.904, 1]),
		 * so a level's met or missed is only as sure as its requests make it. Undefined without requests.
		 *
		 * @since 0.8
		 */
		public ConfidenceInterval attainmentInterval() {
			return attainmentInterval(WILSON_LEVEL);
		}

		/**
		 * The attainment's Wilson score interval at {@code level} (a sequential look's, e.g. 0.975 with two looks).
		 *
		 * @since 0.8
		 */
		public ConfidenceInterval attainmentInterval(double level) {
			String statistic = "attainment (Wilson score)";
			if (requests == 0) {
				return new ConfidenceInterval(statistic, Double.NaN, Double.NaN, Double.NaN, level, 0, 0,
						Optional.of("no requests at " + rate + " req/s"), WILSON);
			}
			double n = effectiveRequests();
			double p = attainment();
			double z = normalQuantile(1 - (1 - level) / 2);
			double z2 = z * z;
			double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
			double half = z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
			return ConfidenceInterval.ofBounds(statistic, p, Math.max(0, centre - half), Math.min(1, centre + half), level, WILSON);
		}

		/**
		 * {@code met} when the whole {@linkplain #attainmentInterval() interval} is at or above {@code target},
		 * {@code missed} when it is below, else {@code undecided}: the plug-in met flag is a coin flip there.
		 *
		 * @since 0.8
		 */
		public String decision(double target) {
			return decision(target, WILSON_LEVEL);
		}

		/**
		 * {@link #decision(double)} on the interval at {@code level}.
		 *
		 * @since 0.8
		 */
		public String decision(double target, double level) {
			return RateSearch.decision(attainmentInterval(level), target);
		}
	}

	/** What {@link Point#decision(double)} says when the interval holds the target. */
	public static final String UNDECIDED = "undecided";

	/**
	 * {@code met} when {@code interval} lies wholly at or above {@code target}, {@code missed} when wholly below, else
	 * (or undefined) {@value #UNDECIDED}.
	 *
	 * @since 0.8
	 */
	public static String decision(ConfidenceInterval interval, double target) {
		if (!interval.isDefined()) {
			return UNDECIDED;
		}
		return interval.lo() >= target ? "met" : interval.hi() < target ? "missed" : UNDECIDED;
	}

	/**
	 * The standard normal quantile (Commons Statistics).
	 *
	 * @throws IllegalArgumentException outside (0, 1)
	 */
	static double normalQuantile(double p) {
		if (!(p > 0 && p < 1)) {
			throw new IllegalArgumentException("a quantile needs 0 < p < 1, got " + p);
		}
		return NormalDistribution.of(0, 1).inverseCumulativeProbability(p);
	}

	/** The method of {@link #compare}'s intervals, for artifacts. */
	public static final String METHOD = "Jeffreys posterior draws: each resample draws every rate's attainment from "
			+ "Beta(good + 1/2, requests - good + 1/2) (the counts divided by the rate's design effect when over 1), calls it met at or above the attainment target and takes the maxima and "
			+ "the cost again (a maximum of 0: no rate tested was met); percentile interval of the draws";

	/** The method of {@link Point#attainmentInterval()}. */
	public static final String WILSON = "Wilson score over the effective requests (requests / design effect: the flat-top "
			+ "lag-window long-run variance of the good/missed series in time order over its variance, at least 1)";

	/** The fewest requests from which {@link Point#ofSeries} estimates a design effect. */
	public static final int MIN_SERIES_FOR_DESIGN_EFFECT = 32;

	/** The level of {@link Point#attainmentInterval()}: 0.95. */
	static final double WILSON_LEVEL = 0.95;

	/**
	 * The search's answer for two arms.
	 *
	 * @param rawMax the raw engine's highest rate met; empty when none was
	 * @param gatewayMax the gateway's highest rate met; empty when none was
	 * @param rawCensored whether the raw engine met even the highest rate tested
	 * @param gatewayCensored whether the gateway met even the highest rate tested
	 * @param cost {@code rawMax - gatewayMax} in requests per second, with its interval
	 * @param rawInterval the raw maximum's interval
	 * @param gatewayInterval the gateway maximum's interval
	 * @since 0.3
	 */
	public record Result(OptionalDouble rawMax, OptionalDouble gatewayMax, boolean rawCensored, boolean gatewayCensored,
			ConfidenceInterval cost, ConfidenceInterval rawInterval, ConfidenceInterval gatewayInterval) {
	}

	private RateSearch() {
	}

	/** The highest rate whose attainment is at least {@code attainment}; empty when none is. */
	public static OptionalDouble maxRateMet(List<Point> points, double attainment) {
		return points.stream().filter(p -> p.requests() > 0 && p.attainment() >= attainment).mapToDouble(Point::rate).max();
	}

	/** Whether the highest rate tested was met: the maximum lies at or above it. */
	public static boolean censored(List<Point> points, double attainment) {
		return points.stream()
				.max(Comparator.comparingDouble(Point::rate))
				.map(p -> p.requests() > 0 && p.attainment() >= attainment)
				.orElse(false);
	}

	/**
	 * The next rate to test: the midpoint of the widest gap (relative to its upper end, at least {@code minGap})
	 * between an arm's highest rate met and the lowest rate above it that was missed; empty when no arm has such a gap.
	 */
	public static OptionalDouble nextRate(List<Point> a, List<Point> b, double attainment, double minGap) {
		double best = Double.NaN;
		double widest = minGap;
		for (List<Point> arm : List.of(a, b)) {
			OptionalDouble met = maxRateMet(arm, attainment);
			if (met.isEmpty()) {
				continue;
			}
			OptionalDouble missed = arm.stream().filter(p -> p.rate() > met.getAsDouble()).mapToDouble(Point::rate).min();
			if (missed.isPresent() && (missed.getAsDouble() - met.getAsDouble()) / missed.getAsDouble() >= widest) {
				widest = (missed.getAsDouble() - met.getAsDouble()) / missed.getAsDouble();
				best = (met.getAsDouble() + missed.getAsDouble()) / 2;
			}
		}
		return Double.isNaN(best) ? OptionalDouble.empty() : OptionalDouble.of(best);
	}

	/** The maxima of both arms, the cost and their intervals ({@code bootstrap}'s seed, resamples and level). */
	public static Result compare(List<Point> raw, List<Point> gateway, double attainment, BootstrapCi bootstrap) {
		OptionalDouble rawMax = maxRateMet(raw, attainment);
		OptionalDouble gatewayMax = maxRateMet(gateway, attainment);
		SplittableRandom random = new SplittableRandom(bootstrap.seed());
		int resamples = bootstrap.resamples();
		double[] rawDraws = new double[resamples];
		double[] gatewayDraws = new double[resamples];
		for (int b = 0; b < resamples; b++) {
			rawDraws[b] = drawMax(raw, attainment, random);
			gatewayDraws[b] = drawMax(gateway, attainment, random);
		}
		double[] costDraws = new double[resamples];
		for (int b = 0; b < resamples; b++) {
			costDraws[b] = rawDraws[b] - gatewayDraws[b];
		}
		double cost = rawMax.isPresent() && gatewayMax.isPresent() ? rawMax.getAsDouble() - gatewayMax.getAsDouble() : Double.NaN;
		return new Result(rawMax, gatewayMax, censored(raw, attainment), censored(gateway, attainment),
				interval("raw max - gateway max (req/s)", cost, costDraws, bootstrap),
				interval("raw max rate met (req/s; 0: no rate tested met)", rawMax.orElse(0), rawDraws, bootstrap),
				interval("gateway max rate met (req/s; 0: no rate tested met)", gatewayMax.orElse(0), gatewayDraws, bootstrap));
	}

	/** One resample's highest rate met, each rate's attainment drawn from its Jeffreys posterior; 0 when none is met. */
	private static double drawMax(List<Point> points, double attainment, SplittableRandom random) {
		double max = 0;
		for (Point p : points) {
			if (p.rate() > max && p.requests() > 0 && draw(random, p) >= attainment) {
				max = p.rate();
			}
		}
		return max;
	}

	/**
	 * A draw of the point's attainment from its Jeffreys posterior; with a design effect over 1 the counts are the
	 * effective ones, {@code Beta(good / d + 1/2, bad / d + 1/2)}, drawn by inversion (Commons Statistics).
	 */
	private static double draw(SplittableRandom random, Point p) {
		if (p.designEffect() == 1) {
			return jeffreys(random, p.good(), p.requests() - p.good());
		}
		double d = p.designEffect();
		return BetaDistribution.of(p.good() / d + 0.5, (p.requests() - p.good()) / d + 0.5)
				.inverseCumulativeProbability(random.nextDouble());
	}

	/** A draw of {@code Beta(good + 1/2, bad + 1/2)} as {@code X / (X + Y)} of two gamma draws. */
	static double jeffreys(SplittableRandom random, int good, int bad) {
		double x = gammaHalf(random, good);
		double y = gammaHalf(random, bad);
		return x / (x + y);
	}

	/**
	 * A draw of {@code Gamma(k + 1/2, 1)}: the sum of {@code k} standard exponentials ({@code Gamma(k, 1)}) and half a
	 * squared standard normal ({@code Gamma(1/2, 1)}).
	 */
	private static double gammaHalf(SplittableRandom random, int k) {
		double sum = 0;
		for (int i = 0; i < k; i++) {
			sum -= Math.log(1 - random.nextDouble());
		}
		double z = random.nextGaussian();
		return sum + z * z / 2;
	}

	private static ConfidenceInterval interval(String statistic, double estimate, double[] draws, BootstrapCi bootstrap) {
		if (Double.isNaN(estimate)) {
			return new ConfidenceInterval(statistic, Double.NaN, Double.NaN, Double.NaN, bootstrap.level(), 0, bootstrap.seed(),
					Optional.of("no rate met the SLOs on an arm"), METHOD);
		}
		double[] sorted = draws.clone();
		Arrays.sort(sorted);
		double tail = (1 - bootstrap.level()) / 2 * 100;
		return new ConfidenceInterval(statistic, estimate, Percentiles.percentile(sorted, tail), Percentiles.percentile(sorted, 100 - tail),
				bootstrap.level(), draws.length, bootstrap.seed(), Optional.empty(), METHOD);
	}
}
