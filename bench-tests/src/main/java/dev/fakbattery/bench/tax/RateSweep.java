package dev.fakbattery.bench.tax;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.preflight.ServedModels;
import dev.fakbattery.bench.preflight.SystemPreflightProbes;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Rung 3's rate sweep: goodput against SLOs at offered request rates, raw and gateway, and the search for the
 * highest rate each meets ({@link RateSearch}): first the ladder of {@code rate.sweep}, then bisection between the
 * highest rate met and the next one missed. Writes {@code levels[]} (per rate: both arms' goodput, attainment,
 * percentiles, client queue time, lags, engine metrics), {@code search} (the maxima, the cost and their intervals)
 * and a PNG of goodput against offered rate ({@link RatePlot}).
 *
 * @since 0.3
 */
public final class RateSweep {

	/** The plot's file name in {@code experiments.dir}. */
	public static final String PLOT = "rate-sweep-goodput.png";

	private RateSweep() {
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
		List<RateLevel> levels = new ArrayList<>();
		List<SteadyWarmup> warmup = new ArrayList<>();
		List<RateCalibration.Level> calibrated = new ArrayList<>();
		Optional<RateCalibration> calibration = Optional.empty();
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
					warmup.add(measure(body, settings, upstream, gateway.baseUrl(), model.orElseThrow(), levels, calibrated, force));
					calibration = Optional.of(new RateCalibration(calibrated));
				}
			}
		}
		else {
			body.putObject("gateway_process").put("mode", "planned").put("error", "not started: " + skipped);
		}
		levels.sort(Comparator.comparingDouble(RateLevel::rate));
		RateSearch.Result result = RateSearch.compare(levels.stream().map(RateLevel::pointA).toList(),
				levels.stream().map(RateLevel::pointB).toList(), settings.load().attainment(), BootstrapCi.seeded(settings.seed()));
		ArrayNode array = body.putArray("levels");
		levels.forEach(level -> array.add(level.toJson(settings.load().attainment())));
		if (skipped != null) {
			body.put("skipped", skipped);
		}
		List<Path> plots = plot(run, levels, result, settings, upstream.simulated().isPresent());
		calibration.ifPresent(c -> c.writeTo(body.putObject("host_calibration")));
		RateSweepReport.checks(run, settings, upstream, warmup.stream().findFirst(), calibration, levels, result, plots, skipped);
	}

	/**
	 * The steady warm-up, the host calibration of the ladder's top, then per rate of the ladder and of the search its
	 * calibration ({@link RateCalibration}: its probe, or the verdict the rates probed give it) and, where this host can
	 * judge it (or it is forced), the level; a rate beyond the host is not run and the search goes on from the rates
	 * measured.
	 */
	private static SteadyWarmup measure(ObjectNode body, TaxSettings settings, TaxUpstream upstream, URI gatewayUrl, String model,
			List<RateLevel> levels, List<RateCalibration.Level> calibrated, HostCalibration.Force force) {
		RequestSource source = settings.workload().requests(model, true);
		TaxSettings.RateLoad load = settings.load();
		try (TargetClient raw = client("raw", upstream.baseUrl(), settings);
				TargetClient gateway = gatewayClient(gatewayUrl, upstream.baseUrl(), settings)) {
			SteadyWarmup warmup = SteadyWarmup.run(raw, gateway, source, 4, settings.warmupCap(), settings.levelTimeCap());
			warmup.writeTo(body.putObject("warmup"));
			// the ladder's top first (GuideLLM's order: the ends, then between): judgeable, it decides every rate below it
			calibrate(raw, gateway, source, load.rates().stream().mapToDouble(Double::doubleValue).max().orElseThrow(), settings, upstream,
					calibrated, force);
			for (double rate : load.rates()) {
				calibrateAndMeasure(raw, gateway, source, rate, settings, upstream, levels, calibrated, force);
			}
			for (int step = 0; step < load.searchSteps(); step++) {
				OptionalDouble next = RateSearch.nextRate(levels.stream().map(RateLevel::pointA).toList(),
						levels.stream().map(RateLevel::pointB).toList(), load.attainment(), 0.1);
				if (next.isEmpty() || calibrated.stream().anyMatch(l -> l.rate() == next.getAsDouble())) {
					break;
				}
				calibrateAndMeasure(raw, gateway, source, next.getAsDouble(), settings, upstream, levels, calibrated, force);
			}
			return warmup;
		}
	}

	private static void calibrateAndMeasure(TargetClient raw, TargetClient gateway, RequestSource source, double rate, TaxSettings settings,
			TaxUpstream upstream, List<RateLevel> levels, List<RateCalibration.Level> calibrated, HostCalibration.Force force) {
		RateCalibration.Level probe = calibrate(raw, gateway, source, rate, settings, upstream, calibrated, force);
		if (probe.judged().verdict() != HostCalibration.Verdict.BEYOND_HOST) {
			levels.add(measureAt(raw, gateway, source, rate, settings, upstream));
		}
	}

	/** {@code rate}'s calibration: as read before, as the rates probed decide it, or its own probe; recorded in {@code calibrated}. */
	private static RateCalibration.Level calibrate(TargetClient raw, TargetClient gateway, RequestSource source, double rate,
			TaxSettings settings, TaxUpstream upstream, List<RateCalibration.Level> calibrated, HostCalibration.Force force) {
		Optional<RateCalibration.Level> before = calibrated.stream().filter(l -> l.rate() == rate).findFirst();
		if (before.isPresent()) {
			return before.get();
		}
		TaxSettings.RateLoad load = settings.load();
		Optional<RateCalibration.Level> known = force.coversRate(rate) ? Optional.empty() : RateCalibration.inferred(rate, calibrated);
		RateCalibration.Level probe = known.orElseGet(() -> {
			Progress probes = Progress.start("tax",
					String.format(java.util.Locale.ROOT, "host calibration at %.2f req/s raw+gateway requests", rate),
					4L * RateCalibration.probeRequests(rate));
			RateCalibration.Level read = RateCalibration.probe(raw, gateway, source, rate, load.burstiness(), load.maxConcurrency(),
					settings.seed(), force.coversRate(rate), settings.levelTimeCap(), upstream.lag(), probes);
			probes.finish();
			return read;
		});
		known.ifPresent(level -> System.out.println("[tax] host calibration at " + RateCalibration.format(rate) + " req/s: "
				+ level.judged().reason().replaceFirst(" \\(.*", "")));
		calibrated.add(probe);
		return probe;
	}

	private static RateLevel measureAt(TargetClient raw, TargetClient gateway, RequestSource source, double rate, TaxSettings settings,
			TaxUpstream upstream) {
		Progress progress = Progress.start("tax", String.format(java.util.Locale.ROOT, "rate sweep %.2f req/s raw+gateway", rate),
				2L * settings.ratePlan().cap() * settings.load().batchRequests(rate));
		RateLevel level = RateLevel.measure(raw, gateway, source, rate, settings, upstream.lag(), upstream.baseUrl(), progress);
		progress.detail(
				String.format(java.util.Locale.ROOT, "rate %.2f req/s, ", rate) + level.attainmentLine(settings.load().attainment()));
		progress.finish();
		return level;
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
		TaxSettings.RateLoad load = settings.load();
		body.put("model", model.orElse(null));
		body.put("base_url", upstream.baseUrl().toString());
		// the engine measured (the double is named so), never the configured dialect passed off as one; the dialect beside it
		body.put("engine", run.target().map(TargetIdentity::engineKind).orElse(null));
		body.put("dialect", upstream.engine().id());
		settings.workload().writeTo(body.putObject("workload_spec"));
		ObjectNode shape = body.putObject("load_shape");
		shape.put("kind", "open loop");
		shape.put("arrivals", load.burstiness() == 1.0 ? "poisson" : "gamma");
		shape.put("burstiness", load.burstiness());
		shape.put("max_concurrency", load.maxConcurrency());
		load.rates().forEach(shape.putArray("rates")::add);
		shape.put("search_steps", load.searchSteps());
		shape.put("batch_seconds", load.batchSeconds());
		shape.put("sustained", true);
		shape.put("ramp_seconds", RateLevel.RAMP_BATCHES * load.batchSeconds());
		shape.put("met_means", "met" + RateSweepReport.offered(load) + ": a batch is read once its own requests have ended, "
				+ "while later arrivals go on; the arms share the engine's queue, each request counted for its own arm");
		SequentialPlan plan = settings.ratePlan();
		shape.put("batches_per_arm", plan.cap());
		ArrayNode looks = shape.putArray("looks");
		plan.looks().forEach(looks::add);
		shape.put("order", "ABBA per rate, batch by batch within one open loop; both arms send the same conversations; a level "
				+ "stops at the first look where both arms' attainment is decided (levels[].sequential), at most batches_per_arm per "
				+ "arm, and its later arrivals are then never sent");
		ObjectNode slo = body.putObject("slo");
		slo.put("spec", load.slo().toString());
		slo.put("attainment", load.attainment());
		slo.put("met_when", "good requests / requests >= attainment; good = completed and every SLO met (<=)");
		body.put("determinism_mode", settings.determinism());
		body.put("precision", settings.precisionFor(upstream.simulated()));
		body.put("batching_regime", settings.batchingFor(upstream));
	}

	private static List<Path> plot(RungRecorder run, List<RateLevel> levels, RateSearch.Result result, TaxSettings settings,
			boolean simulated) {
		ObjectNode node = run.body().putObject("plots");
		if (levels.isEmpty()) {
			node.put("skipped", "no rate was measured");
			return List.of();
		}
		try {
			Path plot = RatePlot.goodput(levels, result, settings.load(), run.config().experimentsDir().resolve(PLOT), simulated);
			node.put("goodput_vs_rate", plot.toString());
			run.attach(plot);
			return List.of(plot);
		}
		catch (RuntimeException | Error e) {
			node.put("error", e.toString());
			return List.of();
		}
	}
}
