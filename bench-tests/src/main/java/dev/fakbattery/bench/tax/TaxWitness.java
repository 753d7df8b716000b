package dev.fakbattery.bench.tax;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.preflight.ServedModels;
import dev.fakbattery.bench.preflight.SystemPreflightProbes;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLagProbe;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Rung 3's tax witness: the raw engine against the gateway in front of it, with the same
 * deterministic streamed request, warm-up first, then up to {@code count} samples per arm in ABBA order,
 * then an A/A run (raw against raw, same schedule) as the noise floor. Each run stops at the first planned look where
 * its intervals (latency_tax_paired and decode_tps_tax_paired; the A/A's) are narrower than {@code stop.halfwidth}, else at
 * {@code count} ({@link TaxSettings#witnessPlan()}, {@link SequentialPlan}); at the default count of 8 the plan has one
 * look, the count. Writes fak's
 * {@code fak.vllm-adjudication-tax.v1} fields into the run ({@link TaxReport}). At its first planned look before the cap,
 * a witness whose load client already lags past the futility margin in every quarter of that look stops there,
 * PENDING_MEASUREMENT with the readings ({@link WitnessLook}); {@code calibration.force=witness} (or {@code all}) runs it
 * on anyway.
 *
 * <p>Bad input fails with what came back: a raw engine that does not answer {@code GET /models} as
 * an OpenAI-compatible server fails {@code upstream_models} naming the URL and the reply; a gateway
 * that does not start skips both arms (never a one-armed comparison) and fails
 * {@code gateway_command} naming its log.
 *
 * @since 0.1
 */
public final class TaxWitness {

	private TaxWitness() {
	}

	/** Runs the witness against {@code upstream} and records everything into {@code run}. */
	public static void run(RungRecorder run, TaxSettings settings, TaxUpstream upstream) {
		upstream.simulated().ifPresent(run::simulated);
		HarnessConfig config = run.config();
		ObjectNode body = run.body();
		ServedModels served = SystemPreflightProbes.create().models(upstream.baseUrl());
		Optional<String> model = config.string(HarnessConstants.MODEL).or(() -> served.ids().stream().findFirst());
		writeHeader(body, settings, upstream, served, model);
		Optional<String> upstreamProblem = upstreamProblem(upstream.baseUrl(), served, model);
		run.check("upstream_models", upstreamProblem.isEmpty(),
				"GET " + upstream.baseUrl() + "/models answers 200 as an OpenAI-compatible server, serving the model",
				upstreamProblem.orElse("HTTP 200, serves " + served.ids()));
		TaxRuns runs;
		if (upstreamProblem.isPresent()) {
			body.putObject("gateway_process").put("mode", "planned").put("error", "not started: " + upstreamProblem.get());
			runs = TaxRuns.skipped("the raw engine is not usable: " + upstreamProblem.get());
		}
		else {
			runs = startAndMeasure(run, settings, upstream, model.orElseThrow());
		}
		TaxReport.write(run, settings, upstream, model.orElse(null), runs);
	}

	private static TaxRuns startAndMeasure(RungRecorder run, TaxSettings settings, TaxUpstream upstream, String model) {
		GatewayStart start = GatewayStart.start(run.config(), upstream.baseUrl(), model, upstream.engine(),
				run.config().experimentsDir().resolve("logs"));
		run.body().set("gateway_process", start.process());
		if (start.gateway().isEmpty()) {
			return TaxRuns.skipped(start.failure().orElseThrow());
		}
		try (GatewayUnderTest gateway = start.gateway().get()) {
			return measure(settings, upstream, gateway.baseUrl(), model,
					HostCalibration.Force.from(run.config()).witness() ? Futility.NEVER : Futility.DEFAULT);
		}
	}

	/**
	 * Warms each target up with {@code count} conversations ({@code tax.warmup}), each of them a step of {@code progress}
	 * (so the witness's ETA is known from the first on); the requests that failed, each naming its target.
	 */
	static List<RequestOutcome> warmUp(List<TargetClient> targets, RequestSource source, int count, Progress progress) {
		List<RequestOutcome> failed = new java.util.ArrayList<>();
		for (TargetClient target : targets) {
			failed.addAll(InterleavingRunner.warmUpFailures(target, source, count, done -> {
				progress.detail("warming up " + target.name() + ": " + done + " of " + count + " conversations (tax.warmup)");
				progress.advance();
			}));
		}
		return List.copyOf(failed);
	}

	/**
	 * Warm-up, the A/B run, then the A/A run; at the A/B run's first look {@code futility} may stop the witness there
	 * ({@link WitnessLook}): the A/A run is then not started and the runs carry the reading.
	 */
	static TaxRuns measure(TaxSettings settings, TaxUpstream upstream, URI gatewayUrl, String model, Futility futility) {
		RequestSource source = settings.workload().requests(model, true);
		SequentialPlan plan = settings.witnessPlan();
		BootstrapCi bootstrap = plan.bootstrap(settings.seed());
		Progress progress = Progress.start("tax", "witness raw/gateway + A/A (" + settings.workload().name() + ") conversations",
				3L * settings.warmup() + 4L * plan.cap());
		try (TargetClient raw = client("raw", upstream.baseUrl(), settings);
				TargetClient gateway = gatewayClient(gatewayUrl, upstream.baseUrl(), settings);
				TargetClient rawAgain = client("raw_b", upstream.baseUrl(), settings);
				ClientLagProbe clientLag = ClientLagProbe.start()) {
			List<RequestOutcome> warmupFailed = warmUp(List.of(raw, gateway, rawAgain), source, settings.warmup(), progress);
			progress.detail("raw against gateway, first look at " + plan.first() + " of at most " + plan.cap() + " per arm");
			upstream.lag().ifPresent(UpstreamLag::reset);
			clientLag.reset();
			EngineMetrics engine = EngineMetrics.before(upstream.baseUrl());
			ServerCounters.Before counters = ServerCounters.before(gatewayUrl);
			WitnessLook look = new WitnessLook(plan.first(), plan.cap(), () -> {
				dev.fakbattery.core.load.ClientLag stretch = clientLag.read();
				clientLag.reset();
				return stretch;
			}, futility);
			InterleavingRunner.Stopped ab = InterleavingRunner.run(raw, gateway, source, plan, settings.seed(), progress, arms -> {
				TaxStats tax = TaxStats.compute(arms.a(), arms.b(), bootstrap);
				return List.of(tax.latencyTaxPaired(), tax.decodeTpsTaxPaired());
			}, look);
			EngineMetrics engineAfter = engine.after();
			ServerCounters gatewayCounters = counters.after();
			Optional<String> futile = look.stop();
			if (futile.isPresent()) {
				progress.finish();
				return new TaxRuns(new ArmReport("raw_vllm", ab.arms().a()), new ArmReport("gateway", ab.arms().b()),
						new ArmReport("aa_raw_a", List.of()), new ArmReport("aa_raw_b", List.of()), ab.arms().order(),
						warmupFailed.size(), upstream.lag().map(UpstreamLag::read), Optional.empty(), look.total(clientLag.read()),
						Optional.of(engineAfter), Optional.of(gatewayCounters), Optional.of(ab.stop()), Optional.empty(), warmupFailed)
						.stoppedForFutility(futile.get())
						.withFirstLook(look.p99s());
			}
			progress.detail("A/A, raw against raw_b, first look at " + plan.first() + " of at most " + plan.cap() + " per arm (raw against "
					+ "gateway stopped at " + ab.stop().used() + ")");
			InterleavingRunner.Stopped aa = InterleavingRunner.run(raw, rawAgain, source, plan, settings.seed(), progress,
					arms -> List.of(
							PairedBlocks.of(arms.a(), arms.b(), PairedBlocks.LATENCY_S, bootstrap.minSamples()).pairedBOverA(bootstrap)));
			progress.finish();
			return new TaxRuns(new ArmReport("raw_vllm", ab.arms().a()), new ArmReport("gateway", ab.arms().b()),
					new ArmReport("aa_raw_a", aa.arms().a()), new ArmReport("aa_raw_b", aa.arms().b()), ab.arms().order(),
					warmupFailed.size(), upstream.lag().map(UpstreamLag::read), Optional.empty(), look.total(clientLag.read()),
					Optional.of(engineAfter),
					Optional.of(gatewayCounters), Optional.of(ab.stop()), Optional.of(aa.stop()), warmupFailed)
					.withFirstLook(look.p99s());
		}
	}

	private static TargetClient client(String name, URI base, TaxSettings settings) {
		return TargetClient.open(name, base, settings.headers(), TargetClient.DEFAULT_RESPONSE_TIMEOUT);
	}

	/** The gateway arm's client: the gateway's own request headers too ({@link TaxSettings#gatewayArmHeaders}). */
	private static TargetClient gatewayClient(URI gatewayUrl, URI upstream, TaxSettings settings) {
		return TargetClient.open("gateway", gatewayUrl, settings.gatewayArmHeaders(upstream), TargetClient.DEFAULT_RESPONSE_TIMEOUT);
	}

	/** Why the raw engine cannot be measured, naming the URL and what came back; empty when it can. */
	static Optional<String> upstreamProblem(URI base, ServedModels served, Optional<String> model) {
		String url = base + "/models";
		if (served.httpStatus() == 0) {
			return Optional.of("GET " + url + " got no response: " + served.bodyExcerpt());
		}
		if (served.httpStatus() != 200) {
			return Optional.of("GET " + url + " answered HTTP " + served.httpStatus() + ": " + abbreviate(served.bodyExcerpt()));
		}
		if (served.ids().isEmpty()) {
			return Optional.of("GET " + url + " answered 200 but not an OpenAI model list (no data[].id): "
					+ abbreviate(served.bodyExcerpt()));
		}
		if (model.isPresent() && !served.ids().contains(model.get())) {
			return Optional.of("GET " + url + " does not serve model " + model.get() + "; it serves " + served.ids()
					+ " (fix -D" + HarnessConstants.MODEL + ")");
		}
		return Optional.empty();
	}

	private static void writeHeader(ObjectNode body, TaxSettings settings, TaxUpstream upstream, ServedModels served,
			Optional<String> model) {
		body.put("model", model.orElse(null));
		body.put("base_url", upstream.baseUrl().toString());
		body.put("provider", "openai");
		body.put("count", settings.count());
		body.put("max_tokens", settings.maxTokens());
		body.put("engine_cache_engine", upstream.engine().id());
		body.put("dry_run", false);
		body.put("framing", HonestFraming.compose(upstream.simulated().isPresent(), upstream.engine().id(), settings.count(),
				settings.workload().describe()));
		settings.workload().writeTo(body.putObject("workload_spec"));
		ObjectNode models = body.putObject("upstream_models");
		models.put("http_status", served.httpStatus());
		served.ids().forEach(models.putArray("model_ids")::add);
		models.put("body_excerpt", served.bodyExcerpt());
		ObjectNode request = body.putObject("request");
		request.set("body", settings.workload().requests(model.orElse("?"), true).conversation(0).first().toJson());
		request.put("body_of", "conversation 0, first turn, of workload " + settings.workload().describe());
		request.put("latency", "E2EL: send to the last chunk carrying a token (not the usage chunk, not [DONE])");
		request.put("decode_tps", "completion tokens / (last token chunk - first token chunk)");
		request.put("e2e_decode_tps", "fak's: completion tokens / whole request time");
	}

	private static String abbreviate(String text) {
		String line = text.replace('\n', ' ').strip();
		return line.length() <= 300 ? line : line.substring(0, 297) + "...";
	}
}
