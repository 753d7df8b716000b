package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.BlockLength;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The samples of two interleaved arms cut into blocks of consecutive ABBA pairs, for the paired block bootstrap of their
 * ratio of medians ({@link BootstrapCi#ratioOfMediansOverBlocks}). A pair is two neighbouring slots of the schedule (an
 * ABBA block is two pairs, {@code A B} and {@code B A}), so each pair holds one conversation of each arm sent one after
 * the other.
 *
 * <p>The {@code k}-th conversation of each arm make the {@code k}-th pair (the schedule's positions give the order). How
 * many pairs a block holds comes from the data: {@link BlockLength#politisWhite} of the series of per-pair log ratios
 * ({@code log(b) - log(a)}), rounded, at least 1; from fewer than {@value #MIN_PAIRS_TO_ESTIMATE} pairs it is not
 * estimated and blocks are one pair (what such a short run reports rests on its A/A floor alone). Blocks are kept at least {@code minBlocks} in number (an interval
 * of a median from fewer independent units cannot cover); when the suggested length would leave fewer, it is cut to fit
 * and {@link #capped()} says so: the samples are correlated over a longer stretch than the run can resample, and an
 * interval from them is too narrow (the witness reads that as PENDING_MEASUREMENT, with the fix: more samples). A block
 * with no usable sample on one arm (a failed request) is merged into its neighbour.
 *
 * <pre>
 * PairedBlocks latency = PairedBlocks.of(raw.samples(), gateway.samples(), PairedBlocks.LATENCY_S, bootstrap.minSamples());
 * ConfidenceInterval tax = latency.bOverA(bootstrap);
 * </pre>
 *
 * @param a the blocks of arm A's values, in schedule order
 * @param b the blocks of arm B's values, the same blocks
 * @param ratios the same blocks' per-pair ratios {@code median(b of the pair) / median(a of the pair)}, each pair with a
 *        usable value on both arms giving one (one value each: their ratio); blocks left without one are dropped
 * @param pairsPerBlock ABBA pairs per block
 * @param suggestedPairs the Politis-White length before rounding and cutting, in pairs; {@code NaN} when not estimated
 * @param capped whether the suggested length was cut to keep {@code minBlocks} blocks
 * @param pairsPerUnit the pairs one ratio is taken over: 1, or 2 where each whole ABBA block gives one ratio
 *        ({@link #ofAbbaBlocks})
 * @since 0.9
 */
public record PairedBlocks(List<double[]> a, List<double[]> b, List<double[]> ratios, int pairsPerBlock, double suggestedPairs,
		boolean capped, int pairsPerUnit) {

	/** E2EL in seconds of a successful request. */
	public static final ToDoubleFunction<RequestOutcome> LATENCY_S = o -> o.e2elMs() / 1000;

	/** Decode tok/s (first to last token) of a successful request, {@code NaN} when unknown. */
	public static final ToDoubleFunction<RequestOutcome> DECODE_TPS = RequestOutcome::decodeTps;

	/** fak's decode tok/s (completion tokens over the whole request), {@code NaN} when unknown. */
	public static final ToDoubleFunction<RequestOutcome> E2E_DECODE_TPS = RequestOutcome::e2eCompletionTps;

	/** The method, for artifacts: how the blocks were chosen. */
	public static final String METHOD = "paired block bootstrap over consecutive ABBA pairs (one conversation, or one batch, "
			+ "of each arm per pair), block length " + BlockLength.METHOD + " of the per-pair log ratios, at least the fewest blocks an "
			+ "interval of a median takes";

	/** What one ratio is taken over with {@link #ofAbbaBlocks}, for artifacts. */
	public static final String ABBA_UNIT = "ABBA block: the two pairs of one A B B A (or B A A B), each arm once first and once "
			+ "second, so an effect of the position in a pair cancels in the block's ratio";

	/**
	 * The fewest pairs whose series the block length is estimated from; below it blocks are one pair long and
	 * {@link #suggestedPairs()} is {@code NaN}: a handful of ratios cannot show a correlation, only noise.
	 */
	public static final int MIN_PAIRS_TO_ESTIMATE = 32;

	/** Blocks whose ratios are one per pair. */
	public PairedBlocks(List<double[]> a, List<double[]> b, List<double[]> ratios, int pairsPerBlock, double suggestedPairs,
			boolean capped) {
		this(a, b, ratios, pairsPerBlock, suggestedPairs, capped, 1);
	}

	public PairedBlocks {
		a = List.copyOf(a);
		b = List.copyOf(b);
		ratios = List.copyOf(ratios);
	}

	/**
	 * Cuts {@code a} and {@code b} ({@link InterleavingRunner.Sample}s, whose positions are their schedule slots) into
	 * blocks of the value {@code value} reads from each successful request; requests that failed or whose value is not
	 * finite are left out.
	 */
	public static PairedBlocks of(List<InterleavingRunner.Sample> a, List<InterleavingRunner.Sample> b,
			ToDoubleFunction<RequestOutcome> value, int minBlocks) {
		return ofPairs(perPair(a, value), perPair(b, value), minBlocks);
	}

	/**
	 * Cuts pairs already made into blocks: {@code perPairA.get(k)} and {@code perPairB.get(k)} are the values each arm
	 * measured in the {@code k}-th ABBA pair (one each, several for a multi-turn conversation, none for a failure), e.g. the
	 * {@code k}-th batch of each arm of a sweep level.
	 */
	public static PairedBlocks ofPairs(List<List<Double>> a, List<List<Double>> b, int minBlocks) {
		return cut(a, b, minBlocks, 1);
	}

	/**
	 * Like {@link #ofPairs}, but each whole ABBA block, pairs {@code 2j} and {@code 2j + 1}, gives one ratio:
	 * {@code median(b's values of both pairs) / median(a's)}, with one value per arm and pair their means' ratio. Within an
	 * ABBA block each arm runs once first and once second, so an effect of the position in a pair (the second batch of a
	 * pair faster or slower than the first, whichever arm it is) cancels in the block's ratio as a linear drift does,
	 * where a ratio per pair carries it with the sign of the pair's order: alternating, so the pairs' ratios spread
	 * (bimodal: the median of them is at its least efficient) and anticorrelate from one pair to the next (which the
	 * block length estimator reads as a long correlation). On the CPU llama.cpp container at 4 streams, one wave per
	 * batch, the pairs' log ratios spread 0.050 with lag-one autocorrelation -0.30, the blocks' 0.024. Block lengths,
	 * {@link #MIN_PAIRS_TO_ESTIMATE} and {@code minBlocks} count these ratios; {@link #pairsPerBlock()} and
	 * {@link #suggestedPairs()} stay in pairs. A trailing half block is a ratio of its own.
	 *
	 * @since 0.10
	 */
	public static PairedBlocks ofAbbaBlocks(List<List<Double>> a, List<List<Double>> b, int minBlocks) {
		return cut(a, b, minBlocks, 2);
	}

	private static PairedBlocks cut(List<List<Double>> a, List<List<Double>> b, int minBlocks, int pairsPerUnit) {
		List<List<Double>> perPairA = new ArrayList<>(a);
		List<List<Double>> perPairB = new ArrayList<>(b);
		int pairs = Math.max(perPairA.size(), perPairB.size());
		while (perPairA.size() < pairs) {
			perPairA.add(List.of());
		}
		while (perPairB.size() < pairs) {
			perPairB.add(List.of());
		}
		perPairA = units(perPairA, pairsPerUnit);
		perPairB = units(perPairB, pairsPerUnit);
		pairs = perPairA.size();
		double[] logRatios = logRatios(perPairA, perPairB);
		double suggested = logRatios.length >= MIN_PAIRS_TO_ESTIMATE ? BlockLength.politisWhite(logRatios) : Double.NaN;
		int wanted = Double.isNaN(suggested) ? 1 : (int) Math.max(1, Math.round(suggested));
		int cap = Math.max(1, pairs / Math.max(1, minBlocks));
		int length = Math.min(wanted, cap);
		int blocks = Math.max(1, pairs / length);
		List<List<Double>> blocksA = new ArrayList<>();
		List<List<Double>> blocksB = new ArrayList<>();
		List<List<Double>> blocksRatio = new ArrayList<>();
		for (int i = 0; i < blocks && pairs > 0; i++) {
			blocksA.add(new ArrayList<>());
			blocksB.add(new ArrayList<>());
			blocksRatio.add(new ArrayList<>());
		}
		for (int pair = 0; pair < pairs; pair++) {
			int block = Math.min(pair / length, blocks - 1);
			blocksA.get(block).addAll(perPairA.get(pair));
			blocksB.get(block).addAll(perPairB.get(pair));
			pairRatio(perPairA.get(pair), perPairB.get(pair)).ifPresent(blocksRatio.get(block)::add);
		}
		mergeOneSided(blocksA, blocksB);
		blocksRatio.removeIf(List::isEmpty);
		return new PairedBlocks(toArrays(blocksA), toArrays(blocksB), toArrays(blocksRatio), length * pairsPerUnit,
				suggested * pairsPerUnit, wanted > cap, pairsPerUnit);
	}

	/** Consecutive runs of {@code size} pairs' values merged, in order; a shorter last run kept. */
	private static List<List<Double>> units(List<List<Double>> perPair, int size) {
		List<List<Double>> units = new ArrayList<>();
		for (int from = 0; from < perPair.size(); from += size) {
			List<Double> unit = new ArrayList<>();
			perPair.subList(from, Math.min(perPair.size(), from + size)).forEach(unit::addAll);
			units.add(unit);
		}
		return units;
	}

	/** {@code median(b) / median(a)} with its paired block bootstrap interval (e.g. gateway over raw latency). */
	public ConfidenceInterval bOverA(BootstrapCi bootstrap) {
		return bootstrap.ratioOfMediansOverBlocks(b, a);
	}

	/** {@code median(a) / median(b)} with its paired block bootstrap interval (e.g. raw over gateway decode tok/s). */
	public ConfidenceInterval aOverB(BootstrapCi bootstrap) {
		return bootstrap.ratioOfMediansOverBlocks(a, b);
	}

	/**
	 * The median over pairs of {@code b / a} (e.g. gateway over raw latency), with its block bootstrap interval
	 * ({@link BootstrapCi#medianOfPairedRatiosOverBlocks}): what both arms of a pair share, an engine level that wanders
	 * over the run, cancels in each ratio.
	 */
	public ConfidenceInterval pairedBOverA(BootstrapCi bootstrap) {
		return bootstrap.medianOfPairedRatiosOverBlocks(ratios);
	}

	/** The median over pairs of {@code a / b} (e.g. raw over gateway decode tok/s), with its interval. */
	public ConfidenceInterval pairedAOverB(BootstrapCi bootstrap) {
		return bootstrap.medianOfPairedRatiosOverBlocks(ratios.stream().map(block -> {
			double[] inverted = new double[block.length];
			for (int i = 0; i < block.length; i++) {
				inverted[i] = 1 / block[i];
			}
			return inverted;
		}).toList());
	}

	/** One line for a reason or a report: the block length, what suggested it, whether it was cut. */
	public String describe() {
		String why = Double.isNaN(suggestedPairs)
				? "fewer than " + MIN_PAIRS_TO_ESTIMATE + " pairs, length not estimated"
				: String.format(Locale.ROOT, "Politis-White suggested %.1f%s", suggestedPairs, capped ? "; cut to keep enough blocks" : "");
		return String.format(Locale.ROOT, "%d blocks of %d ABBA pair%s (%s%s)", a.size(), pairsPerBlock, pairsPerBlock == 1 ? "" : "s",
				pairsPerUnit == 2 ? "one ratio per ABBA block; " : "", why);
	}

	/**
	 * Writes {@code method, pairs_per_block, suggested_pairs} ({@code null} when not estimated),
	 * {@code estimated_from_pairs} (the fewest it is estimated from), {@code blocks, capped}.
	 */
	public void writeTo(ObjectNode node) {
		node.put("method", METHOD);
		node.put("ratio_unit", pairsPerUnit == 2 ? ABBA_UNIT : "pair");
		node.put("pairs_per_block", pairsPerBlock);
		JsonNumbers.put(node, "suggested_pairs", suggestedPairs, 2);
		node.put("estimated_from_pairs", MIN_PAIRS_TO_ESTIMATE);
		node.put("blocks", a.size());
		node.put("capped", capped);
	}

	/** The arm's usable values per conversation, in schedule order (a multi-turn conversation gives several). */
	private static List<List<Double>> perPair(List<InterleavingRunner.Sample> arm, ToDoubleFunction<RequestOutcome> value) {
		java.util.TreeMap<Integer, List<Double>> byPosition = new java.util.TreeMap<>();
		for (InterleavingRunner.Sample sample : arm) {
			List<Double> values = byPosition.computeIfAbsent(sample.position(), p -> new ArrayList<>());
			if (sample.outcome().ok()) {
				double v = value.applyAsDouble(sample.outcome());
				if (Double.isFinite(v)) {
					values.add(v);
				}
			}
		}
		return new ArrayList<>(byPosition.values());
	}

	/** {@code median(b) / median(a)} of one pair's values, when both arms have a positive one. */
	private static java.util.Optional<Double> pairRatio(List<Double> a, List<Double> b) {
		if (a.isEmpty() || b.isEmpty()) {
			return java.util.Optional.empty();
		}
		double ratio = median(b) / median(a);
		return ratio > 0 && Double.isFinite(ratio) ? java.util.Optional.of(ratio) : java.util.Optional.empty();
	}

	private static double median(List<Double> values) {
		return dev.fakbattery.core.stats.Percentiles.median(values.stream().mapToDouble(Double::doubleValue).toArray());
	}

	private static double[] logRatios(List<List<Double>> a, List<List<Double>> b) {
		List<Double> ratios = new ArrayList<>();
		for (int i = 0; i < a.size(); i++) {
			double meanA = a.get(i).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
			double meanB = b.get(i).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
			if (meanA > 0 && meanB > 0) {
				ratios.add(Math.log(meanB) - Math.log(meanA));
			}
		}
		return ratios.stream().mapToDouble(Double::doubleValue).toArray();
	}

	/** Merges every block that has values on only one arm into the block before it (the first into the one after). */
	private static void mergeOneSided(List<List<Double>> a, List<List<Double>> b) {
		for (int i = 0; i < a.size() && a.size() > 1;) {
			if (a.get(i).isEmpty() || b.get(i).isEmpty()) {
				int into = i == 0 ? 1 : i - 1;
				a.get(into).addAll(a.remove(i));
				b.get(into).addAll(b.remove(i));
				i = Math.max(0, i - 1);
			}
			else {
				i++;
			}
		}
	}

	private static List<double[]> toArrays(List<List<Double>> blocks) {
		return blocks.stream().map(block -> block.stream().mapToDouble(Double::doubleValue).toArray()).toList();
	}
}
