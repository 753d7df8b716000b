package dev.fakbattery.bench.tax;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.preflight.ServedModels;
import dev.fakbattery.bench.preflight.SystemPreflightProbes;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.wire.JsonNumbers;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Rung 3's concurrency sweep: for each level of {@code sweep.concurrency}, raw and gateway in one run
 * ({@link SweepLevel}: warm-up, at least six ABBA closed-loop batches per arm), plus an A/A level (raw against raw)
 * as the noise floor, judged on the same batch throughput ratio; writes {@code levels[]} each {@code {concurrency, raw, gateway, ratio,
 * ratio_ci95, ...}}, and two PNG plots beside the artifact ({@link SweepPlot}), attached to the report.
 *
 * @since 0.1
 */
public final class ConcurrencySweep {

	/** The ratio plot's file name in {@code experiments.dir}. */
	public static final String RATIO_PLOT = "concurrency-sweep-ratio.png";

	/** The E2EL CDF plot's file name in {@code experiments.dir}. */
	public static final String CDF_PLOT = "concurrency-sweep-e2el-cdf.png";

	private ConcurrencySweep() {
	}

	/** Runs the sweep against {@code upstream} and records everything into {@code run}. */
	public static void run(RungRecorder run, TaxSettings settings, TaxUpstream upstream) {
		upstream.simulated().ifPresent(run::simulated);
		ObjectNode body = run.body();
		ServedModels served = SystemPreflightProbes.create().models(upstream.baseUrl());
		Optional<String> model = run.config().string(HarnessConstants.MODEL).or(() -> served.ids().stream().findFirst());
		Optional<String> problem = TaxWitness.upstreamProblem(upstream.baseUrl(), served, model);
		writeHeader(body, settings, upstream, model, run);
		run.check("upstream_models", problem.isEmpty(), "GET " + upstream.baseUrl() + "/models answers 200 serving the model",
				problem.orElse("HTTP 200, serves " + served.ids()));
		List<SweepLevel> levels = new ArrayList<>();
		Optional<SweepLevel> noise = Optional.empty();
		List<SteadyWarmup> warmup = new ArrayList<>();
		List<HostCalibration> calibration = new ArrayList<>();
		HostCalibration.Force force = HostCalibration.Force.from(run.config());
		String skipped = problem.map(p -> "the raw engine is not usable: " + p).orElse(null);
		if (skipped == null) {
			GatewayStart start = GatewayStart.start(run.config(), upstream.baseUrl(), model.orElseThrow(), upstream.engine(),
					run.config().experimentsDir().resolve("logs"));
			body.set("gateway_process", start.process());
			if (start.gateway().isEmpty()) {
				skipped = start.failure().orElseThrow();
			}
			else {
				try (GatewayUnderTest gateway = start.gateway().get()) {
					noise = measure(body, settings, upstream, gateway.baseUrl(), model.orElseThrow(), levels, warmup, calibration, force);
				}
			}
		}
		else {
			body.putObject("gateway_process").put("mode", "planned").put("error", "not started: " + skipped);
		}
		writeLevels(body, levels, noise);
		if (skipped != null) {
			body.put("skipped", skipped);
		}
		List<Path> plots = plots(run, levels, upstream.simulated().isPresent());
		SweepReport.checks(run, settings, upstream, warmup.stream().findFirst(), calibration.stream().findFirst(), levels, noise, plots,
				skipped);
	}

	/**
	 * The steady warm-up, the host calibration, every level the calibration says this host can judge (or that is forced),
	 * then the A/A level at {@link TaxSettings#noiseFloorLevel()} when that level can be judged; empty when it cannot.
	 */
	private static Optional<SweepLevel> measure(ObjectNode body, TaxSettings settings, TaxUpstream upstream, URI gatewayUrl, String model,
			List<SweepLevel> levels, List<SteadyWarmup> warmup, List<HostCalibration> calibration, HostCalibration.Force force) {
		RequestSource payload = settings.workload().requests(model, true);
		try (TargetClient raw = client("raw", upstream.baseUrl(), settings);
				TargetClient gateway = gatewayClient(gatewayUrl, upstream.baseUrl(), settings)) {
			warmup.add(SteadyWarmup.run(raw, gateway, payload, SteadyWarmup.concurrency(settings.levels()), settings.warmupCap(),
					settings.levelTimeCap()));
			warmup.get(0).writeTo(body.putObject("warmup"));
			Progress probes = Progress.start("tax", "host calibration raw+gateway requests",
					2L * settings.levels().stream().mapToInt(HostCalibration::probeRequestsPerArm).sum());
			calibration.add(HostCalibration.run(raw, gateway, payload, settings.levels(), force, settings.levelTimeCap(), upstream.lag(),
					probes));
			probes.finish();
			calibration.get(0).writeTo(body.putObject("host_calibration"));
			for (int c : settings.levels()) {
				if (!calibration.get(0).runs(c)) {
					continue;
				}
				Progress progress = Progress.start("tax", "sweep c=" + c + " raw+gateway requests", 2L * capRequests(settings, c));
				levels.add(SweepLevel.measure(raw, gateway, payload, c, settings, upstream.lag(), upstream.baseUrl(), progress,
						force.covers(c) ? Futility.NEVER : Futility.DEFAULT));
				progress.finish();
			}
		}
		int c = settings.noiseFloorLevel();
		if (!calibration.get(0).runs(c)) {
			return Optional.empty();
		}
		// two new clients, each with only this level's warm-up: the A/A arms have the same history by construction (not a
		// measured cause: on the container the A/A read 0.985 with the sweep's raw client against a new one, 1.009 so)
		try (TargetClient first = client("raw", upstream.baseUrl(), settings);
				TargetClient second = client("raw_b", upstream.baseUrl(), settings)) {
			TaxSettings floor = settings.forNoiseFloor();
			Progress progress = Progress.start("tax", "sweep A/A c=" + c + " raw+raw requests", 2L * capRequests(floor, c));
			SweepLevel noise = SweepLevel.measure(first, second, payload, c, floor, upstream.lag(), upstream.baseUrl(), progress,
					force.covers(c) ? Futility.NEVER : Futility.DEFAULT);
			progress.finish();
			return Optional.of(noise);
		}
	}

	/** A level's requests per arm at most: its warm-up wave and its batches up to the cap. */
	private static long capRequests(TaxSettings settings, int c) {
		return SweepLevel.warmupRequests(c) + (long) settings.sweepBatchesPerArm(c) * settings.sweepBatchSize(c);
	}

	private static TargetClient client(String name, URI base, TaxSettings settings) {
		return TargetClient.open(name, base, settings.headers(), TargetClient.DEFAULT_RESPONSE_TIMEOUT);
	}

	/** The gateway arm's client: the gateway's own request headers too ({@link TaxSettings#gatewayArmHeaders}). */
	private static TargetClient gatewayClient(URI gatewayUrl, URI upstream, TaxSettings settings) {
		return TargetClient.open("gateway", gatewayUrl, settings.gatewayArmHeaders(upstream), TargetClient.DEFAULT_RESPONSE_TIMEOUT);
	}

	private static void writeHeader(ObjectNode body, TaxSettings settings, TaxUpstream upstream, Optional<String> model,
			RungRecorder run) {
		body.put("model", model.orElse(null));
		body.put("base_url", upstream.baseUrl().toString());
		// the engine measured (the double is named so), never the configured dialect passed off as one; the dialect beside it
		body.put("engine", run.target().map(TargetIdentity::engineKind).orElse(null));
		body.put("dialect", upstream.engine().id());
		body.put("max_tokens", settings.maxTokens());
		settings.workload().writeTo(body.putObject("workload_spec"));
		settings.levels().forEach(body.putArray("concurrency_levels")::add);
		ArrayNode requests = body.putArray("requests_per_arm");
		settings.levels().forEach(c -> requests.add(settings.sweepRequests(c)));
		ArrayNode batches = body.putArray("batches_per_arm");
		settings.levels().forEach(c -> batches.add(settings.sweepBatchesPerArm(c)));
		ArrayNode sizes = body.putArray("batch_requests");
		settings.levels().forEach(c -> sizes.add(settings.sweepBatchSize(c)));
		TaxSettings floor = settings.forNoiseFloor();
		int noiseLevel = settings.noiseFloorLevel();
		body.putObject("noise_floor_plan")
				.put("concurrency", noiseLevel)
				.put("requests_per_arm", settings.noiseFloorRequests())
				.put("batches_per_arm", floor.sweepBatchesPerArm(noiseLevel))
				.put("batch_requests", floor.sweepBatchSize(noiseLevel));
		body.put("load",
				"closed loop per level, after the sweep's warm-up (warmup); warm-up of one wave, max(c, 2) requests per arm (levels[].warmup_requests), then "
						+ "batches of batch_requests in ABBA order until the level's sequential stop (levels[].sequential), at most "
						+ "batches_per_arm per arm (the cap: requests_per_arm in waves of max(c, 2), or with sweep.requests one batch per "
						+ "max(16, 4c) requests, with sweep.batch one per that many, at least c; at least " + TaxSettings.MIN_BATCHES
						+ "), each arm's batches merged; time cap "
						+ settings.levelTimeCap().toSeconds() + " s per batch");
		ObjectNode stop = body.putObject("sequential");
		stop.put("method", SequentialPlan.METHOD);
		JsonNumbers.put(stop, "target_half_width", settings.stopHalfWidth(), 6);
		stop.put("max_looks", settings.stopLooks());
		stop.put("judged_on", "each level's ratio interval (the A/A level's own ratio for the noise floor)");
		body.put("ratio_method", SweepLevel.RATIO_METHOD);
		body.put("determinism_mode", settings.determinism());
		body.put("precision", settings.precisionFor(upstream.simulated()));
		body.put("batching_regime", settings.batchingFor(upstream));
		body.put("framing", "Gateway/raw throughput ratio per concurrency level: expected <= 1 (the gateway adds work); a value "
				+ "above 1 is noise within the A/A noise floor, not a gain." + (upstream.simulated().isPresent()
						? " SIMULATED: the upstream is the engine double, not a real engine."
						: ""));
	}

	private static void writeLevels(ObjectNode body, List<SweepLevel> levels, Optional<SweepLevel> noise) {
		ArrayNode array = body.putArray("levels");
		for (SweepLevel level : levels) {
			ObjectNode node = level.toJson("raw", "gateway");
			array.add(node);
		}
		ObjectNode floor = body.putObject("noise_floor");
		floor.put("arms", "raw vs raw: two clients of the raw engine, same level procedure");
		noise.ifPresent(n -> {
			floor.put("concurrency", n.concurrency());
			JsonNumbers.put(floor, "latency_tax", n.latencyTax().estimate(), 4);
			JsonNumbers.putPair(floor, "latency_tax_ci95", n.latencyTax().lo(), n.latencyTax().hi(), 4);
			JsonNumbers.put(floor, "ratio", n.ratio().estimate(), 4);
			JsonNumbers.putPair(floor, "ratio_ci95", n.ratio().lo(), n.ratio().hi(), 4);
			floor.put("judged_on", "ratio: the A/A ratio's 95% CI must lie within +/-1 % (the per-request latency_tax is narrower "
					+ "and only informative)");
			floor.put("ratio_ci95_within_1pct", TaxReport.withinOnePercent(n.ratio()));
			floor.set("level", n.toJson("raw", "raw_b"));
		});
	}

	private static List<Path> plots(RungRecorder run, List<SweepLevel> levels, boolean simulated) {
		ObjectNode node = run.body().putObject("plots");
		if (levels.isEmpty()) {
			node.put("skipped", "no level was measured");
			return List.of();
		}
		try {
			Path dir = run.config().experimentsDir();
			Path ratio = SweepPlot.ratio(levels, dir.resolve(RATIO_PLOT), simulated);
			SweepLevel cdfLevel = levels.stream().filter(l -> l.concurrency() == 64).findFirst().orElse(levels.get(levels.size() - 1));
			Path cdf = SweepPlot.e2elCdf(cdfLevel, dir.resolve(CDF_PLOT), simulated);
			node.put("ratio_vs_concurrency", ratio.toString());
			node.put("e2el_cdf", cdf.toString());
			node.put("e2el_cdf_concurrency", cdfLevel.concurrency());
			run.attach(ratio);
			run.attach(cdf);
			return List.of(ratio, cdf);
		}
		catch (RuntimeException | Error e) {
			node.put("error", e.toString());
			return List.of();
		}
	}

	static String describe(List<SweepLevel> levels) {
		return levels.stream()
				.map(l -> String.format(Locale.ROOT, "c=%d %s", l.concurrency(),
						l.ratio().isDefined() ? String.format(Locale.ROOT, "%.3f", l.ratio().estimate()) : "unmeasured"))
				.collect(Collectors.joining(", "));
	}
}
