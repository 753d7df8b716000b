package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@DisplayName("BootstrapCi")
@Execution(ExecutionMode.CONCURRENT)
class BootstrapCiTests {

	private static final BootstrapCi BOOTSTRAP = BootstrapCi.seeded(20260702L);

	@Nested
	@DisplayName("median")
	class Median {

		@Test
		@DisplayName("the 95% CI of a large normal sample's median contains the true median")
		void largeNormalSampleContainsTrueMedian() {
			ConfidenceInterval ci = BOOTSTRAP.median(Samples.normal(1, 2_000, 100, 10));

			assertThat(ci.contains(100)).as("%s", ci).isTrue();
			assertThat(ci.lo()).isLessThan(ci.estimate());
			assertThat(ci.hi()).isGreaterThan(ci.estimate());
			assertThat(ci.resamples()).isEqualTo(BootstrapCi.DEFAULT_RESAMPLES);
			assertThat(ci.level()).isEqualTo(0.95);
		}

		@Test
		@DisplayName("covers the true median in about 95% of samples")
		void coverageIsNearNominal() {
			BootstrapCi bootstrap = BOOTSTRAP.withResamples(1_000);
			int covered = 0;
			int trials = 200;
			for (int t = 0; t < trials; t++) {
				if (bootstrap.median(Samples.normal(1_000 + t, 60, 100, 10)).contains(100)) {
					covered++;
				}
			}

			assertThat(covered / (double) trials).isBetween(0.88, 0.99);
		}

		@Test
		@DisplayName("the interval narrows as the sample grows (about 1/sqrt(n))")
		void widthShrinksWithN() {
			BootstrapCi bootstrap = BOOTSTRAP.withResamples(2_000);
			double small = bootstrap.median(Samples.normal(2, 100, 100, 10)).width();
			double large = bootstrap.median(Samples.normal(2, 1_600, 100, 10)).width();

			assertThat(large).isLessThan(small / 2);
		}

		@Test
		@DisplayName("the point estimate is the exact median of the samples (statistics.median)")
		void estimateIsExactMedian() {
			double[] eight = { 0.412, 0.397, 0.455, 0.401, 0.389, 0.430, 0.420, 0.405 };

			assertThat(BOOTSTRAP.median(eight).estimate()).isEqualTo(0.4085);
		}

		@Test
		@DisplayName("a higher confidence level gives a wider interval")
		void higherLevelIsWider() {
			double[] sample = Samples.normal(3, 200, 100, 10);

			assertThat(BOOTSTRAP.withLevel(0.99).median(sample).width())
					.isGreaterThan(BOOTSTRAP.median(sample).width());
		}
	}

	@Nested
	@DisplayName("ratio of medians over paired blocks")
	class RatioOverBlocks {

		/** {@code blocks} blocks of {@code size} values each, cut from {@code values} in order. */
		private static List<double[]> blocks(double[] values, int size) {
			List<double[]> blocks = new ArrayList<>();
			for (int at = 0; at + size <= values.length; at += size) {
				blocks.add(Arrays.copyOfRange(values, at, at + size));
			}
			return blocks;
		}

		@Test
		@DisplayName("the estimate is the ratio of the medians of every sample; a 1.2x slower arm excludes 1.0")
		void estimateAndShift() {
			double[] raw = Samples.lognormal(21, 240, 0.4, 0.25);
			double[] gateway = Samples.times(Samples.lognormal(22, 240, 0.4, 0.25), 1.2);

			ConfidenceInterval ci = BOOTSTRAP.ratioOfMediansOverBlocks(blocks(gateway, 8), blocks(raw, 8));

			assertThat(ci.estimate()).isEqualTo(Percentiles.median(gateway) / Percentiles.median(raw));
			assertThat(ci.contains(1.2)).as("%s", ci).isTrue();
			assertThat(ci.lo()).as("%s", ci).isGreaterThan(1.0);
			assertThat(ci.method()).startsWith(BootstrapCi.PAIRED_BLOCKS)
					.contains("30 block pairs", "the 1.875 and 98.125 percentiles");
		}

		@Test
		@DisplayName("a drift both arms share is cancelled by drawing their blocks together: narrower than independent arms")
		void sharedDriftCancels() {
			double[] raw = Samples.lognormal(23, 240, 0.4, 0.02);
			double[] gateway = Samples.lognormal(24, 240, 0.44, 0.02);
			for (int i = 0; i < raw.length; i++) {
				double drift = 1 + 0.3 * Math.sin(i / 20.0);
				raw[i] *= drift;
				gateway[i] *= drift;
			}

			ConfidenceInterval paired = BOOTSTRAP.ratioOfMediansOverBlocks(blocks(gateway, 4), blocks(raw, 4));
			ConfidenceInterval independent = BOOTSTRAP.ratioOfMedians(gateway, raw);

			assertThat(paired.width()).as("paired %s, independent %s", paired, independent).isLessThan(independent.width() / 2);
			assertThat(paired.contains(1.1)).as("%s", paired).isTrue();
		}

		@Test
		@DisplayName("over few blocks the expanded percentile reads further out than the plain one; over many, about the same")
		void expandedTail() {
			// 100 x Phi(-sqrt(k / (k - 1)) t(k - 1, 0.975)), as scipy computes it
			assertThat(BOOTSTRAP.expandedTail(6)).isCloseTo(0.24318, within(1e-4));
			assertThat(BOOTSTRAP.expandedTail(30)).isCloseTo(1.87539, within(1e-4));
			assertThat(BOOTSTRAP.expandedTail(10_000)).isCloseTo(2.49804, within(1e-4));
			assertThat(BOOTSTRAP.expandedTail(2)).as("t with one degree of freedom: the extremes").isLessThan(1e-6);
			assertThat(BOOTSTRAP.expandedTail(1)).as("no t to take: the plain tail").isEqualTo(2.5, within(1e-12));
		}

		@Test
		@DisplayName("fewer than 6 blocks, a one-sided block, or unequal block counts: undefined with the reason, or refused")
		void degenerate() {
			double[] six = { 1, 2, 3, 4, 5, 6 };
			List<double[]> five = blocks(new double[]{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, 2);
			List<double[]> oneSided = new ArrayList<>(blocks(new double[]{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 }, 2));
			oneSided.set(3, new double[0]);

			assertThat(BOOTSTRAP.ratioOfMediansOverBlocks(five, five).reason())
					.hasValueSatisfying(r -> assertThat(r).startsWith("5 blocks, fewer than the 6"));
			assertThat(BOOTSTRAP.ratioOfMediansOverBlocks(oneSided, blocks(new double[14], 2).stream().map(b -> six).toList())
					.reason()).hasValue("block pair 3 has no samples on the numerator arm");
			assertThat(BOOTSTRAP.ratioOfMediansOverBlocks(List.of(), List.of()).reason()).hasValue("no numerator samples");
			List<double[]> sixBlocks = blocks(new double[]{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, 2);
			List<double[]> fiveInSix = List.of(new double[]{ 1 }, new double[]{ 2 }, new double[]{ 3 }, new double[]{ 4 },
					new double[]{ 5 }, new double[0]);
			assertThat(BOOTSTRAP.ratioOfMediansOverBlocks(sixBlocks, fiveInSix).reason())
					.hasValueSatisfying(r -> assertThat(r).startsWith("5 denominator samples, fewer than the 6"));
			assertThatIllegalArgumentException().isThrownBy(() -> BOOTSTRAP.ratioOfMediansOverBlocks(five, List.of(six)))
					.withMessageContaining("5 numerator and 1 denominator blocks");
		}

		@Test
		@DisplayName("the same seed and blocks give the same interval")
		void deterministic() {
			List<double[]> a = blocks(Samples.lognormal(25, 64, 0.4, 0.25), 4);
			List<double[]> b = blocks(Samples.lognormal(26, 64, 0.4, 0.25), 4);

			assertThat(BootstrapCi.seeded(3).ratioOfMediansOverBlocks(a, b))
					.isEqualTo(BootstrapCi.seeded(3).ratioOfMediansOverBlocks(a, b));
		}
	}

	@Nested
	@DisplayName("ratio of medians")
	class RatioOfMedians {

		@Test
		@DisplayName("A/A: two samples from one distribution give a CI containing 1.0")
		void aaContainsOne() {
			ConfidenceInterval ci = BOOTSTRAP.ratioOfMedians(Samples.lognormal(10, 300, 0.4, 0.25),
					Samples.lognormal(11, 300, 0.4, 0.25));

			assertThat(ci.contains(1.0)).as("%s", ci).isTrue();
		}

		@Test
		@DisplayName("a 1.2x slower arm gives a CI containing 1.2 and excluding 1.0")
		void shiftedContainsShiftExcludesOne() {
			double[] raw = Samples.lognormal(12, 300, 0.4, 0.25);
			double[] gateway = Samples.times(Samples.lognormal(13, 300, 0.4, 0.25), 1.2);

			ConfidenceInterval ci = BOOTSTRAP.ratioOfMedians(gateway, raw);

			assertThat(ci.contains(1.2)).as("%s", ci).isTrue();
			assertThat(ci.lo()).as("%s", ci).isGreaterThan(1.0);
			assertThat(ci.statistic()).isEqualTo("ratio of medians");
		}

		@Test
		@DisplayName("the estimate is median(numerator) / median(denominator), unrounded")
		void estimateIsRatioOfExactMedians() {
			double[] gateway = { 0.52, 0.50, 0.55, 0.51, 0.49, 0.56 };
			double[] raw = { 0.40, 0.45, 0.41, 0.44, 0.39, 0.46 };

			assertThat(BOOTSTRAP.ratioOfMedians(gateway, raw).estimate()).isEqualTo(0.515 / 0.425);
		}
	}

	@Nested
	@DisplayName("median of paired ratios")
	class PairedRatios {

		@Test
		@DisplayName("pairs with a 1.2x gateway give a CI containing 1.2 and excluding 1.0")
		void pairedShift() {
			double[] raw = Samples.lognormal(20, 200, 0.4, 0.5);
			double[] gateway = Samples.multiply(Samples.times(raw, 1.2), Samples.lognormal(21, 200, 1.0, 0.05));

			ConfidenceInterval ci = BOOTSTRAP.medianOfPairedRatios(gateway, raw);

			assertThat(ci.contains(1.2)).as("%s", ci).isTrue();
			assertThat(ci.lo()).isGreaterThan(1.0);
			assertThat(ci.estimate()).isCloseTo(1.2, within(0.02));
		}

		@Test
		@DisplayName("A/A pairs give a CI containing 1.0")
		void pairedAa() {
			double[] raw = Samples.lognormal(22, 200, 0.4, 0.5);
			double[] again = Samples.multiply(raw, Samples.lognormal(23, 200, 1.0, 0.05));

			assertThat(BOOTSTRAP.medianOfPairedRatios(again, raw).contains(1.0)).isTrue();
		}

		@Test
		@DisplayName("over blocks: the estimate is the median of every ratio; a 1.02x arm excludes 1.0, an A/A one covers it")
		void overBlocks() {
			double[] raw = Samples.lognormal(24, 240, 0.4, 0.3);
			double[] noise = Samples.lognormal(25, 240, 1.0, 0.05);
			double[] slower = new double[raw.length];
			double[] again = new double[raw.length];
			for (int i = 0; i < raw.length; i++) {
				slower[i] = 1.02 * noise[i];
				again[i] = noise[i];
			}

			ConfidenceInterval ci = BOOTSTRAP.medianOfPairedRatiosOverBlocks(RatioOverBlocks.blocks(slower, 8));

			assertThat(ci.estimate()).isEqualTo(Percentiles.median(slower));
			assertThat(ci.lo()).as("%s", ci).isGreaterThan(1.0);
			assertThat(ci.method()).contains("blocks of paired ratios (30 blocks", "the 1.875 and 98.125 percentiles");
			assertThat(BOOTSTRAP.medianOfPairedRatiosOverBlocks(RatioOverBlocks.blocks(again, 8)).contains(1.0)).isTrue();
		}

		@Test
		@DisplayName("over blocks: too few ratios or blocks, an empty block or a ratio not positive gives no interval, NaN throws")
		void overBlocksDegenerate() {
			double[] ones = { 1, 1, 1, 1, 1, 1, 1, 1 };
			assertThat(BOOTSTRAP.medianOfPairedRatiosOverBlocks(RatioOverBlocks.blocks(ones, 2)).reason())
					.hasValueSatisfying(r -> assertThat(r).contains("blocks"));
			assertThat(BOOTSTRAP.medianOfPairedRatiosOverBlocks(List.of(new double[]{ 1, 1, 1 })).reason())
					.hasValueSatisfying(r -> assertThat(r).contains("paired ratios"));
			List<double[]> withEmpty = new ArrayList<>(RatioOverBlocks.blocks(ones, 1));
			withEmpty.add(new double[0]);
			assertThat(BOOTSTRAP.medianOfPairedRatiosOverBlocks(withEmpty).reason()).hasValue("block 8 has no paired ratio");
			List<double[]> negative = new ArrayList<>(RatioOverBlocks.blocks(ones, 1));
			negative.set(3, new double[]{ -1 });
			assertThat(BOOTSTRAP.medianOfPairedRatiosOverBlocks(negative).reason()).hasValue("a paired ratio is not positive: -1.0");
			List<double[]> nan = new ArrayList<>(RatioOverBlocks.blocks(ones, 1));
			nan.set(2, new double[]{ Double.NaN });
			assertThatIllegalArgumentException().isThrownBy(() -> BOOTSTRAP.medianOfPairedRatiosOverBlocks(nan));
		}

		@Test
		@DisplayName("pairs of different lengths are rejected")
		void unequalLengths() {
			assertThatIllegalArgumentException()
					.isThrownBy(() -> BOOTSTRAP.medianOfPairedRatios(new double[]{ 1, 2 }, new double[]{ 1 }))
					.withMessageContaining("2 numerators and 1 denominators");
		}
	}

	@Nested
	@DisplayName("percentile difference over paired batches")
	class PercentileDifference {

		@Test
		@DisplayName("the point estimate is the merged arms' exact percentile difference")
		void estimateIsMergedDifference() {
			List<double[]> gateway = List.of(new double[]{ 1, 2, 3, 4, 5 }, new double[]{ 6, 7, 8, 9, 10 });
			List<double[]> raw = List.of(new double[]{ 1, 2, 3, 4, 5 }, new double[]{ 5, 6, 7, 8, 9 });

			ConfidenceInterval ci = BOOTSTRAP.percentileDifference(gateway, raw, 50);

			assertThat(ci.estimate()).isEqualTo(0.5);
			assertThat(ci.statistic()).isEqualTo("difference of p50 over paired batches");
		}

		@Test
		@DisplayName("the 95% CI of a p99 shifted by 5 in every batch contains 5 and excludes 0")
		void containsTrueShift() {
			List<double[]> raw = batches(10, 0);
			List<double[]> gateway = batches(100, 5);

			ConfidenceInterval ci = BOOTSTRAP.withResamples(1_000).percentileDifference(gateway, raw, 99);

			assertThat(ci.contains(5)).as("%s", ci).isTrue();
			assertThat(ci.lo()).isGreaterThan(0);
		}

		@Test
		@DisplayName("a difference that rests on one batch of eight gets an interval that reaches zero")
		void oneSlowBatchIsNotEnough() {
			List<double[]> raw = batches(10, 0);
			List<double[]> gateway = new java.util.ArrayList<>(batches(10, 0));
			gateway.set(3, Samples.times(gateway.get(3), 2));

			ConfidenceInterval ci = BOOTSTRAP.withResamples(1_000).percentileDifference(gateway, raw, 99);

			assertThat(ci.estimate()).as("%s", ci).isGreaterThan(10);
			assertThat(ci.lo()).as("%s", ci).isLessThanOrEqualTo(0);
		}

		@Test
		@DisplayName("one pair is its own point; no pairs, or an empty batch, is undefined with the reason")
		void degenerate() {
			ConfidenceInterval one = BOOTSTRAP.percentileDifference(List.<double[]>of(new double[]{ 3 }),
					List.<double[]>of(new double[]{ 1 }), 99);
			ConfidenceInterval none = BOOTSTRAP.percentileDifference(List.of(), List.of(), 99);
			ConfidenceInterval empty = BOOTSTRAP.percentileDifference(List.of(new double[]{ 1 }, new double[0]),
					List.of(new double[]{ 1 }, new double[]{ 2 }), 99);

			assertThat(one.estimate()).isEqualTo(2);
			assertThat(one.resamples()).isZero();
			assertThat(none.reason()).hasValue("no samples");
			assertThat(empty.reason()).hasValue("batch pair 1 has no samples on the numerator arm");
		}

		@Test
		@DisplayName("arms with different numbers of batches, or a percentile out of range, are rejected")
		void rejectsBadInput() {
			assertThatIllegalArgumentException()
					.isThrownBy(() -> BOOTSTRAP.percentileDifference(List.of(new double[]{ 1 }), List.of(), 99))
					.withMessage("paired batches must be as many on each arm, got 1 numerator and 0 denominator batches");
			assertThatIllegalArgumentException()
					.isThrownBy(() -> BOOTSTRAP.percentileDifference(List.of(), List.of(), 101))
					.withMessageContaining("percentile must be within [0, 100]");
		}

		private static List<double[]> batches(long seed, double shift) {
			List<double[]> batches = new java.util.ArrayList<>();
			for (int i = 0; i < 8; i++) {
				double[] batch = Samples.normal(seed + i, 500, 100, 10);
				for (int j = 0; j < batch.length; j++) {
					batch[j] += shift;
				}
				batches.add(batch);
			}
			return batches;
		}
	}

	@Nested
	@DisplayName("determinism")
	class Determinism {

		@Test
		@DisplayName("the same seed and samples give the same interval, whatever ran before")
		void sameSeedSameInterval() {
			double[] sample = Samples.lognormal(30, 50, 0.4, 0.3);
			ConfidenceInterval first = BootstrapCi.seeded(7).median(sample);
			BootstrapCi.seeded(7).median(Samples.normal(31, 50, 0, 1));

			assertThat(BootstrapCi.seeded(7).median(sample)).isEqualTo(first);
		}

		@Test
		@DisplayName("another seed draws other resamples")
		void otherSeedOtherResamples() {
			double[] raw = Samples.lognormal(32, 50, 0.4, 0.3);
			double[] gateway = Samples.lognormal(33, 50, 0.5, 0.3);

			ConfidenceInterval a = BootstrapCi.seeded(7).ratioOfMedians(gateway, raw);
			ConfidenceInterval b = BootstrapCi.seeded(8).ratioOfMedians(gateway, raw);

			assertThat(a.estimate()).isEqualTo(b.estimate());
			assertThat(new double[]{ a.lo(), a.hi() }).isNotEqualTo(new double[]{ b.lo(), b.hi() });
		}

		@Test
		@DisplayName("each resample's order statistics are exactly those of sorting the resample, ties and even sizes included")
		void countingRanksReadsWhatSortingReads() {
			int resamples = 300;
			BootstrapCi bootstrap = BootstrapCi.seeded(5).withResamples(resamples);
			for (int n : new int[]{ 13, 16, 31 }) {
				// rounded to 3 places so values repeat
				double[] raw = Arrays.stream(Samples.lognormal(40 + n, n, 0.4, 0.3)).map(v -> Math.round(v * 1e3) / 1e3).toArray();
				double[] gateway = Arrays.stream(Samples.lognormal(50 + n, n + 1, 0.5, 0.3)).map(v -> Math.round(v * 1e3) / 1e3).toArray();
				List<double[]> rawBlocks = blocksOf(raw, 2);
				List<double[]> gatewayBlocks = blocksOf(Arrays.copyOf(gateway, raw.length), 2);

				SplittableRandom random = new SplittableRandom(5);
				double[] medians = new double[resamples];
				double[] ratios = new double[resamples];
				for (int b = 0; b < resamples; b++) {
					medians[b] = Percentiles.median(drawn(Percentiles.sortedCopy(raw), random)); // median() draws from the sorted sample
				}
				random = new SplittableRandom(5);
				for (int b = 0; b < resamples; b++) {
					ratios[b] = Percentiles.median(drawn(gateway, random)) / Percentiles.median(drawn(raw, random));
				}
				assertThat(bootstrap.median(raw)).as("median, n=%d", n).satisfies(ci -> assertBounds(ci, medians, PLAIN_TAIL));
				assertThat(bootstrap.ratioOfMedians(gateway, raw)).as("ratio of medians, n=%d", n)
						.satisfies(ci -> assertBounds(ci, ratios, PLAIN_TAIL));

				double tail = bootstrap.expandedTail(rawBlocks.size());
				assertBounds(bootstrap.ratioOfMediansOverBlocks(gatewayBlocks, rawBlocks),
						overBlocks(resamples, rawBlocks.size(),
								drawn -> merged(gatewayBlocks, drawn, 50, true) / merged(rawBlocks, drawn, 50, true)),
						tail);
				assertBounds(bootstrap.medianOfPairedRatiosOverBlocks(gatewayBlocks),
						overBlocks(resamples, rawBlocks.size(), drawn -> merged(gatewayBlocks, drawn, 50, true)), tail);
				for (double pct : new double[]{ 0, 37.5, 50, 99, 100 }) {
					SplittableRandom pairs = new SplittableRandom(5);
					double[] differences = new double[resamples];
					int[] drawn = new int[rawBlocks.size()];
					for (int b = 0; b < resamples; b++) {
						for (int i = 0; i < drawn.length; i++) {
							drawn[i] = pairs.nextInt(drawn.length);
						}
						differences[b] = merged(gatewayBlocks, drawn, pct, false) - merged(rawBlocks, drawn, pct, false);
					}
					assertBounds(bootstrap.percentileDifference(gatewayBlocks, rawBlocks, pct), differences, PLAIN_TAIL);
				}
			}
		}

		/** The plain percentile interval's lower tail as the class computes it at 95 % (2.5 plus a rounding error). */
		private static final double PLAIN_TAIL = (1 - 0.95) / 2 * 100;

		private static List<double[]> blocksOf(double[] values, int size) {
			List<double[]> blocks = new ArrayList<>();
			for (int at = 0; at < values.length; at += size) {
				blocks.add(Arrays.copyOfRange(values, at, Math.min(values.length, at + size)));
			}
			return blocks;
		}

		private static double[] drawn(double[] values, SplittableRandom random) {
			double[] resample = new double[values.length];
			for (int i = 0; i < resample.length; i++) {
				resample[i] = values[random.nextInt(values.length)];
			}
			return resample;
		}

		private static double[] overBlocks(int resamples, int blocks, java.util.function.ToDoubleFunction<int[]> statistic) {
			SplittableRandom random = new SplittableRandom(5);
			double[] stats = new double[resamples];
			int[] drawn = new int[blocks];
			for (int b = 0; b < resamples; b++) {
				for (int i = 0; i < drawn.length; i++) {
					drawn[i] = random.nextInt(drawn.length);
				}
				stats[b] = statistic.applyAsDouble(drawn);
			}
			return stats;
		}

		/** The drawn blocks merged and sorted, read at {@code pct} (the median's own formula where {@code median}). */
		private static double merged(List<double[]> blocks, int[] drawn, double pct, boolean median) {
			double[] all = Arrays.stream(drawn).mapToObj(blocks::get).flatMapToDouble(Arrays::stream).sorted().toArray();
			return median ? Percentiles.medianOfSorted(all) : Percentiles.percentile(all, pct);
		}

		private static void assertBounds(ConfidenceInterval ci, double[] resampled, double tail) {
			double[] sorted = resampled.clone();
			Arrays.sort(sorted);
			assertThat(new double[]{ ci.lo(), ci.hi() }).as("%s", ci)
					.containsExactly(Percentiles.percentile(sorted, tail), Percentiles.percentile(sorted, 100 - tail));
		}
	}

	@Nested
	@DisplayName("degenerate input")
	class Degenerate {

		@Test
		@DisplayName("no samples: NaN interval with a reason")
		void empty() {
			ConfidenceInterval ci = BOOTSTRAP.median(new double[0]);

			assertThat(ci.isDefined()).isFalse();
			assertThat(ci.reason()).contains("no samples");
			assertThat(new double[]{ ci.estimate(), ci.lo(), ci.hi(), ci.width() }).containsOnly(Double.NaN);
			assertThat(ci.contains(Double.NaN)).isFalse();
			assertThat(BOOTSTRAP.ratioOfMedians(new double[]{ 1 }, new double[0]).reason())
					.contains("no denominator samples");
		}

		@Test
		@DisplayName("one sample per arm is no interval: undefined, naming the count and the minimum, never the point")
		void oneSample() {
			ConfidenceInterval ci = BOOTSTRAP.median(new double[]{ 0.42 });
			ConfidenceInterval ratio = BOOTSTRAP.ratioOfMedians(new double[]{ 0.5 }, new double[]{ 0.4 });

			assertThat(ci.isDefined()).isFalse();
			assertThat(ci.contains(0.42)).isFalse();
			assertThat(ci.reason()).hasValue("1 sample, fewer than the 6 a 95 % interval of a median needs (from n points even "
					+ "min to max covers the median with probability only 1 - 2 x 0.5^n)");
			assertThat(ratio.isDefined()).isFalse();
			assertThat(ratio.reason().orElseThrow()).startsWith("1 numerator sample, fewer than the 6 ");
		}

		@Test
		@DisplayName("the minimum is 6 per arm at 95 % (5 points: min to max covers the median 93.8 %), 8 at 99 %")
		void minimumPerArm() {
			double[] five = { 1.0, 1.1, 0.9, 1.05, 0.95 };
			double[] six = { 1.0, 1.1, 0.9, 1.05, 0.95, 1.02 };

			assertThat(BOOTSTRAP.minSamples()).isEqualTo(BootstrapCi.MIN_SAMPLES_PER_ARM).isEqualTo(6);
			assertThat(BOOTSTRAP.withLevel(0.99).minSamples()).isEqualTo(8);
			// 1 - 2 x 0.5^3 is exactly 0.75: a level met exactly needs no more samples
			assertThat(BOOTSTRAP.withLevel(0.75).minSamples()).isEqualTo(3);
			assertThat(BOOTSTRAP.median(five).isDefined()).isFalse();
			assertThat(BOOTSTRAP.median(six).isDefined()).isTrue();
			assertThat(BOOTSTRAP.ratioOfMedians(six, five).reason()).hasValueSatisfying(r -> assertThat(r)
					.startsWith("5 denominator samples, fewer than the 6 a 95 % interval"));
			assertThat(BOOTSTRAP.ratioOfMedians(six, six).isDefined()).isTrue();
			assertThat(BOOTSTRAP.medianOfPairedRatios(five, five).isDefined()).isFalse();
			assertThat(BOOTSTRAP.withLevel(0.99).median(Samples.normal(4, 7, 100, 10)).reason().orElseThrow())
					.startsWith("7 samples, fewer than the 8 a 99 % interval");
		}

		@Test
		@DisplayName("a ratio over a non-positive sample is undefined, naming the sample")
		void nonPositive() {
			ConfidenceInterval ci = BOOTSTRAP.ratioOfMedians(new double[]{ 1, 2 }, new double[]{ 1, 0 });

			assertThat(ci.isDefined()).isFalse();
			assertThat(ci.reason()).hasValue("a ratio needs positive samples; denominator sample 1 is 0.0");
		}

		@Test
		@DisplayName("a NaN sample or an unusable setting is rejected")
		void rejectsBadInput() {
			assertThatIllegalArgumentException()
					.isThrownBy(() -> BOOTSTRAP.ratioOfMedians(new double[]{ Double.NaN }, new double[]{ 1 }))
					.withMessageContaining("numerator sample 0");
			assertThatIllegalArgumentException().isThrownBy(() -> BOOTSTRAP.withResamples(0));
			assertThatIllegalArgumentException().isThrownBy(() -> BOOTSTRAP.withLevel(1.0));
		}

		@Test
		@DisplayName("an undefined interval is written with null bounds and its reason")
		void writesReason() {
			ObjectNode node = Json.MAPPER.createObjectNode();
			BOOTSTRAP.median(new double[0]).writeTo(node, 4);

			assertThat(node.get("lo").isNull()).isTrue();
			assertThat(node.get("reason").asText()).isEqualTo("no samples");
			assertThat(node.get("seed").asLong()).isEqualTo(20260702L);
		}
	}
}
