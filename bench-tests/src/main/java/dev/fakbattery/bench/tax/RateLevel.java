package dev.fakbattery.bench.tax;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.AlternatingOpenLoop;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.core.stats.Slo;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

/**
 * One offered rate of the rate sweep: raw and gateway in one sustained open loop ({@code burstiness}-shaped arrivals
 * at {@code rate}, at most {@code max.concurrency} in flight) whose batches of arrivals take turns between the arms in
 * ABBA order, the same conversations on both arms; every request judged against the SLOs ({@link Goodput}).
 *
 * @param rate offered requests per second
 * @param a arm A merged (raw)
 * @param b arm B merged (gateway)
 * @param goodputA arm A's goodput
 * @param goodputB arm B's goodput
 * @param lag the double's lag over the batches; empty on a real engine
 * @param engineMetrics the engine's {@code /metrics} before and after
 * @param stop where the level's sequential decision stopped ({@link TaxSettings#ratePlan()}); empty when not recorded
 *        (tests), then its intervals are at 95 %
 * @param idleAtStart how the engine stood when the level began, waited for to run nothing ({@link EngineMetrics#awaitIdle});
 *        empty when not recorded (tests)
 * @param rampFailures the ramp's failed requests of both arms ({@link AlternatingOpenLoop#rampFailures()}), each naming its
 *        arm; their counts are {@code a.warmupFailed()} and {@code b.warmupFailed()}
 * @since 0.3
 */
public record RateLevel(double rate, LoadResult a, LoadResult b, Goodput goodputA, Goodput goodputB, Optional<UpstreamLag.Reading> lag,
		Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop, Optional<EngineMetrics.Idle> idleAtStart,
		List<RequestOutcome> rampFailures) {

	public RateLevel {
		rampFailures = List.copyOf(rampFailures);
	}

	/** A level without its ramp's failed requests kept (tests of the report): only their counts. */
	public RateLevel(double rate, LoadResult a, LoadResult b, Goodput goodputA, Goodput goodputB, Optional<UpstreamLag.Reading> lag,
			Optional<EngineMetrics> engineMetrics, Optional<SequentialPlan.Stop> stop, Optional<EngineMetrics.Idle> idleAtStart) {
		this(rate, a, b, goodputA, goodputB, lag, engineMetrics, stop, idleAtStart, List.of());
	}

	/** A level without a recorded stop or start (tests of the report). */
	public RateLevel(double rate, LoadResult a, LoadResult b, Goodput goodputA, Goodput goodputB, Optional<UpstreamLag.Reading> lag,
			Optional<EngineMetrics> engineMetrics) {
		this(rate, a, b, goodputA, goodputB, lag, engineMetrics, Optional.empty(), Optional.empty());
	}

	/** The longest a level waits for the engine to finish what the level before it left running. */
	public static final Duration IDLE_CAP = Duration.ofSeconds(30);

	/** The rule of a level's sequential decision, for the artifact. */
	public static final String RULE = "stop at the first planned look where each arm's attainment interval (Wilson score, at the "
			+ "look's level) lies wholly at or above the attainment target (met) or wholly below it (missed), else at the cap";

	/** Why the decision's intervals keep their coverage, for the artifact. */
	public static final String METHOD = "group-sequential, Bonferroni alpha spending: K looks planned before the first batch, each "
			+ "interval at 1 - alpha/K, so the interval of whichever look stops covers with at least 1 - alpha (union bound)";

	/**
	 * The ramp to the rate's state before a level's first measured batch, unmeasured: this many times
	 * {@code rate.batch.seconds} of arrivals (at least one request; a batch of a low rate, at least 8 requests, can be
	 * longer).
	 */
	public static final int RAMP_BATCHES = 2;

	/** The ramp's arrivals at {@code rate}: {@value #RAMP_BATCHES} x {@code rate.batch.seconds} of them, at least 1. */
	static int rampRequests(double rate, TaxSettings.RateLoad load) {
		return (int) Math.max(1, Math.round(rate * RAMP_BATCHES * load.batchSeconds()));
	}

	/**
	 * Offers {@code rate} to both arms as one sustained open loop ({@link AlternatingOpenLoop}): a ramp of
	 * {@value #RAMP_BATCHES} x {@code rate.batch.seconds} of unmeasured arrivals, then batches of {@code rate.batch.seconds} of arrivals
	 * taking turns between the arms in ABBA order, the arrivals going on while a look waits for its batches' answers;
	 * until the level's sequential decision stops ({@link TaxSettings#ratePlan()}): at each planned look both arms'
	 * attainment intervals at the look's level, stopping once each is decided (met or missed), else at the cap. A look
	 * waits for a request up to its hard bound ({@link AlternatingOpenLoop#HARD_BOUND_FACTOR} x the longest a request
	 * meeting the SLOs can take, plus {@link AlternatingOpenLoop#KNOWN_BAD_MARGIN_MS} ms): past it the request is a failure on
	 * its arm, saying so. The loop then stops at once: its later arrivals are never sent and what is in flight is ended.
	 */
	public static RateLevel measure(TargetClient a, TargetClient b, RequestSource source, double rate, TaxSettings settings,
			Optional<UpstreamLag> lag, URI engine, Progress progress) {
		TaxSettings.RateLoad load = settings.load();
		int size = load.batchRequests(rate);
		List<Interleaving.Arm> order = order(rate, settings);
		boolean[] firstBySegment = new boolean[order.size()];
		for (int i = 0; i < firstBySegment.length; i++) {
			firstBySegment[i] = order.get(i) == Interleaving.Arm.A;
		}
		// the level before stopped its loop with requests in flight: the engine ends them when it next writes to them
		EngineMetrics.Idle idle = EngineMetrics.awaitIdle(engine, IDLE_CAP);
		lag.ifPresent(UpstreamLag::reset);
		EngineMetrics metrics = EngineMetrics.before(engine);
		Batches batches;
		List<RequestOutcome> rampFailures;
		// the loop stops by itself: its ramp and every batch's arrivals, then the level's cap for the last answers
		int ramp = rampRequests(rate, load);
		Duration cap = settings.levelTimeCap().plusNanos(Math.round((ramp + (double) order.size() * size) / rate * 1e9));
		try (AlternatingOpenLoop loop = AlternatingOpenLoop.start(a, b, source, rate, load.burstiness(), settings.seed(),
				ramp,
				size, firstBySegment, load.maxConcurrency(), cap, Optional.of(load.slo()), progress)) {
			batches = decide(rate, settings, (segment, first, start, count) -> loop.segment(segment), progress);
			rampFailures = loop.rampFailures();
		}
		Optional<UpstreamLag.Reading> reading = lag.map(UpstreamLag::read);
		SequentialPlan.Stop stop = batches.stop();
		String mode = "sustained open loop at " + rate + " req/s: a ramp of " + ramp + " arrivals, then " + stop.used()
				+ " batches of " + size + " arrivals per arm taking turns in ABBA order, arrivals going on throughout (sequential "
				+ "decision: " + stop.used() + " of at most " + stop.plan().cap() + (stop.capHit() ? ", cap hit undecided" : ", decided")
				+ ")";
		LoadResult mergedA = LoadResult.merge(mode, batches.a());
		LoadResult mergedB = LoadResult.merge(mode, batches.b());
		return new RateLevel(rate, mergedA, mergedB, goodput(mergedA, settings), goodput(mergedB, settings), reading,
				Optional.of(metrics.after()), Optional.of(stop), Optional.of(idle), rampFailures);
	}

	/** The arms' turns at {@code rate}: ABBA over the plan's cap, seeded by the rate. */
	static List<Interleaving.Arm> order(double rate, TaxSettings settings) {
		return Interleaving.abba(settings.ratePlan().cap(), settings.seed() + Math.round(rate * 1000));
	}

	/** Reads one batch: its place in run order, arm A ({@code first}) or B, its first conversation index and request count. */
	@FunctionalInterface
	interface BatchRun {
		LoadResult run(int segment, boolean first, int start, int size);
	}

	/** Each arm's batches in run order, and where the level's decision stopped. */
	record Batches(List<LoadResult> a, List<LoadResult> b, SequentialPlan.Stop stop) {
	}

	/**
	 * The level's batches in ABBA order until its sequential decision stops ({@link TaxSettings#ratePlan()}): at each
	 * look both arms' attainment intervals at the look's level; stop once both are decided, else at the cap.
	 */
	static Batches decide(double rate, TaxSettings settings, BatchRun batch, Progress progress) {
		int size = settings.load().batchRequests(rate);
		SequentialPlan plan = settings.ratePlan();
		List<LoadResult> partsA = new ArrayList<>();
		List<LoadResult> partsB = new ArrayList<>();
		List<Interleaving.Arm> order = order(rate, settings);
		int[] next = new int[2];
		SequentialPlan.Stop stop = plan.run(n -> {
			while (partsA.size() + partsB.size() < Math.min(2 * n, order.size())) {
				boolean first = order.get(partsA.size() + partsB.size()) == Interleaving.Arm.A;
				List<LoadResult> parts = first ? partsA : partsB;
				progress.detail(String.format(java.util.Locale.ROOT, "rate %.2f req/s, %s batch %d of at most %d per arm, next look at %d, "
						+ "%d requests each", rate, first ? "raw" : "gateway", parts.size() + 1, plan.cap(), n, size));
				parts.add(batch.run(partsA.size() + partsB.size(), first, next[first ? 0 : 1], size));
				next[first ? 0 : 1] += size;
			}
			return List.of(point(rate, LoadResult.merge("look", partsA), settings.load().slo()).attainmentInterval(plan.lookLevel()),
					point(rate, LoadResult.merge("look", partsB), settings.load().slo()).attainmentInterval(plan.lookLevel()));
		}, intervals -> intervals.stream()
				.noneMatch(ci -> RateSearch.decision(ci, settings.load().attainment()).equals(RateSearch.UNDECIDED)));
		return new Batches(List.copyOf(partsA), List.copyOf(partsB), stop);
	}

	/**
	 * The arm's point, its design effect estimated from its requests judged in the order they were planned to go out
	 * (batches in run order; unsent requests last, as not good): misses in runs count for fewer independent requests.
	 */
	static RateSearch.Point point(double rate, LoadResult result, Slo slo) {
		List<RequestOutcome> inOrder = result.outcomes()
				.stream()
				.sorted(java.util.Comparator.comparingLong(RequestOutcome::intendedNanos))
				.toList();
		boolean[] good = new boolean[inOrder.size() + result.notSent()];
		for (int i = 0; i < inOrder.size(); i++) {
			good[i] = slo.isMetBy(inOrder.get(i).timing());
		}
		return RateSearch.Point.ofSeries(rate, good);
	}

	/** The level of this level's attainment intervals: its plan's look level, 95 % when no stop was recorded. */
	public double intervalLevel() {
		return stop.map(s -> s.plan().lookLevel()).orElse(0.95);
	}

	private static Goodput goodput(LoadResult result, TaxSettings settings) {
		return Goodput.of(settings.load().slo(), result.outcomes().stream().map(RequestOutcome::timing).toList(), result.durationS());
	}

	/** Arm A's point for the search: requests (unsent ones included, as not good) and good requests. */
	public RateSearch.Point pointA() {
		return point(a, goodputA);
	}

	/** Arm B's point for the search. */
	public RateSearch.Point pointB() {
		return point(b, goodputB);
	}

	private RateSearch.Point point(LoadResult result, Goodput goodput) {
		return point(rate, result, goodput.slo());
	}

	/** The client's lag over both arms. */
	public ClientLag clientLag() {
		return ClientLag.merge(List.of(a.clientLag(), b.clientLag()));
	}

	/**
	 * {@code attainment raw 1.00 [0.90, 1.00] met, gateway 0.58 [0.42, 0.72] missed (95 % Wilson, target 0.90)}: the
	 * progress line's detail once the level is done.
	 */
	public String attainmentLine(double target) {
		return String.format(java.util.Locale.ROOT, "attainment raw %s, gateway %s (%.1f %% Wilson, target %.2f)%s",
				attainment(pointA(), target, intervalLevel()), attainment(pointB(), target, intervalLevel()), intervalLevel() * 100,
				target, stop.map(s -> String.format(java.util.Locale.ROOT, ", %d of at most %d batches per arm", s.used(), s.plan().cap()))
						.orElse(""));
	}

	/**
	 * The interval's fields ({@link ConfidenceInterval#writeTo}, method {@value RateSearch#WILSON}), {@code good},
	 * {@code requests}, {@code design_effect} and {@code effective_requests}.
	 */
	private static void writeAttainment(RateSearch.Point point, double level, ObjectNode node) {
		point.attainmentInterval(level).writeTo(node, 4);
		node.put("good", point.good());
		node.put("requests", point.requests());
		JsonNumbers.put(node, "design_effect", point.designEffect(), 3);
		JsonNumbers.put(node, "effective_requests", point.effectiveRequests(), 1);
	}

	/** {@code rule, method, target, level, look_level, looks, unit, cap, used, cap_hit}. */
	private static void writeStop(SequentialPlan.Stop stop, double target, ObjectNode node) {
		node.put("rule", RULE);
		node.put("method", METHOD);
		node.put("target", target);
		node.put("level", stop.plan().level());
		JsonNumbers.put(node, "look_level", stop.plan().lookLevel(), 6);
		ArrayNode looks = node.putArray("looks");
		stop.plan().looks().forEach(looks::add);
		node.put("unit", "batches per arm");
		node.put("cap", stop.plan().cap());
		node.put("used", stop.used());
		node.put("cap_hit", stop.capHit());
	}

	private static String attainment(RateSearch.Point point, double target, double level) {
		ConfidenceInterval ci = point.attainmentInterval(level);
		return ci.isDefined()
				? String.format(java.util.Locale.ROOT, "%.2f [%.2f, %.2f] %s", ci.estimate(), ci.lo(), ci.hi(),
						point.decision(target, level))
				: "undefined";
	}

	/** Failed and unsent requests over both arms; a request past its hard bound is a failure on its arm. */
	public int failed() {
		return a.failed().size() + b.failed().size() + a.notSent() + b.notSent();
	}

	/** Each arm's failed measured requests at this rate ({@link ArmFailures}). */
	ArmFailures failures() {
		return ArmFailures.failures(rate(this), a.outcomes(), b.outcomes());
	}

	/**
	 * Each arm's failed ramp requests: the counts from the segments ({@link LoadResult#warmupFailed()}), the gateway's
	 * first error where the ramp's failures were kept.
	 */
	ArmFailures rampFailuresByArm() {
		return new ArmFailures("ramp at " + rate(this), a.warmupFailed(), b.warmupFailed(), b.warmupSent(), rampFailures.stream()
				.filter(o -> o.target().equals(b.target()))
				.findFirst()
				.map(RequestOutcome::error)
				.orElse(null));
	}

	/** Each arm's requests whose first attempt was dropped on a reused connection at this rate. */
	ArmFailures retries() {
		return ArmFailures.retries(rate(this), a.outcomes(), b.outcomes());
	}

	private static String rate(RateLevel level) {
		return String.format(java.util.Locale.ROOT, "%.2f req/s", level.rate());
	}

	/** {@code rate, raw{...}, gateway{...}} with goodput, attainment, latency percentiles, queue time and lags. */
	public ObjectNode toJson(double attainment) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("rate", rate);
		LoadSummary.of(a, Optional.of(goodputA.slo())).writeTo(node.putObject("raw"));
		LoadSummary.of(b, Optional.of(goodputB.slo())).writeTo(node.putObject("gateway"));
		node.put("raw_met", pointA().attainment() >= attainment);
		node.put("gateway_met", pointB().attainment() >= attainment);
		// how sure each met is: the attainment's Wilson interval (at the sequential look's level) against the target
		writeAttainment(pointA(), intervalLevel(), node.putObject("raw_attainment_ci"));
		writeAttainment(pointB(), intervalLevel(), node.putObject("gateway_attainment_ci"));
		node.put("raw_decision", pointA().decision(attainment, intervalLevel()));
		node.put("gateway_decision", pointB().decision(attainment, intervalLevel()));
		stop.ifPresent(s -> writeStop(s, attainment, node.putObject("sequential")));
		lag.ifPresent(l -> l.writeTo(node.putObject("engine_double_lag")));
		clientLag().writeTo(node.putObject("client_lag"));
		engineMetrics.ifPresent(m -> m.writeTo(node.putObject("engine_metrics")));
		idleAtStart.ifPresent(i -> i.writeTo(node.putObject("engine_idle_at_start")));
		ArrayNode ramp = node.putArray("ramp_failures");
		rampFailures.forEach(o -> ramp.addObject().put("arm", o.target()).put("http_status", o.httpStatus()).put("error", o.error()));
		return node;
	}
}
