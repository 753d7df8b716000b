package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

/**
 * One concurrency level of the sweep: two arms (raw and gateway, or raw and raw for the A/A noise
 * floor) each warmed up with one wave ({@link #warmupRequests}) at concurrency {@code c}, then measured
 * closed-loop at concurrency {@code c} in batches ordered ABBA, every arm's batches merged for its statistics. The
 * level stops adding batches at the first planned look where the ratio's interval is narrower than
 * {@code stop.halfwidth}, else at the cap ({@link TaxSettings#sweepBatchesPerArm}: at least 3 blocks, so
 * {@value TaxSettings#MIN_BATCHES} batches per arm, the fewest the ratio's interval takes); see
 * {@link SequentialPlan} for why the reported interval keeps its 95 % coverage (it is computed at each look's level,
 * e.g. 98.3 % with three looks; at one look, the cap, at 95 %).
 *
 * <h2>The ratio</h2>
 * {@code ratio} = the median over ABBA blocks of B's output throughput (completion tokens over a batch's first
 * send to last end; the mean of B's two batches in the block) over A's in the same block, with a percentile-bootstrap
 * interval over the ABBA blocks (95 %, or the look's level) drawn in runs of consecutive ones as long as their
 * correlation asks ({@link PairedBlocks#ofAbbaBlocks}: each arm runs once first and once second in a block, so an effect
 * of the position in a pair cancels; on the CPU llama.cpp container the second batch of a pair ran about 4 % apart from
 * the first, which one ratio per pair carried as spread). With fewer ABBA blocks than an interval of a median takes
 * (short smoke levels, the first look), one ratio per pair. A pair's two batches run one after the other, so a
 * speed the engine wanders to over the level cancels in their ratio (a ratio of the arms' pooled medians lands between
 * the levels instead: on a CPU llama.cpp container that held the A/A floor off centre). The batch is the unit because
 * requests of one batch share the machine's state: on a shared machine batch-to-batch swings dwarf
 * request-to-request ones, and an interval over requests would be far too narrow (an A/A run showed
 * it). {@code per_request_ratio} (median per-request {@code out / e2el}, interval over requests) and
 * {@code throughput_ratio} (Σ tokens over each arm's own batch time, no interval) are written beside it;
 * {@code latency_tax} is B/A median E2EL with an interval over requests. The A/A level is judged on {@code ratio}, the
 * statistic the sweep reports, never on the narrower per-request intervals.
 *
 * @param concurrency the level
 * @param batchesA arm A's batches in run order
 * @param batchesB arm B's batches in run order
 * @param a arm A merged (raw)
 * @param b arm B merged (gateway, or the second raw client)
 * @param ratio the median over ABBA blocks (or pairs) of B's batch throughput over A's, with its interval over them
 * @param perRequestRatio B/A median per-request tok/s, with its interval over requests
 * @param latencyTax B/A median E2EL, with its interval over requests
 * @param warmupFailed failed warm-up requests of both arms
 * @param lag the double's lag over the measured batches; empty on a real engine
 * @param engineMetrics the engine's {@code /metrics} before and after the measured batches
 * @param stop where the level's sequential stop stopped ({@link TaxSettings#sweepPlan}); empty when not recorded (tests)
 * @param warmupFailures the warm-up wave's failed requests of both arms, each naming its arm (judged per arm:
 *        {@link #warmupFailuresByArm()})
 * @param futility the reading that stopped the level after its first ABBA block ({@link Futility}); empty when it ran on
 * @param firstBlockLag the double's lag over the first ABBA block alone, read at the futility look, where the double's
 *        futility rule reads it; empty on a real engine, or where the level had no such block
 * @since 0.1
 */
public record SweepLevel(int concurrency, List<LoadResult> batchesA, List<LoadResult> batchesB, LoadResult a, LoadResult b,
		ConfidenceInterval ratio, ConfidenceInterval perRequestRatio, ConfidenceInterval latencyTax, int warmupFailed,
		Optional<UpstreamLag.Reading> lag, Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop,
		List<RequestOutcome> warmupFailures, Optional<String> futility, Optional<UpstreamLag.Reading> firstBlockLag) {

	public SweepLevel {
		warmupFailures = List.copyOf(warmupFailures);
	}

	/** A level without a reading of the double's lag over its first block (tests of the report). */
	public SweepLevel(int concurrency, List<LoadResult> batchesA, List<LoadResult> batchesB, LoadResult a, LoadResult b,
			ConfidenceInterval ratio, ConfidenceInterval perRequestRatio, ConfidenceInterval latencyTax, int warmupFailed,
			Optional<UpstreamLag.Reading> lag, Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop,
			List<RequestOutcome> warmupFailures, Optional<String> futility) {
		this(concurrency, batchesA, batchesB, a, b, ratio, perRequestRatio, latencyTax, warmupFailed, lag, engineMetrics, stop,
				warmupFailures, futility, Optional.empty());
	}

	/** A level that ran on past its first block. */
	public SweepLevel(int concurrency, List<LoadResult> batchesA, List<LoadResult> batchesB, LoadResult a, LoadResult b,
			ConfidenceInterval ratio, ConfidenceInterval perRequestRatio, ConfidenceInterval latencyTax, int warmupFailed,
			Optional<UpstreamLag.Reading> lag, Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop,
			List<RequestOutcome> warmupFailures) {
		this(concurrency, batchesA, batchesB, a, b, ratio, perRequestRatio, latencyTax, warmupFailed, lag, engineMetrics, stop,
				warmupFailures, Optional.empty());
	}

	/** A level whose warm-up failures are known only by their count (tests of the report). */
	public SweepLevel(int concurrency, List<LoadResult> batchesA, List<LoadResult> batchesB, LoadResult a, LoadResult b,
			ConfidenceInterval ratio, ConfidenceInterval perRequestRatio, ConfidenceInterval latencyTax, int warmupFailed,
			Optional<UpstreamLag.Reading> lag, Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop) {
		this(concurrency, batchesA, batchesB, a, b, ratio, perRequestRatio, latencyTax, warmupFailed, lag, engineMetrics, stop, List.of());
	}

	/** A level without a recorded stop (tests of the report). */
	public SweepLevel(int concurrency, List<LoadResult> batchesA, List<LoadResult> batchesB, LoadResult a, LoadResult b,
			ConfidenceInterval ratio, ConfidenceInterval perRequestRatio, ConfidenceInterval latencyTax, int warmupFailed,
			Optional<UpstreamLag.Reading> lag, Optional<EngineMetrics> engineMetrics) {
		this(concurrency, batchesA, batchesB, a, b, ratio, perRequestRatio, latencyTax, warmupFailed, lag, engineMetrics, Optional.empty());
	}

	/** The load client's own lag over both arms' measured batches. */
	public ClientLag clientLag() {
		return ClientLag.merge(List.of(a.clientLag(), b.clientLag()));
	}

	/**
	 * A level's warm-up per arm: one wave, {@code max(c, 2)} requests (the level's batch unless {@code sweep.requests} is set), so every stream's
	 * connection is open and the engine runs {@code c} streams before the first measured batch. The JIT is warmed before
	 * the first level, not here: a sweep runs its steady warm-up ({@link SteadyWarmup}) first, a bench its own. (Until
	 * 2026-12-04 at least 8 requests: at one stream on the engine double 16 requests, 21 s of a 63 s level, after a
	 * warm-up of 320 requests at eight streams.)
	 */
	public static int warmupRequests(int c) {
		return Math.max(c, 2);
	}

	/** How {@code ratio} is computed, for the artifact. */
	public static final String RATIO_METHOD = "median over ABBA blocks of the gateway's output throughput (completion tokens "
			+ "over a batch's first send to last end; the mean of its two batches in the block) over the raw's in the same "
			+ "block: each arm runs once first and once second in a block, so the position in a pair cancels (with fewer ABBA "
			+ "blocks than an interval of a median takes: one ratio per pair; see ratio_ci.blocks.ratio_unit); percentile-"
			+ "bootstrap CI over runs of consecutive ratios as long as their correlation asks, at the sequential stop's look "
			+ "level (at least 95% coverage whichever look stops, see sequential); per_request_ratio: median per-request "
			+ "completion tokens / E2EL, CI over requests (assumes independent requests, so narrower); throughput_ratio: sum "
			+ "of tokens over each arm's own batch time, no CI";

	/** {@link #measure(TargetClient, TargetClient, RequestSource, int, TaxSettings, Optional, java.net.URI, Progress, Futility)} with the project's futility stop. */
	public static SweepLevel measure(TargetClient a, TargetClient b, RequestSource payload, int c, TaxSettings settings,
			Optional<UpstreamLag> lag, java.net.URI engine, Progress progress) {
		return measure(a, b, payload, c, settings, lag, engine, progress, Futility.DEFAULT);
	}

	/**
	 * Warms both arms up, then runs ABBA batches of {@link TaxSettings#sweepBatchSize} requests until the level's
	 * sequential stop ({@link TaxSettings#sweepPlan}) says so: at each planned look the ratio's interval, at the look's
	 * level; {@code engine} is the raw engine's base URL (its metrics). After the first ABBA block, {@code futility}
	 * may stop the level there ({@link Futility}): its ratio is then undefined, naming the reading.
	 */
	static SweepLevel measure(TargetClient a, TargetClient b, RequestSource payload, int c, TaxSettings settings,
			Optional<UpstreamLag> lag, java.net.URI engine, Progress progress, Futility futility) {
		ClosedLoop warm = new ClosedLoop(c, warmupRequests(c), 0, settings.levelTimeCap());
		RequestSource warmup = index -> payload.conversation(RequestSource.WARMUP_OFFSET / 2 + index);
		// the warm-up's requests count toward the level's progress, so its ETA is known from the first wave on
		progress.detail("warming up " + warmupRequests(c) + " requests per arm");
		List<RequestOutcome> warmupFailures = new ArrayList<>(LoadRunner.run(a, warmup, warm, progress).failed());
		warmupFailures.addAll(LoadRunner.run(b, warmup, warm, progress).failed());
		lag.ifPresent(UpstreamLag::reset);
		EngineMetrics metrics = EngineMetrics.before(engine);
		List<LoadResult> partsA = new ArrayList<>();
		List<LoadResult> partsB = new ArrayList<>();
		SequentialPlan plan = settings.sweepPlan(c);
		int batchSize = settings.sweepBatchSize(c);
		List<Interleaving.Arm> order = Interleaving.abba(plan.cap(), settings.seed() + c);
		BootstrapCi bootstrap = plan.bootstrap(settings.seed());
		int[] next = new int[2];
		String[] last = { "" };
		@SuppressWarnings("unchecked")
		Optional<String>[] futile = new Optional[]{ Optional.empty() };
		@SuppressWarnings("unchecked")
		Optional<UpstreamLag.Reading>[] firstBlock = new Optional[]{ Optional.empty() };
		SequentialPlan.Stop stop = plan.run(n -> {
			while (futile[0].isEmpty() && partsA.size() + partsB.size() < Math.min(2 * n, order.size())) {
				Interleaving.Arm arm = order.get(partsA.size() + partsB.size());
				boolean first = arm == Interleaving.Arm.A;
				ClosedLoop batch = new ClosedLoop(c, batchSize, 0, settings.levelTimeCap());
				int from = next[first ? 0 : 1];
				RequestSource slice = index -> payload.conversation(from + index);
				progress.detail(String.format(Locale.ROOT, "c=%d batch %d of at most %d per arm, next look at %d, %s", c,
						(first ? partsA : partsB).size() + 1, plan.cap(), n, last[0].isEmpty() ? soFar(partsA, partsB) : last[0]));
				(first ? partsA : partsB).add(LoadRunner.run(first ? a : b, slice, batch, progress));
				next[first ? 0 : 1] += batchSize;
				if (partsA.size() + partsB.size() == 2 * Futility.LOOK_BATCHES_PER_ARM) {
					firstBlock[0] = lag.map(UpstreamLag::read);
					futile[0] = futility.judge(partsA, partsB, firstBlock[0]);
					futile[0].ifPresent(reading -> progress.detail("c=" + c + " stopped after its first block: " + reading));
				}
			}
			if (futile[0].isPresent()) {
				return List.of();
			}
			ConfidenceInterval ratio = ratioBlocks(partsA, partsB, bootstrap.minSamples()).pairedBOverA(bootstrap);
			last[0] = "ratio at " + n + " batches " + describe(ratio, plan);
			progress.detail("c=" + c + " " + last[0]);
			return List.of(ratio);
		}, intervals -> futile[0].isPresent() || !intervals.isEmpty() && intervals.stream().allMatch(plan::narrow));
		Optional<UpstreamLag.Reading> reading = lag.map(UpstreamLag::read);
		EngineMetrics metricsAfter = metrics.after();
		String mode = "closed-loop concurrency " + c + ", " + partsA.size() + " batches of " + batchSize + " in ABBA order ("
				+ futile[0].map(f -> "stopped for futility after the first block").orElse("sequential stop: " + stop) + ")";
		LoadResult mergedA = LoadResult.merge(mode, partsA);
		LoadResult mergedB = LoadResult.merge(mode, partsB);
		ConfidenceInterval ratio = futile[0].isPresent()
				? ConfidenceInterval.undefined("median ratio over ABBA blocks", "stopped for futility: " + futile[0].get(),
						plan.lookLevel(), 0, settings.seed())
				: stop.intervals().get(0);
		return new SweepLevel(c, List.copyOf(partsA), List.copyOf(partsB), mergedA, mergedB, ratio,
				bootstrap.ratioOfMedians(tps(mergedB), tps(mergedA)), bootstrap.ratioOfMedians(e2elS(mergedB), e2elS(mergedA)),
				warmupFailures.size(), reading, Optional.of(metricsAfter), futile[0].isPresent() ? Optional.empty() : Optional.of(stop),
				warmupFailures, futile[0], firstBlock[0]);
	}

	/**
	 * Before the first look, for the person watching: the median of the finished pairs' throughput ratios (B over A), no
	 * interval; what stops the level is only the look's interval.
	 */
	static String soFar(List<LoadResult> a, List<LoadResult> b) {
		double[] ratios = java.util.stream.IntStream.range(0, Math.min(a.size(), b.size()))
				.mapToDouble(k -> b.get(k).outputThroughput() / a.get(k).outputThroughput())
				.filter(r -> Double.isFinite(r) && r > 0)
				.sorted()
				.toArray();
		if (ratios.length == 0) {
			return "ratio ?";
		}
		int m = ratios.length / 2;
		double median = ratios.length % 2 == 1 ? ratios[m] : (ratios[m - 1] + ratios[m]) / 2;
		return String.format(Locale.ROOT, "ratio so far %.4f over %d pair%s (no interval before the first look)", median, ratios.length,
				ratios.length == 1 ? "" : "s");
	}

	/** {@code 0.9973 [0.9962, 0.9981] (98.3 %)}, or why there is no interval. */
	static String describe(ConfidenceInterval ratio, SequentialPlan plan) {
		return ratio.isDefined()
				? String.format(Locale.ROOT, "%.4f [%.4f, %.4f] (%.1f %%, target +/-%.2f %%)", ratio.estimate(), ratio.lo(), ratio.hi(),
						ratio.level() * 100, plan.targetHalfWidth() * 100)
				: "undefined: " + ratio.reason().orElse("");
	}

	/**
	 * The batches of both arms as {@link PairedBlocks}: the {@code k}-th batch of each arm share an ABBA pair; a batch
	 * without a throughput (nothing decoded) gives its pair no value on that arm. One ratio per whole ABBA block
	 * ({@link PairedBlocks#ofAbbaBlocks}) once there are at least {@code minBlocks} of them, else one per pair: chosen by
	 * the count alone, before any ratio is seen, so each look's interval keeps its level.
	 */
	static PairedBlocks ratioBlocks(List<LoadResult> a, List<LoadResult> b, int minBlocks) {
		return Math.min(a.size(), b.size()) / 2 >= minBlocks
				? PairedBlocks.ofAbbaBlocks(batchTps(a), batchTps(b), minBlocks)
				: PairedBlocks.ofPairs(batchTps(a), batchTps(b), minBlocks);
	}

	/** The blocks {@link #ratio()}'s interval was drawn over (the fewest blocks as at its level). */
	public PairedBlocks ratioBlocks() {
		return ratioBlocks(batchesA, batchesB, BootstrapCi.seeded(0).withLevel(ratio.level()).minSamples());
	}

	private static List<List<Double>> batchTps(List<LoadResult> batches) {
		return batches.stream()
				.map(LoadResult::outputThroughput)
				.map(v -> Double.isFinite(v) && v > 0 ? List.of(v) : List.<Double>of())
				.toList();
	}

	private static double[] tps(LoadResult result) {
		return result.ok().stream().mapToDouble(RequestOutcome::outputTpsPerRequest).filter(Double::isFinite).toArray();
	}

	private static double[] e2elS(LoadResult result) {
		return result.ok().stream().mapToDouble(o -> o.e2elMs() / 1000).toArray();
	}

	/** Aggregate output throughput of B over A; {@code NaN} when either is unknown. */
	public double throughputRatio() {
		return b.outputThroughput() / a.outputThroughput();
	}

	/** Failed requests over both arms. */
	public int failed() {
		return a.failed().size() + b.failed().size() + a.notSent() + b.notSent();
	}

	/** Each arm's failed measured requests at this level ({@link ArmFailures}). */
	ArmFailures failures() {
		return ArmFailures.failures("c=" + concurrency, a.outcomes(), b.outcomes());
	}

	/** Each arm's failed warm-up wave requests at this level, the gateway's first error named. */
	ArmFailures warmupFailuresByArm() {
		List<RequestOutcome> gateway = warmupFailures.stream().filter(o -> o.target().equals(b.target())).toList();
		return new ArmFailures("c=" + concurrency + " warm-up", warmupFailures.size() - gateway.size(), gateway.size(),
				warmupRequests(concurrency), gateway.stream().findFirst().map(RequestOutcome::error).orElse(null));
	}

	/** Each arm's requests whose first attempt was dropped on a reused connection at this level. */
	ArmFailures retries() {
		return ArmFailures.retries("c=" + concurrency, a.outcomes(), b.outcomes());
	}

	/** The level object: {@code concurrency, <nameA>, <nameB>, ratio, ratio_ci95, ...}. */
	public ObjectNode toJson(String nameA, String nameB) {
		ObjectNode level = Json.MAPPER.createObjectNode();
		level.put("concurrency", concurrency);
		LoadSummary.of(a, Optional.empty()).writeTo(level.putObject(nameA));
		LoadSummary.of(b, Optional.empty()).writeTo(level.putObject(nameB));
		JsonNumbers.put(level, "ratio", ratio.estimate(), 4);
		JsonNumbers.putPair(level, "ratio_ci95", ratio.lo(), ratio.hi(), 4);
		ObjectNode ratioCi = level.putObject("ratio_ci");
		ratio.writeTo(ratioCi, 4);
		ratioBlocks().writeTo(ratioCi.putObject("blocks"));
		stop.ifPresent(s -> s.writeTo(level.putObject("sequential"), "batches per arm"));
		futility.ifPresent(reading -> level.putObject("futility_stop").put("reading", reading).put("rule", Futility.RULE));
		ObjectNode batches = level.putObject("batch_output_throughput");
		ArrayNode throughputA = batches.putArray(nameA);
		batchesA.forEach(r -> JsonNumbers.add(throughputA, r.outputThroughput(), 3));
		ArrayNode throughputB = batches.putArray(nameB);
		batchesB.forEach(r -> JsonNumbers.add(throughputB, r.outputThroughput(), 3));
		ObjectNode batchLag = level.putObject("batch_client_lag_p99_us");
		ArrayNode lagA = batchLag.putArray(nameA);
		batchesA.forEach(r -> JsonNumbers.add(lagA, r.clientLag().p99Micros(), 0));
		ArrayNode lagB = batchLag.putArray(nameB);
		batchesB.forEach(r -> JsonNumbers.add(lagB, r.clientLag().p99Micros(), 0));
		JsonNumbers.put(level, "per_request_ratio", perRequestRatio.estimate(), 4);
		JsonNumbers.putPair(level, "per_request_ratio_ci95", perRequestRatio.lo(), perRequestRatio.hi(), 4);
		JsonNumbers.put(level, "throughput_ratio", throughputRatio(), 4);
		JsonNumbers.put(level, "latency_tax", latencyTax.estimate(), 4);
		JsonNumbers.putPair(level, "latency_tax_ci95", latencyTax.lo(), latencyTax.hi(), 4);
		level.put("warmup_requests", warmupRequests(concurrency));
		level.put("warmup_failed", warmupFailed);
		ObjectNode warmupByArm = level.putObject("warmup_failed_by_arm");
		warmupByArm.put(nameA, warmupFailures.stream().filter(o -> o.target().equals(a.target())).count());
		warmupByArm.put(nameB, warmupFailures.stream().filter(o -> !o.target().equals(a.target())).count());
		lag.ifPresent(l -> l.writeTo(level.putObject("engine_double_lag")));
		firstBlockLag.ifPresent(l -> l.writeTo(level.putObject("first_block_engine_double_lag")));
		clientLag().writeTo(level.putObject("client_lag"));
		engineMetrics.ifPresent(m -> m.writeTo(level.putObject("engine_metrics")));
		Adjudication.of(a.outcomes(), b.outcomes()).ifPresent(adj -> adj.writeTo(level.putObject("adjudication")));
		return level;
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT, "c=%d ratio %.4f [%.4f, %.4f]", concurrency, ratio.estimate(), ratio.lo(), ratio.hi());
	}
}
