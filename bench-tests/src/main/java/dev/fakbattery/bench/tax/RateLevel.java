package dev.fakbattery.bench.tax;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ArrivalSchedule;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.OpenLoop;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.wire.Json;

/**
 * One offered rate of the rate sweep: raw and gateway, each in batches of an open loop ({@code burstiness}-shaped
 * arrivals at {@code rate}, at most {@code max.concurrency} in flight) ordered ABBA, the same conversations on both
 * arms; every request judged against the SLOs ({@link Goodput}).
 *
 * @param rate offered requests per second
 * @param a arm A merged (raw)
 * @param b arm B merged (gateway)
 * @param goodputA arm A's goodput
 * @param goodputB arm B's goodput
 * @param lag the double's lag over the batches; empty on a real engine
 * @param engineMetrics the engine's {@code /metrics} before and after
 * @since 0.3
 */
public record RateLevel(double rate, LoadResult a, LoadResult b, Goodput goodputA, Goodput goodputB, Optional<UpstreamLag.Reading> lag,
		Optional<EngineMetrics> engineMetrics) {

	/** Runs the batches of both arms at {@code rate}. */
	public static RateLevel measure(TargetClient a, TargetClient b, RequestSource source, double rate, TaxSettings settings,
			Optional<UpstreamLag> lag, URI engine, Progress progress) {
		TaxSettings.RateLoad load = settings.load();
		int size = load.batchRequests(rate);
		lag.ifPresent(UpstreamLag::reset);
		EngineMetrics metrics = EngineMetrics.before(engine);
		List<LoadResult> partsA = new ArrayList<>();
		List<LoadResult> partsB = new ArrayList<>();
		int[] next = new int[2];
		int batch = 0;
		for (Interleaving.Arm arm : Interleaving.abba(2, settings.seed() + Math.round(rate * 1000))) {
			boolean first = arm == Interleaving.Arm.A;
			int start = next[first ? 0 : 1];
			progress.detail(String.format(java.util.Locale.ROOT, "rate %.2f req/s, batch %d of 4 (%s), %d requests each", rate, batch + 1,
					first ? "raw" : "gateway", size));
			ArrivalSchedule arrivals = ArrivalSchedule.gamma(size, rate, load.burstiness(), settings.seed() + start);
			OpenLoop open = new OpenLoop(arrivals, load.maxConcurrency(), 0, settings.levelTimeCap());
			(first ? partsA : partsB).add(LoadRunner.run(first ? a : b, index -> source.conversation(start + index), open, progress));
			next[first ? 0 : 1] += size;
			batch++;
		}
		Optional<UpstreamLag.Reading> reading = lag.map(UpstreamLag::read);
		String mode = "open loop at " + rate + " req/s, " + batch / 2 + " batches of " + size + " per arm in ABBA order";
		LoadResult mergedA = LoadResult.merge(mode, partsA);
		LoadResult mergedB = LoadResult.merge(mode, partsB);
		return new RateLevel(rate, mergedA, mergedB, goodput(mergedA, settings), goodput(mergedB, settings), reading,
				Optional.of(metrics.after()));
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
		return new RateSearch.Point(rate, result.outcomes().size() + result.notSent(), goodput.good());
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
		return String.format(java.util.Locale.ROOT, "attainment raw %s, gateway %s (95 %% Wilson, target %.2f)",
				attainment(pointA(), target),
				attainment(pointB(), target), target);
	}

	/** The interval's fields ({@link ConfidenceInterval#writeTo}, method {@value RateSearch#WILSON}), {@code good} and {@code requests}. */
	private static void writeAttainment(RateSearch.Point point, ObjectNode node) {
		point.attainmentInterval().writeTo(node, 4);
		node.put("good", point.good());
		node.put("requests", point.requests());
	}

	private static String attainment(RateSearch.Point point, double target) {
		ConfidenceInterval ci = point.attainmentInterval();
		return ci.isDefined()
				? String.format(java.util.Locale.ROOT, "%.2f [%.2f, %.2f] %s", ci.estimate(), ci.lo(), ci.hi(), point.decision(target))
				: "undefined";
	}

	/** Failed and unsent requests over both arms. */
	public int failed() {
		return a.failed().size() + b.failed().size() + a.notSent() + b.notSent();
	}

	/** {@code rate, raw{...}, gateway{...}} with goodput, attainment, latency percentiles, queue time and lags. */
	public ObjectNode toJson(double attainment) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("rate", rate);
		LoadSummary.of(a, Optional.of(goodputA.slo())).writeTo(node.putObject("raw"));
		LoadSummary.of(b, Optional.of(goodputB.slo())).writeTo(node.putObject("gateway"));
		node.put("raw_met", pointA().attainment() >= attainment);
		node.put("gateway_met", pointB().attainment() >= attainment);
		// how sure each met is: the attainment's Wilson interval against the target
		writeAttainment(pointA(), node.putObject("raw_attainment_ci"));
		writeAttainment(pointB(), node.putObject("gateway_attainment_ci"));
		node.put("raw_decision", pointA().decision(attainment));
		node.put("gateway_decision", pointB().decision(attainment));
		lag.ifPresent(l -> l.writeTo(node.putObject("engine_double_lag")));
		clientLag().writeTo(node.putObject("client_lag"));
		engineMetrics.ifPresent(m -> m.writeTo(node.putObject("engine_metrics")));
		return node;
	}
}
