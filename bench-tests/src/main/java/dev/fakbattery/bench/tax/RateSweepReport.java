package dev.fakbattery.bench.tax;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The rate sweep's checks, measurements and summary; each computed from what was measured. The goodput cost ("the
 * gateway costs X req/s of goodput at these SLOs") is measured only when the raw engine's maximum was found inside
 * the rates tested; otherwise it is pending, naming what to change.
 *
 * @since 0.3
 */
final class RateSweepReport {

	private RateSweepReport() {
	}

	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, List<RateLevel> levels, RateSearch.Result result,
			List<Path> plots, String skipped) {
		checks(run, settings, upstream, java.util.Optional.empty(), levels, result, plots, skipped);
	}

	/**
	 * The checks, {@code warmup} (the sweep's steady warm-up, where it ran) judged with every level and ramp: a request the
	 * gateway arm fails beyond the raw arm's in any of them fails {@code gateway_failures} ({@link ArmFailures}).
	 */
	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, java.util.Optional<SteadyWarmup> warmup,
			List<RateLevel> levels, RateSearch.Result result, List<Path> plots, String skipped) {
		checks(run, settings, upstream, warmup, java.util.Optional.empty(), levels, result, plots, skipped);
	}

	/**
	 * The checks, with the host calibration where it ran ({@link RateCalibration}): a rate it found beyond this host is
	 * PENDING_MEASUREMENT ({@code host_calibration}) with its reading and the fix, never counted as measured nor as failed;
	 * its probes' failed requests are judged like a ramp's.
	 */
	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, java.util.Optional<SteadyWarmup> warmup,
			java.util.Optional<RateCalibration> calibration, List<RateLevel> levels, RateSearch.Result result, List<Path> plots,
			String skipped) {
		TaxSettings.RateLoad load = settings.load();
		ObjectNode process = run.body().path("gateway_process") instanceof ObjectNode p ? p : null;
		String mode = process == null ? "none" : process.path("mode").asText();
		if (process != null && !mode.equals("planned")) {
			run.check("gateway_command", mode.equals("started") || mode.equals("existing"), "the gateway under test starts or is reachable",
					"mode " + mode + ": " + process.path(process.has("error") ? "error" : "description").asText());
		}
		List<RateCalibration.Level> beyond = calibration.map(RateCalibration::beyond).orElse(List.of());
		long judgeable = load.rates().stream().filter(r -> calibration.map(c -> c.runs(r)).orElse(true)).count();
		boolean measured = skipped == null && levels.stream().map(RateLevel::rate).distinct().count() >= judgeable;
		run.check("rate_sweep_measured", measured, "goodput of both arms at every rate of " + load.rates()
				+ " that this host can judge (host_calibration)",
				skipped != null ? "not run: " + skipped : levels.size() + " rates measured: " + describe(levels));
		RateLevel lowest = levels.isEmpty() ? null : levels.get(0);
		// every rate beyond this host: nothing ran to be clean or not, host_calibration says why
		boolean noneJudgeable = levels.isEmpty() && skipped == null && judgeable == 0;
		if (!noneJudgeable)
			run.check("lowest_rate_clean", lowest != null && lowest.failed() == 0,
					"at the lowest rate every request of both arms answers 200 with tokens and [DONE] (failures above it are judged per arm: gateway_failures)",
					lowest == null
							? "not run" + (skipped == null ? "" : ": " + skipped)
							: String.format(Locale.ROOT, "%.2f req/s: %d failed or unsent", lowest.rate(), lowest.failed()),
					lowest != null && (TaxReport.answeredWrong(lowest.a().failed())
							|| TaxReport.answeredWrong(lowest.b().failed())));
		List<ArmFailures> failures = new java.util.ArrayList<>();
		warmup.ifPresent(w -> failures.add(w.failures()));
		calibration.ifPresent(c -> failures.addAll(c.failures()));
		levels.forEach(l -> {
			failures.add(l.rampFailuresByArm());
			failures.add(l.failures());
		});
		String notRun = skipped == null ? null : "not run: " + skipped;
		ArmFailures.judgeFailures(run, failures, notRun);
		ArmFailures.judgeRetries(run, levels.stream().map(RateLevel::retries).toList(), notRun);
		invalidations(run, levels, skipped);
		if (!beyond.isEmpty() && skipped == null) {
			run.invalid("host_calibration", "rates beyond this host, not run: " + beyond.stream()
					.map(RateCalibration.Level::reading)
					.collect(java.util.stream.Collectors.joining("; ")), RateCalibration.fix(beyond));
		}
		boolean drawn = plots.size() == 1 && plots.stream().allMatch(Files::isRegularFile);
		run.check("plots_written", drawn, "goodput-vs-rate PNG beside the artifact",
				drawn ? plots.toString() : run.body().path("plots").toString());
		writeSearch(run.body().putObject("search"), result, load);
		cost(run, result, levels, load);
		summary(run, upstream, result, load);
	}

	/** A lagging double or client at any rate invalidates the sweep: the instrument, not the gateway, set the pace. */
	static void invalidations(RungRecorder run, List<RateLevel> levels, String skipped) {
		if (skipped != null) {
			return;
		}
		List<String> late = levels.stream()
				.filter(l -> l.lag().map(r -> !r.withinLimit()).orElse(false))
				.map(l -> rate(l) + " " + l.lag().orElseThrow())
				.toList();
		if (!late.isEmpty()) {
			run.invalid("engine_double_lag", "engine double scheduling lag p99 over " + (int) UpstreamLag.LIMIT_P99_MICROS + " us at "
					+ late + ": the double, not the gateway, set the pace",
					"run on a quieter machine, or at lower rates (-D"
							+ HarnessConstants.RATE_SWEEP + ")");
		}
		List<String> busy = levels.stream()
				.filter(l -> l.idleAtStart().map(i -> !i.idle()).orElse(false))
				.map(l -> rate(l) + " " + l.idleAtStart().orElseThrow().running().orElse(Double.NaN) + " requests")
				.toList();
		if (!busy.isEmpty()) {
			run.invalid("engine_idle_at_start", "the engine still ran requests after waiting " + RateLevel.IDLE_CAP.toSeconds()
					+ " s at the start of " + busy + ": what the level before it left running loaded it too",
					"an engine that ends a request when its client disconnects (vLLM, SGLang and llama.cpp do), or lower rates (-D"
							+ HarnessConstants.RATE_SWEEP + ")");
		}
		List<String> slow = levels.stream()
				.filter(l -> !l.clientLag().withinLimit())
				.map(l -> rate(l) + " " + l.clientLag().withHostNote())
				.toList();
		if (!slow.isEmpty()) {
			run.invalid("client_lag", "load client scheduling lag p99 over " + (int) ClientLag.LIMIT_P99_MICROS + " us at " + slow
					+ ": the client, not the gateway, set the pace",
					"run on a quieter machine, or at lower rates (-D"
							+ HarnessConstants.RATE_SWEEP + ")");
		}
	}

	/** The headline measurement, or why it is pending. */
	static void cost(RungRecorder run, RateSearch.Result result, List<RateLevel> levels, TaxSettings.RateLoad load) {
		if (levels.isEmpty()) {
			return;
		}
		String fix = "-D" + HarnessConstants.RATE_SWEEP + "=... around the engine's capacity, or other -Dslo.*.ms";
		if (result.rawMax().isEmpty()) {
			run.pending("goodput_cost", String.format(Locale.ROOT, "no offered rate met the SLOs (%s at %.0f %% attainment) on the raw "
					+ "engine; the lowest, %.2f req/s, reached %.3f", load.slo(), load.attainment() * 100, levels.get(0).rate(),
					levels.get(0).pointA().attainment()), "lower rates: " + fix);
			return;
		}
		if (result.rawCensored()) {
			run.pending("goodput_cost", String.format(Locale.ROOT, "the raw engine met the SLOs even at the highest rate tested, %.2f "
					+ "req/s: its maximum lies above, so the cost is unbounded", result.rawMax().getAsDouble()), "higher rates: " + fix);
			return;
		}
		run.measured("raw_max_rate_met", result.rawMax().getAsDouble(), "req/s", "highest offered rate the raw engine met"
				+ offered(load) + "; 95% CI " + ci(result.rawInterval()));
		result.gatewayMax()
				.ifPresent(g -> run.measured("gateway_max_rate_met", g, "req/s", "highest offered rate the gateway met" + offered(load)
						+ "; 95% CI " + ci(result.gatewayInterval())));
		if (result.gatewayMax().isEmpty()) {
			run.measured("goodput_cost", result.rawMax().getAsDouble(), "req/s", "the gateway met no rate tested: it costs at least the "
					+ "raw maximum");
			return;
		}
		run.measured("goodput_cost", result.cost().estimate(), "req/s",
				"raw max rate met - gateway max rate met at " + load.slo() + "; 95% CI "
						+ ci(result.cost()));
	}

	/**
	 * How a rate was offered, for every maximum: sustained, as one open loop whose batches take turns between the arms
	 * (drained batches meet rates an engine does not sustain: on the engine double, 16 req/s met so and missed sustained,
	 * {@code RateBurstBench}).
	 */
	static String offered(TaxSettings.RateLoad load) {
		return String.format(Locale.ROOT, " sustained (one open loop per rate, batches of %.1f s of arrivals taking turns between the "
				+ "arms after a ramp of %.1f s, never drained between them)", load.batchSeconds(),
				RateLevel.RAMP_BATCHES * load.batchSeconds());
	}

	private static void writeSearch(ObjectNode node, RateSearch.Result result, TaxSettings.RateLoad load) {
		node.put("attainment", load.attainment());
		JsonNumbers.put(node, "raw_max_rate_met", result.rawMax().orElse(Double.NaN), 4);
		JsonNumbers.put(node, "gateway_max_rate_met", result.gatewayMax().orElse(Double.NaN), 4);
		node.put("raw_censored", result.rawCensored());
		node.put("gateway_censored", result.gatewayCensored());
		result.cost().writeTo(node.putObject("goodput_cost"), 4);
		result.rawInterval().writeTo(node.putObject("raw_max_ci"), 4);
		result.gatewayInterval().writeTo(node.putObject("gateway_max_ci"), 4);
	}

	private static void summary(RungRecorder run, TaxUpstream upstream, RateSearch.Result result, TaxSettings.RateLoad load) {
		ObjectNode summary = run.body().putObject("summary");
		JsonNumbers.put(summary, "raw_max_rate_met", result.rawMax().orElse(Double.NaN), 4);
		JsonNumbers.put(summary, "gateway_max_rate_met", result.gatewayMax().orElse(Double.NaN), 4);
		JsonNumbers.put(summary, "goodput_cost", result.cost().estimate(), 4);
		summary.put("slo", load.slo().toString());
		run.headline(String.format(Locale.ROOT,
				"the gateway costs %s req/s of goodput at %s (%.0f %% attainment): raw max %s, gateway max %s%s",
				ci(result.cost()), load.slo(), load.attainment() * 100, max(result.rawMax(), result.rawCensored()),
				max(result.gatewayMax(), result.gatewayCensored()), upstream.simulated().isPresent() ? " (SIMULATED: engine double)" : ""));
	}

	private static String max(java.util.OptionalDouble value, boolean censored) {
		return value.isEmpty() ? "none met" : (censored ? ">= " : "") + String.format(Locale.ROOT, "%.2f", value.getAsDouble());
	}

	private static String ci(ConfidenceInterval ci) {
		return ci.isDefined()
				? String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", ci.estimate(), ci.lo(), ci.hi())
				: "unmeasured (" + ci.reason().orElse("") + ")";
	}

	private static String rate(RateLevel level) {
		return String.format(Locale.ROOT, "%.2f req/s", level.rate());
	}

	static String describe(List<RateLevel> levels) {
		return levels.stream()
				.map(l -> String.format(Locale.ROOT, "%.2f: raw %.2f, gateway %.2f", l.rate(), l.pointA().attainment(),
						l.pointB().attainment()))
				.collect(Collectors.joining("; "));
	}
}
