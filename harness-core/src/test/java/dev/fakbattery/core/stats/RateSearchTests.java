package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("rate search: the highest rate meeting the SLOs, the next rate to test, and the cost's interval")
class RateSearchTests {

	private static final List<RateSearch.Point> RAW = List.of(new RateSearch.Point(4, 100, 100), new RateSearch.Point(8, 100, 95),
			new RateSearch.Point(16, 100, 40));

	private static final List<RateSearch.Point> GATEWAY = List.of(new RateSearch.Point(4, 100, 99), new RateSearch.Point(8, 100, 70),
			new RateSearch.Point(16, 100, 30));

	@Test
	@DisplayName("the maximum is the highest rate met (>= attainment), not the last before the first miss; censored at the top")
	void maximum() {
		assertThat(RateSearch.maxRateMet(RAW, 0.9)).isEqualTo(OptionalDouble.of(8));
		assertThat(RateSearch.maxRateMet(RAW, 0.95)).as("95/100 meets 0.95 exactly").isEqualTo(OptionalDouble.of(8));
		assertThat(RateSearch.maxRateMet(RAW, 0.96)).isEqualTo(OptionalDouble.of(4));
		assertThat(RateSearch.maxRateMet(List.of(new RateSearch.Point(2, 10, 5), new RateSearch.Point(4, 10, 10)), 0.9))
				.isEqualTo(OptionalDouble.of(4));
		assertThat(RateSearch.maxRateMet(List.of(new RateSearch.Point(2, 0, 0)), 0.9)).isEmpty();
		assertThat(RateSearch.censored(RAW, 0.9)).isFalse();
		assertThat(RateSearch.censored(RAW, 0.3)).isTrue();
		assertThat(RateSearch.censored(List.of(), 0.9)).isFalse();
	}

	@Test
	@DisplayName("the next rate bisects the widest gap between a rate met and the next missed, above the smallest gap")
	void nextRate() {
		assertThat(RateSearch.nextRate(RAW, GATEWAY, 0.9, 0.1)).isEqualTo(OptionalDouble.of(6));
		assertThat(RateSearch.nextRate(RAW, RAW, 0.9, 0.1)).isEqualTo(OptionalDouble.of(12));
		assertThat(RateSearch.nextRate(RAW, RAW, 0.9, 0.6)).as("gap 0.5 below the smallest").isEmpty();
		assertThat(RateSearch.nextRate(List.of(new RateSearch.Point(4, 10, 1)), List.of(), 0.9, 0.1)).isEmpty();
	}

	@Test
	@DisplayName("the cost is raw max - gateway max with a bootstrap interval on the rate grid")
	void compare() {
		RateSearch.Result result = RateSearch.compare(RAW, GATEWAY, 0.9, BootstrapCi.seeded(1).withResamples(2000));
		assertThat(result.rawMax()).isEqualTo(OptionalDouble.of(8));
		assertThat(result.gatewayMax()).isEqualTo(OptionalDouble.of(4));
		assertThat(result.cost().estimate()).isEqualTo(4);
		assertThat(result.cost().lo()).isIn(0.0, 4.0);
		assertThat(result.cost().hi()).isEqualTo(4);
		assertThat(result.rawInterval().lo()).isIn(4.0, 8.0);
		assertThat(result.rawCensored()).isFalse();
		RateSearch.Result none = RateSearch.compare(List.of(new RateSearch.Point(4, 10, 0)), GATEWAY, 0.9, BootstrapCi.seeded(1));
		assertThat(none.cost().isDefined()).isFalse();
		assertThat(none.cost().reason()).hasValue("no rate met the SLOs on an arm");
		RateSearch.Result shaky = RateSearch.compare(List.of(new RateSearch.Point(4, 10, 9)), List.of(new RateSearch.Point(4, 10, 9)), 0.9,
				BootstrapCi.seeded(1).withResamples(1000));
		assertThat(shaky.rawInterval().lo()).as("most posterior draws of 9/10 fall under 0.9: below the lowest rate").isZero();
		assertThat(shaky.rawInterval().hi()).isEqualTo(4);
		assertThat(shaky.cost().lo()).isEqualTo(-4);
		assertThat(shaky.cost().hi()).isEqualTo(4);
		assertThat(shaky.cost().method()).isEqualTo(RateSearch.METHOD);
		RateSearch.Result unmet = RateSearch.compare(List.of(new RateSearch.Point(4, 16, 14)), GATEWAY, 0.9,
				BootstrapCi.seeded(1).withResamples(1000));
		assertThat(unmet.rawMax()).isEmpty();
		assertThat(unmet.rawInterval().estimate()).as("no rate met as measured: 0").isZero();
		assertThat(unmet.rawInterval().hi()).as("14 of 16 may still be met").isEqualTo(4);
	}

	@Test
	@DisplayName("a rate with every request good still varies: 20 of 20 (Wilson [0.84, 1]) may miss 0.9, 36 of 36 ([0.90, 1]) hardly")
	void allGoodDoesNotCollapse() {
		List<RateSearch.Point> twenty = List.of(new RateSearch.Point(4, 20, 20), new RateSearch.Point(8, 20, 8));
		List<RateSearch.Point> many = List.of(new RateSearch.Point(4, 36, 36), new RateSearch.Point(8, 36, 14));
		RateSearch.Result result = RateSearch.compare(twenty, many, 0.9, BootstrapCi.seeded(5).withResamples(4000));
		assertThat(result.rawMax()).isEqualTo(OptionalDouble.of(4));
		assertThat(result.rawInterval().lo()).as("about 4 % of Beta(20.5, 0.5) lies under 0.9").isZero();
		assertThat(result.rawInterval().hi()).isEqualTo(4);
		assertThat(result.gatewayInterval().lo()).as("under 1 % of Beta(36.5, 0.5) lies under 0.9").isEqualTo(4);
		assertThat(result.cost().estimate()).isZero();
		assertThat(result.cost().lo()).as("a cost that is a point only where both arms are sure").isEqualTo(-4);
		assertThat(result.cost().hi()).isZero();
	}

	/**
	 * A ladder near the target (true attainments 0.95, 0.88, 0.5, 0.1 at 4, 8, 16, 32 req/s against 0.9, so the true
	 * maximum is 4) with 16 to 128 requests per rate: how often the interval of the raw maximum holds the true maximum.
	 * The wrong interval redraws each rate's good count from its plug-in attainment, as this class did before 0.8.
	 */
	@Test
	@DisplayName("the maximum's interval covers the true maximum at least 95 % of the time near the target; the plug-in redraw, the wrong one, about 90 %")
	void maximumCoverage() {
		double[] rates = { 4, 8, 16, 32 };
		int[] requests = { 16, 32, 64, 128 };
		double[] truth = { 0.95, 0.88, 0.5, 0.1 };
		java.util.SplittableRandom random = new java.util.SplittableRandom(11);
		int runs = 500;
		int posterior = 0;
		int plugIn = 0;
		for (int run = 0; run < runs; run++) {
			List<RateSearch.Point> observed = new java.util.ArrayList<>();
			for (int i = 0; i < rates.length; i++) {
				observed.add(new RateSearch.Point(rates[i], requests[i], binomial(random, requests[i], truth[i])));
			}
			ConfidenceInterval interval = RateSearch.compare(observed, List.of(new RateSearch.Point(4, 1, 1)), 0.9,
					BootstrapCi.seeded(run).withResamples(300)).rawInterval();
			posterior += interval.contains(4) ? 1 : 0;
			plugIn += plugInInterval(observed, random).contains(4) ? 1 : 0;
		}
		assertThat(posterior / (double) runs).as("posterior draws' coverage").isGreaterThanOrEqualTo(0.95);
		assertThat(plugIn / (double) runs).as("plug-in redraw's coverage").isLessThan(0.935);
	}

	/**
	 * A rate level stopped at the first look where its attainment is decided, in the hardest case: the true attainment
	 * is the target, so every decision is wrong and only the intervals that still hold the target cover. Eight looks of
	 * 16 requests each.
	 */
	@Test
	@DisplayName("a level stopped once its attainment is decided keeps 95 % coverage at the looks' Bonferroni level; 95 % at every look, the wrong plan, does not")
	void sequentialDecisionCoverage() {
		SequentialPlan plan = new SequentialPlan(List.of(1, 2, 3, 4, 5, 6, 7, 8), 0, 0.95);
		assertThat(decidedCoverage(plan, plan.lookLevel(), 0.9)).as("Bonferroni looks").isGreaterThanOrEqualTo(0.95);
		assertThat(decidedCoverage(plan, 0.95, 0.9)).as("95 % at every look").isLessThan(0.9);
		assertThat(decidedCoverage(plan, plan.lookLevel(), 0.97)).as("a level truly met").isGreaterThanOrEqualTo(0.95);
	}

	private static double decidedCoverage(SequentialPlan plan, double lookLevel, double truth) {
		java.util.SplittableRandom random = new java.util.SplittableRandom(17);
		int runs = 4000;
		int covered = 0;
		for (int run = 0; run < runs; run++) {
			int[] good = new int[1];
			int[] batches = new int[1];
			SequentialPlan.Stop stop = plan.run(n -> {
				while (batches[0] < n) {
					good[0] += binomial(random, 16, truth);
					batches[0]++;
				}
				return List.of(new RateSearch.Point(4, 16 * n, good[0]).attainmentInterval(lookLevel));
			}, intervals -> intervals.stream().noneMatch(ci -> RateSearch.decision(ci, 0.9).equals(RateSearch.UNDECIDED)));
			covered += stop.intervals().get(0).contains(truth) ? 1 : 0;
		}
		return covered / (double) runs;
	}

	@Test
	@DisplayName("the Wilson interval at another level: the normal quantile it takes matches known values")
	void normalQuantile() {
		assertThat(RateSearch.normalQuantile(0.975)).isCloseTo(1.959964, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(RateSearch.normalQuantile(0.5)).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(RateSearch.normalQuantile(0.995)).isCloseTo(2.575829, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(RateSearch.normalQuantile(0.001)).isCloseTo(-3.090232, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(new RateSearch.Point(18, 36, 36).attainmentInterval(0.95))
				.isEqualTo(new RateSearch.Point(18, 36, 36).attainmentInterval());
		assertThat(new RateSearch.Point(18, 36, 36).attainmentInterval(0.975).lo()).as("wider at 97.5 %").isLessThan(0.9036);
		assertThat(new RateSearch.Point(18, 36, 36).decision(0.9, 0.975)).isEqualTo(RateSearch.UNDECIDED);
		assertThatThrownBy(() -> RateSearch.normalQuantile(1)).isInstanceOf(IllegalArgumentException.class);
	}

	private static ConfidenceInterval plugInInterval(List<RateSearch.Point> observed, java.util.SplittableRandom random) {
		double[] draws = new double[300];
		for (int b = 0; b < draws.length; b++) {
			List<RateSearch.Point> redrawn = observed.stream()
					.map(p -> new RateSearch.Point(p.rate(), p.requests(), binomial(random, p.requests(), p.attainment())))
					.toList();
			draws[b] = RateSearch.maxRateMet(redrawn, 0.9).orElse(0);
		}
		java.util.Arrays.sort(draws);
		return ConfidenceInterval.ofBounds("plug-in redraw", Double.NaN, Percentiles.percentile(draws, 2.5),
				Percentiles.percentile(draws, 97.5), 0.95, "parametric bootstrap from the plug-in attainment");
	}

	private static int binomial(java.util.SplittableRandom random, int n, double p) {
		int good = 0;
		for (int i = 0; i < n; i++) {
			good += random.nextDouble() < p ? 1 : 0;
		}
		return good;
	}

	@Test
	@DisplayName("a point must have a positive rate and 0 <= good <= requests")
	void badPoint() {
		assertThatThrownBy(() -> new RateSearch.Point(0, 1, 1))
				.hasMessage("a rate point needs rate > 0 and 0 <= good <= requests, got 0.0, 1/1");
		assertThatThrownBy(() -> new RateSearch.Point(1, 1, 2)).isInstanceOf(IllegalArgumentException.class);
		assertThat(new RateSearch.Point(1, 0, 0).attainment()).isNaN();
	}

	@Test
	@DisplayName("the interval takes the 2.5th and 97.5th percentiles of the resampled maxima, both arms drawn on their own")
	void intervalBounds() {
		// posterior chance of meeting 0.9: 40 of 40 > 99 %, 36 of 40 about 45 %, 34 of 40 about 15 %, 28 and 20 of 40 under 1 %
		List<RateSearch.Point> raw = List.of(new RateSearch.Point(2, 40, 40), new RateSearch.Point(4, 40, 36),
				new RateSearch.Point(6, 40, 28));
		List<RateSearch.Point> gateway = List.of(new RateSearch.Point(2, 40, 40), new RateSearch.Point(4, 40, 34),
				new RateSearch.Point(6, 40, 20));
		RateSearch.Result result = RateSearch.compare(raw, gateway, 0.9, BootstrapCi.seeded(3).withResamples(4000));
		assertThat(result.rawMax()).isEqualTo(OptionalDouble.of(4));
		assertThat(result.gatewayMax()).isEqualTo(OptionalDouble.of(2));
		assertThat(result.cost().estimate()).isEqualTo(2);
		assertThat(result.rawInterval().lo()).isEqualTo(2);
		assertThat(result.rawInterval().hi()).isEqualTo(4);
		assertThat(result.gatewayInterval().lo()).isEqualTo(2);
		assertThat(result.gatewayInterval().hi()).as("4 met in about 15 % of the draws").isEqualTo(4);
		assertThat(result.cost().lo()).as("raw 2 and gateway 4 in about 8 %").isEqualTo(-2);
		assertThat(result.cost().hi()).isEqualTo(2);
		assertThat(result.cost().resamples()).isEqualTo(4000);
		assertThat(result.cost().level()).isEqualTo(0.95);
	}

	@Test
	@DisplayName("a level's attainment has a Wilson interval: 36 of 36 is [0.904, 1], not the point 1; met, missed or undecided against the target")
	void attainmentInterval() {
		ConfidenceInterval all = new RateSearch.Point(18, 36, 36).attainmentInterval();
		assertThat(all.estimate()).isEqualTo(1.0);
		assertThat(all.lo()).isCloseTo(0.9036, org.assertj.core.data.Offset.offset(1e-4));
		assertThat(all.hi()).isEqualTo(1.0);
		assertThat(all.level()).isEqualTo(0.95);
		ConfidenceInterval some = new RateSearch.Point(20, 40, 23).attainmentInterval();
		assertThat(some.lo()).isCloseTo(0.4220, org.assertj.core.data.Offset.offset(1e-4));
		assertThat(some.hi()).isCloseTo(0.7149, org.assertj.core.data.Offset.offset(1e-4));
		assertThat(new RateSearch.Point(18, 36, 36).decision(0.9)).isEqualTo("met");
		assertThat(new RateSearch.Point(18, 36, 30).decision(0.9)).as("30 of 36: [0.68, 0.92]").isEqualTo("undecided");
		assertThat(new RateSearch.Point(18, 20, 20).decision(0.9)).as("20 of 20: [0.84, 1]").isEqualTo("undecided");
		assertThat(new RateSearch.Point(24, 40, 10).decision(0.9)).isEqualTo("missed");
		ConfidenceInterval none = new RateSearch.Point(24, 0, 0).attainmentInterval();
		assertThat(none.isDefined()).isFalse();
		assertThat(none.reason()).hasValue("no requests at 24.0 req/s");
		assertThat(new RateSearch.Point(24, 0, 0).decision(0.9)).isEqualTo("undecided");
	}

	@Test
	@DisplayName("the Wilson interval covers the true attainment about 95 % of the time (exact binomial sums); a plug-in Wald interval, the wrong one, does not")
	void attainmentIntervalCoverage() {
		java.util.function.BiFunction<Integer, Integer, double[]> wilson = (good, n) -> {
			ConfidenceInterval ci = new RateSearch.Point(1, n, good).attainmentInterval();
			return new double[]{ ci.lo(), ci.hi() };
		};
		java.util.function.BiFunction<Integer, Integer, double[]> wald = (good, n) -> {
			double p = good / (double) n;
			double half = 1.959963984540054 * Math.sqrt(p * (1 - p) / n);
			return new double[]{ p - half, p + half };
		};
		assertThat(coverage(wilson)).as("Wilson: lowest and mean coverage over n 20..100, attainment 0.5..0.97")
				.satisfies(c -> assertThat(c[0]).isGreaterThan(0.92), c -> assertThat(c[1]).isGreaterThan(0.94));
		assertThat(coverage(wald)).as("Wald (the self-test's wrong interval): lowest coverage")
				.satisfies(c -> assertThat(c[0]).isLessThan(0.5));
	}

	@Test
	@DisplayName("misses that come in runs: the interval over the effective requests covers the true attainment; the one taking requests as independent, the wrong one, does not")
	void clusteredMissesCoverage() {
		// a two-state chain: attainment 0.9 in the long run, a miss followed by a miss with probability 0.8 (a slow
		// stretch of the engine); 144 requests, as 4 batches of 36 of a rate level
		double target = 0.9;
		double stayBad = 0.8;
		double goBad = (1 - target) * (1 - stayBad) / target;
		java.util.SplittableRandom random = new java.util.SplittableRandom(20261203);
		int runs = 2000;
		int independent = 0;
		int effective = 0;
		for (int run = 0; run < runs; run++) {
			boolean[] good = new boolean[144];
			boolean bad = random.nextDouble() < 1 - target;
			for (int i = 0; i < good.length; i++) {
				good[i] = !bad;
				bad = random.nextDouble() < (bad ? stayBad : goBad);
			}
			RateSearch.Point point = RateSearch.Point.ofSeries(1, good);
			ConfidenceInterval corrected = point.attainmentInterval();
			ConfidenceInterval plain = new RateSearch.Point(1, point.requests(), point.good()).attainmentInterval();
			effective += corrected.lo() <= target && target <= corrected.hi() ? 1 : 0;
			independent += plain.lo() <= target && target <= plain.hi() ? 1 : 0;
		}
		// measured 0.817 and 0.484: not 95 %, a level with no miss shows no runs and a short series underestimates them
		assertThat(effective / (double) runs).as("over the effective requests").isGreaterThan(0.78);
		assertThat(independent / (double) runs).as("requests taken as independent (the wrong interval)").isLessThan(0.6);
	}

	@Test
	@DisplayName("a design effect widens the interval and the posterior draws; independent misses leave them as they were")
	void designEffectWidens() {
		boolean[] runs = new boolean[100];
		boolean[] scattered = new boolean[100];
		for (int i = 0; i < 100; i++) {
			runs[i] = i < 40 || i >= 50;
			scattered[i] = i % 10 != 5;
		}
		RateSearch.Point clustered = RateSearch.Point.ofSeries(8, runs);
		RateSearch.Point spread = RateSearch.Point.ofSeries(8, scattered);
		assertThat(clustered.good()).isEqualTo(90);
		assertThat(clustered.designEffect()).isGreaterThan(3);
		assertThat(spread.designEffect()).isEqualTo(1);
		assertThat(clustered.effectiveRequests()).isEqualTo(100 / clustered.designEffect());
		ConfidenceInterval wide = clustered.attainmentInterval();
		ConfidenceInterval narrow = spread.attainmentInterval();
		assertThat(wide.lo()).isLessThan(narrow.lo());
		assertThat(wide.hi()).isGreaterThan(narrow.hi());
		assertThat(RateSearch.Point.ofSeries(8, java.util.Arrays.copyOf(runs, 31)).designEffect()).as("under 32 requests: not estimated")
				.isEqualTo(1);
		assertThat(RateSearch.Point.ofSeries(8, java.util.Arrays.copyOfRange(runs, 30, 62)).designEffect()).as("32 requests: estimated")
				.isGreaterThan(1);
		// the search's interval of the maximum: the clustered level is met in fewer posterior draws
		RateSearch.Point low = new RateSearch.Point(4, 100, 100);
		RateSearch.Result a = RateSearch.compare(List.of(low, clustered), List.of(low, clustered), 0.8, BootstrapCi.seeded(5));
		RateSearch.Result b = RateSearch.compare(List.of(low, spread), List.of(low, spread), 0.8, BootstrapCi.seeded(5));
		assertThat(a.rawInterval().lo()).isEqualTo(4);
		assertThat(a.rawInterval().hi()).as("still met in most draws").isEqualTo(8);
		assertThat(b.rawInterval().lo()).isEqualTo(8);
		RateSearch.Result easy = RateSearch.compare(List.of(low, clustered), List.of(low, clustered), 0.5, BootstrapCi.seeded(5));
		assertThat(easy.rawInterval().lo()).as("0.9 against a target of 0.5: met in every draw, however wide").isEqualTo(8);
		assertThatThrownBy(() -> new RateSearch.Point(1, 10, 9, 0.5)).hasMessageContaining("design effect");
	}

	/** The lowest and the mean exact coverage of {@code interval} over a grid of request counts and true attainments. */
	private static double[] coverage(java.util.function.BiFunction<Integer, Integer, double[]> interval) {
		double lowest = 1;
		double sum = 0;
		int cases = 0;
		for (int n : new int[]{ 20, 36, 40, 100 }) {
			for (double p : new double[]{ 0.5, 0.8, 0.9, 0.95, 0.97 }) {
				double covered = 0;
				for (int good = 0; good <= n; good++) {
					double[] ci = interval.apply(good, n);
					if (ci[0] <= p && p <= ci[1]) {
						covered += Math.exp(logChoose(n, good) + good * Math.log(p) + (n - good) * Math.log1p(-p));
					}
				}
				lowest = Math.min(lowest, covered);
				sum += covered;
				cases++;
			}
		}
		return new double[]{ lowest, sum / cases };
	}

	private static double logChoose(int n, int k) {
		double log = 0;
		for (int i = 1; i <= k; i++) {
			log += Math.log(n - k + i) - Math.log(i);
		}
		return log;
	}
}
