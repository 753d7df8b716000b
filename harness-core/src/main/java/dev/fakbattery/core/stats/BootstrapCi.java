package dev.fakbattery.core.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;
import org.apiguardian.api.API;

/**
 * Percentile-bootstrap confidence intervals for the statistics a gateway-tax comparison reports:
 * the {@linkplain #median(double[]) median} of one sample, the
 * {@linkplain #ratioOfMedians(double[], double[]) ratio of the medians} of two independent samples
 * (gateway / raw), and the {@linkplain #medianOfPairedRatios(double[], double[]) median of paired
 * ratios} (gateway<sub>i</sub> / raw<sub>i</sub>, for interleaved pairs), and the
 * {@linkplain #percentileDifference(List, List, double) difference of a percentile} of two arms measured in
 * paired batches (gateway p99 - raw p99, over ABBA blocks).
 *
 * <p>Each call draws {@code resamples} resamples with replacement (independently per sample for a
 * ratio of medians), computes the statistic on each, and returns the
 * {@code (1 - level) / 2} and {@code 1 - (1 - level) / 2} percentiles of those (NumPy {@code linear})
 * around the statistic on the samples as measured. Deterministic: each call starts a fresh
 * {@link SplittableRandom} from the seed, so the same seed and samples give the same interval
 * whatever was computed before.
 *
 * <h2>Too few samples</h2>
 * An interval of a median (and so of a ratio of medians, or a median of paired ratios) from fewer than
 * {@link #minSamples()} samples per arm is {@linkplain ConfidenceInterval#undefined undefined}, the reason naming the
 * count and the minimum: {@value #MIN_SAMPLES_PER_ARM} at the default 95 %. The minimum comes from the median itself,
 * not from the bootstrap: from {@code n} independent points, even the widest interval the data can give, from the
 * smallest point to the largest, covers the true median only with probability {@code 1 - 2 x 0.5^n} (both ends
 * miss it when all {@code n} points fall on one side). That reaches 95 % only at {@code n = 6} (96.9 %; {@code n = 5}
 * gives 93.8 %), and {@code level} in general needs {@code n >= log2(2 / (1 - level))}. Below it no interval can be
 * honest, while the percentile bootstrap would still print one: over one point per arm, a "95 % interval" that is the
 * point itself.
 *
 * <h2>Degenerate input</h2>
 * <ul>
 * <li>no samples: an {@linkplain ConfidenceInterval#undefined undefined} interval, reason given;</li>
 * <li>fewer than {@link #minSamples()} per arm: undefined, as above (a percentile difference over paired batches: one
 * pair gives the point, with 0 resamples);</li>
 * <li>a ratio over a sample that is not positive: undefined, naming the arm and the sample;</li>
 * <li>a {@code NaN} or infinite sample: {@link IllegalArgumentException} (drop failed samples
 * first); paired samples of different lengths: {@link IllegalArgumentException}.</li>
 * </ul>
 *
 * <pre>
 * ConfidenceInterval tax = BootstrapCi.seeded(42).ratioOfMedians(gatewayLatencyS, rawLatencyS);
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class BootstrapCi {

	/**
	 * The method of {@link #ratioOfMediansOverBlocks(List, List)}'s intervals.
	 *
	 * @since 0.9
	 */
	public static final String PAIRED_BLOCKS = "percentile bootstrap over paired blocks";

	/** Resamples drawn unless told otherwise. */
	public static final int DEFAULT_RESAMPLES = 10_000;

	/** Confidence level unless told otherwise. */
	public static final double DEFAULT_LEVEL = 0.95;

	/**
	 * The fewest samples per arm an interval of a median takes at the default level: 6, the smallest {@code n} with
	 * {@code 1 - 2 x 0.5^n >= 0.95} ({@link #minSamples()}).
	 *
	 * @since 0.5
	 */
	public static final int MIN_SAMPLES_PER_ARM = 6;

	private final long seed;

	private final int resamples;

	private final double level;

	private BootstrapCi(long seed, int resamples, double level) {
		if (resamples < 1) {
			throw new IllegalArgumentException("resamples must be >= 1, got " + resamples);
		}
		if (!(level > 0 && level < 1)) {
			throw new IllegalArgumentException("level must be within (0, 1), got " + level);
		}
		this.seed = seed;
		this.resamples = resamples;
		this.level = level;
	}

	/** {@value #DEFAULT_RESAMPLES} resamples at level {@value #DEFAULT_LEVEL}, drawn from {@code seed}. */
	public static BootstrapCi seeded(long seed) {
		return new BootstrapCi(seed, DEFAULT_RESAMPLES, DEFAULT_LEVEL);
	}

	/** The same, drawing {@code count} resamples. */
	public BootstrapCi withResamples(int count) {
		return new BootstrapCi(seed, count, level);
	}

	/** The same, at confidence {@code newLevel}, e.g. 0.99. */
	public BootstrapCi withLevel(double newLevel) {
		return new BootstrapCi(seed, resamples, newLevel);
	}

	public long seed() {
		return seed;
	}

	public int resamples() {
		return resamples;
	}

	public double level() {
		return level;
	}

	/**
	 * The fewest samples per arm an interval of a median takes at this level: the smallest {@code n} with
	 * {@code 1 - 2 x 0.5^n >= level}, {@value #MIN_SAMPLES_PER_ARM} at 95 %, 8 at 99 %.
	 *
	 * @since 0.5
	 */
	public int minSamples() {
		int n = 1;
		while (1 - 2 * Math.pow(0.5, n) < level) {
			n++;
		}
		return n;
	}

	/** Why {@code count} samples of {@code arm} give no interval of a median at this level, or null when they do. */
	private String tooFew(String arm, int count) {
		return count >= minSamples()
				? null
				: String.format(java.util.Locale.ROOT, "%d %s, fewer than the %d a %s %% interval "
						+ "of a median needs (from n points even min to max covers the median with probability only 1 - 2 x 0.5^n)", count,
						count == 1 && arm.endsWith("s") ? arm.substring(0, arm.length() - 1) : arm, minSamples(),
						Summary.percentileWord(level * 100));
	}

	/** The median of {@code sample}, as Python's {@code statistics.median}, with its interval. */
	public ConfidenceInterval median(double[] sample) {
		return medianInterval("median", Percentiles.sortedCopy(sample));
	}

	/**
	 * {@code median(numerator) / median(denominator)} of two independent samples, e.g. gateway over
	 * raw latency, with its interval; each sample is resampled on its own.
	 */
	public ConfidenceInterval ratioOfMedians(double[] numerator, double[] denominator) {
		String statistic = "ratio of medians";
		String unusable = SampleChecks.ratioProblem(numerator, denominator);
		if (unusable != null) {
			return undefined(statistic, unusable);
		}
		String few = tooFew("numerator samples", numerator.length);
		few = few != null ? few : tooFew("denominator samples", denominator.length);
		if (few != null) {
			return undefined(statistic, few);
		}
		double estimate = Percentiles.median(numerator) / Percentiles.median(denominator);
		SplittableRandom random = new SplittableRandom(seed);
		RankCounts top = new RankCounts(numerator);
		RankCounts bottom = new RankCounts(denominator);
		return interval(statistic, estimate, () -> top.resampleMedian(random) / bottom.resampleMedian(random));
	}

	/**
	 * The median of {@code numerator[i] / denominator[i]} over pairs measured together (e.g. an
	 * interleaved gateway and raw request), with its interval.
	 * @throws IllegalArgumentException if the samples differ in length
	 */
	public ConfidenceInterval medianOfPairedRatios(double[] numerator, double[] denominator) {
		if (numerator.length != denominator.length) {
			throw new IllegalArgumentException("paired samples must have equal lengths, got " + numerator.length
					+ " numerators and " + denominator.length + " denominators");
		}
		String statistic = "median of paired ratios";
		String unusable = SampleChecks.ratioProblem(numerator, denominator);
		if (unusable != null) {
			return undefined(statistic, unusable);
		}
		double[] ratios = new double[numerator.length];
		for (int i = 0; i < ratios.length; i++) {
			ratios[i] = numerator[i] / denominator[i];
		}
		return medianInterval(statistic, Percentiles.sortedCopy(ratios));
	}

	/**
	 * The {@code pct}-th percentile of the {@code numerator} batches merged minus that of the {@code denominator}
	 * batches merged (e.g. gateway p99 E2EL - raw p99 E2EL), with a paired cluster bootstrap interval: each resample
	 * draws batch pairs ({@code numerator[i]} with {@code denominator[i]}, measured side by side, e.g. in one ABBA
	 * block) with replacement and merges each arm's drawn batches. Latency that clusters in time (a pause, a busy
	 * neighbour) stays inside its batch, so the interval is not narrowed by treating correlated requests as
	 * independent; with few pairs it is wide, as it should be.
	 * @param pct in {@code [0, 100]}
	 * @throws IllegalArgumentException if the arms have different numbers of batches, {@code pct} is out of range,
	 *         or a sample is not finite
	 */
	public ConfidenceInterval percentileDifference(List<double[]> numerator, List<double[]> denominator, double pct) {
		if (numerator.size() != denominator.size()) {
			throw new IllegalArgumentException("paired batches must be as many on each arm, got " + numerator.size()
					+ " numerator and " + denominator.size() + " denominator batches");
		}
		String statistic = "difference of p" + Summary.percentileWord(pct) + " over paired batches";
		Percentiles.percentile(new double[0], pct);
		double[][] top = sortedBatches(numerator);
		double[][] bottom = sortedBatches(denominator);
		for (int i = 0; i < top.length; i++) {
			if (top[i].length == 0 || bottom[i].length == 0) {
				return undefined(statistic,
						"batch pair " + i + " has no samples on the " + (top[i].length == 0 ? "numerator" : "denominator")
								+ " arm");
			}
		}
		if (top.length == 0) {
			return undefined(statistic, "no samples");
		}
		int[] all = new int[top.length];
		Arrays.setAll(all, i -> i);
		RankCounts topCounts = new RankCounts(top);
		RankCounts bottomCounts = new RankCounts(bottom);
		double estimate = topCounts.percentile(all, pct) - bottomCounts.percentile(all, pct);
		if (top.length == 1) {
			return point(statistic, estimate);
		}
		SplittableRandom random = new SplittableRandom(seed);
		int[] drawn = new int[top.length];
		return interval(statistic, estimate, () -> {
			for (int i = 0; i < drawn.length; i++) {
				drawn[i] = random.nextInt(drawn.length);
			}
			return topCounts.percentile(drawn, pct) - bottomCounts.percentile(drawn, pct);
		});
	}

	/**
	 * {@code median(numerator) / median(denominator)} over all samples of two arms measured side by side in blocks (e.g.
	 * gateway over raw latency, a block being consecutive ABBA pairs), with a paired block bootstrap interval: each
	 * resample draws block pairs ({@code numerator[i]} with {@code denominator[i]}) with replacement and takes the ratio of
	 * the medians of each arm's drawn blocks merged. Where consecutive samples are correlated (a drifting engine, a gateway
	 * whose cost wanders), resampling single samples treats neighbours as independent and the interval comes out too
	 * narrow; blocks long enough to hold the correlation ({@link BlockLength}) keep it, and drawing both arms' halves of a
	 * block together keeps what the interleaving cancelled cancelled. The bounds are Hesterberg's expanded percentile
	 * ({@link #expandedTail}): over few blocks the plain percentile interval is too narrow (at 64 block pairs of AR(1)
	 * noise it covered 83 % where 95 % was claimed).
	 *
	 * <p>Undefined, with the reason, when an arm has fewer than {@link #minSamples()} samples, when there are fewer than
	 * {@link #minSamples()} blocks (the blocks are the independent units here, and an interval of a median from fewer
	 * cannot cover), when a block has no sample on an arm (merge it into a neighbour first), or when a sample is not
	 * positive.
	 *
	 * @throws IllegalArgumentException if the arms have different numbers of blocks or a sample is not finite
	 * @since 0.9
	 */
	public ConfidenceInterval ratioOfMediansOverBlocks(List<double[]> numerator, List<double[]> denominator) {
		if (numerator.size() != denominator.size()) {
			throw new IllegalArgumentException("paired blocks must be as many on each arm, got " + numerator.size()
					+ " numerator and " + denominator.size() + " denominator blocks");
		}
		String statistic = "ratio of medians";
		double[][] top = sortedBatches(numerator);
		double[][] bottom = sortedBatches(denominator);
		int[] all = new int[top.length];
		Arrays.setAll(all, i -> i);
		double[] allTop = mergedSorted(top, all);
		double[] allBottom = mergedSorted(bottom, all);
		String unusable = SampleChecks.ratioProblem(allTop, allBottom);
		if (unusable != null) {
			return undefined(statistic, unusable);
		}
		String few = tooFew("numerator samples", allTop.length);
		few = few != null ? few : tooFew("denominator samples", allBottom.length);
		few = few != null ? few : tooFew("blocks", top.length);
		if (few != null) {
			return undefined(statistic, few);
		}
		for (int i = 0; i < top.length; i++) {
			if (top[i].length == 0 || bottom[i].length == 0) {
				return undefined(statistic,
						"block pair " + i + " has no samples on the " + (top[i].length == 0 ? "numerator" : "denominator") + " arm");
			}
		}
		double estimate = Percentiles.medianOfSorted(allTop) / Percentiles.medianOfSorted(allBottom);
		RankCounts topCounts = new RankCounts(top);
		RankCounts bottomCounts = new RankCounts(bottom);
		return overBlocks(statistic, estimate, top.length, PAIRED_BLOCKS, "block pairs",
				drawn -> topCounts.median(drawn) / bottomCounts.median(drawn));
	}

	/**
	 * The median of per-pair ratios measured side by side in blocks (e.g. gateway over raw latency of the {@code k}-th
	 * conversation of each arm, which an ABBA schedule sends one after the other; a block being consecutive pairs), with a
	 * block bootstrap interval: each resample draws blocks with replacement and takes the median of the drawn blocks'
	 * ratios merged; the bounds are Hesterberg's expanded percentile ({@link #expandedTail}), as for
	 * {@link #ratioOfMediansOverBlocks}. A level that both arms share (an engine whose speed wanders over a run) cancels
	 * inside each pair, where a ratio of pooled medians lands wherever the mixture of levels puts each arm's median.
	 *
	 * <p>Undefined, with the reason, when there are fewer than {@link #minSamples()} ratios or blocks, when a block is
	 * empty, or when a ratio is not positive.
	 *
	 * @throws IllegalArgumentException if a ratio is not finite
	 * @since 0.13
	 */
	public ConfidenceInterval medianOfPairedRatiosOverBlocks(List<double[]> ratioBlocks) {
		String statistic = "median of paired ratios";
		double[][] blocks = sortedBatches(ratioBlocks);
		int[] all = new int[blocks.length];
		Arrays.setAll(all, i -> i);
		double[] ratios = mergedSorted(blocks, all);
		for (double ratio : ratios) {
			if (!Double.isFinite(ratio)) {
				throw new IllegalArgumentException("a paired ratio is not finite: " + ratio + " (drop failed pairs first)");
			}
			if (ratio <= 0) {
				return undefined(statistic, "a paired ratio is not positive: " + ratio);
			}
		}
		String few = tooFew("paired ratios", ratios.length);
		few = few != null ? few : tooFew("blocks", blocks.length);
		if (few != null) {
			return undefined(statistic, few);
		}
		for (int i = 0; i < blocks.length; i++) {
			if (blocks[i].length == 0) {
				return undefined(statistic, "block " + i + " has no paired ratio");
			}
		}
		RankCounts counts = new RankCounts(blocks);
		return overBlocks(statistic, Percentiles.medianOfSorted(ratios), blocks.length,
				"percentile bootstrap over blocks of paired ratios", "blocks", counts::median);
	}

	/**
	 * The expanded percentile interval ({@link #expandedTail}) of {@code resampled}, each resample drawing {@code blocks}
	 * block indices with replacement; its method names {@code method}, the count of {@code unit} and the percentiles read.
	 */
	private ConfidenceInterval overBlocks(String statistic, double estimate, int blocks, String method, String unit,
			java.util.function.ToDoubleFunction<int[]> resampled) {
		SplittableRandom random = new SplittableRandom(seed);
		int[] drawn = new int[blocks];
		double tail = expandedTail(blocks);
		ConfidenceInterval ci = interval(statistic, estimate, tail, () -> {
			for (int i = 0; i < drawn.length; i++) {
				drawn[i] = random.nextInt(drawn.length);
			}
			return resampled.applyAsDouble(drawn);
		});
		return new ConfidenceInterval(ci.statistic(), ci.estimate(), ci.lo(), ci.hi(), ci.level(), ci.resamples(), ci.seed(),
				ci.reason(), String.format(java.util.Locale.ROOT, "%s (%d %s; expanded percentile: the %.3f and %.3f percentiles)",
						method, blocks, unit, tail, 100 - tail));
	}

	/**
	 * The lower tail, in percent, of Hesterberg's expanded percentile interval over {@code units} independent units:
	 * {@code 100 x Phi(-sqrt(k / (k - 1)) t(k - 1, 1 - alpha / 2))}. The percentile bootstrap's interval is too narrow
	 * over few units (it is about {@code sqrt((k - 1) / k)} of the right width and uses normal, not t, tails); reading its
	 * percentiles further out by that much restores the coverage, and over many units it is the plain percentile.
	 */
	double expandedTail(int units) {
		double alpha = 1 - level;
		if (units < 2) {
			return alpha / 2 * 100;
		}
		double t = TDistribution.of(units - 1).inverseCumulativeProbability(1 - alpha / 2);
		return NormalDistribution.of(0, 1).cumulativeProbability(-Math.sqrt(units / (units - 1.0)) * t) * 100;
	}

	private static double[][] sortedBatches(List<double[]> batches) {
		double[][] sorted = new double[batches.size()][];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = Percentiles.sortedCopy(batches.get(i));
		}
		return sorted;
	}

	private static double[] mergedSorted(double[][] batches, int[] drawn) {
		int size = 0;
		for (int i : drawn) {
			size += batches[i].length;
		}
		double[] merged = new double[size];
		int at = 0;
		for (int i : drawn) {
			System.arraycopy(batches[i], 0, merged, at, batches[i].length);
			at += batches[i].length;
		}
		Arrays.sort(merged);
		return merged;
	}

	private ConfidenceInterval medianInterval(String statistic, double[] sorted) {
		if (sorted.length == 0) {
			return undefined(statistic, "no samples");
		}
		String few = tooFew("samples", sorted.length);
		if (few != null) {
			return undefined(statistic, few);
		}
		double estimate = Percentiles.medianOfSorted(sorted);
		SplittableRandom random = new SplittableRandom(seed);
		RankCounts resampler = new RankCounts(sorted);
		return interval(statistic, estimate, () -> resampler.resampleMedian(random));
	}

	private ConfidenceInterval interval(String statistic, double estimate, DoubleSupplier resampled) {
		return interval(statistic, estimate, (1 - level) / 2 * 100, resampled);
	}

	/** The {@code tail} and {@code 100 - tail} percentiles of the resampled statistic around {@code estimate}. */
	private ConfidenceInterval interval(String statistic, double estimate, double tail, DoubleSupplier resampled) {
		double[] stats = new double[resamples];
		for (int b = 0; b < resamples; b++) {
			stats[b] = resampled.getAsDouble();
		}
		Arrays.sort(stats);
		return new ConfidenceInterval(statistic, estimate, Percentiles.percentile(stats, tail),
				Percentiles.percentile(stats, 100 - tail), level, resamples, seed, Optional.empty());
	}

	private ConfidenceInterval point(String statistic, double estimate) {
		return new ConfidenceInterval(statistic, estimate, estimate, estimate, level, 0, seed,
				Optional.empty());
	}

	private ConfidenceInterval undefined(String statistic, String reason) {
		return ConfidenceInterval.undefined(statistic, reason, level, 0, seed);
	}

	/**
	 * Order statistics of resamples drawn from fixed blocks of samples, found by counting each value's rank in all the
	 * blocks sorted together instead of sorting each resample: a resample's median or percentile is the same value
	 * either way (the same multiset), in linear time. Blocks must be sorted ascending; a resample must not be empty.
	 */
	private static final class RankCounts {

		/** Every value of every block, ascending. */
		private final double[] values;

		/** For each block, its values' indices in {@link #values} (an equal value's, for ties). */
		private final int[][] ranks;

		/** How often each rank is in the resample being read; all zero between reads. */
		private final int[] counts;

		private double lower;

		private double upper;

		RankCounts(double[][] sortedBlocks) {
			int size = 0;
			for (double[] block : sortedBlocks) {
				size += block.length;
			}
			values = new double[size];
			int at = 0;
			for (double[] block : sortedBlocks) {
				System.arraycopy(block, 0, values, at, block.length);
				at += block.length;
			}
			Arrays.sort(values);
			ranks = new int[sortedBlocks.length][];
			for (int i = 0; i < sortedBlocks.length; i++) {
				ranks[i] = new int[sortedBlocks[i].length];
				for (int j = 0; j < ranks[i].length; j++) {
					ranks[i][j] = Arrays.binarySearch(values, sortedBlocks[i][j]);
				}
			}
			counts = new int[size];
		}

		/** Each sample its own block, in any order. */
		RankCounts(double[] samples) {
			this(singletons(samples));
		}

		private static double[][] singletons(double[] samples) {
			double[][] blocks = new double[samples.length][];
			for (int i = 0; i < samples.length; i++) {
				blocks[i] = new double[]{ samples[i] };
			}
			return blocks;
		}

		/** The median of as many samples as there are, drawn one by one with replacement (the k-th draw is sample k). */
		double resampleMedian(SplittableRandom random) {
			int n = values.length;
			for (int i = 0; i < n; i++) {
				counts[ranks[random.nextInt(n)][0]]++;
			}
			return medianOf(n);
		}

		/** The median of the {@code drawn} blocks merged, as {@link Percentiles#medianOfSorted}. */
		double median(int[] drawn) {
			return medianOf(count(drawn));
		}

		/** The {@code pct} percentile of the {@code drawn} blocks merged, as {@link Percentiles#percentile}. */
		double percentile(int[] drawn, double pct) {
			int n = count(drawn);
			double index = pct / 100.0 * (n - 1);
			int below = (int) Math.floor(index);
			find(below, Math.min(below + 1, n - 1));
			return Percentiles.lerp(lower, upper, index - below);
		}

		private int count(int[] drawn) {
			int n = 0;
			for (int block : drawn) {
				for (int rank : ranks[block]) {
					counts[rank]++;
				}
				n += ranks[block].length;
			}
			return n;
		}

		private double medianOf(int n) {
			int mid = n / 2;
			if (n % 2 == 1) {
				find(mid, mid);
				return lower;
			}
			find(mid - 1, mid);
			return (lower + upper) / 2;
		}

		/** Sets {@link #lower} and {@link #upper} to the counted values at ascending positions {@code lo <= hi}; clears the counts. */
		private void find(int lo, int hi) {
			int seen = 0;
			boolean foundLower = false;
			for (int rank = 0; rank < counts.length; rank++) {
				int count = counts[rank];
				if (count == 0) {
					continue;
				}
				counts[rank] = 0;
				seen += count;
				if (!foundLower && seen > lo) {
					lower = values[rank];
					foundLower = true;
				}
				if (seen > hi) {
					upper = values[rank];
					Arrays.fill(counts, rank + 1, counts.length, 0);
					return;
				}
			}
		}
	}
}
