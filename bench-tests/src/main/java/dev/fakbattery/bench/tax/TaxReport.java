package dev.fakbattery.bench.tax;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.wire.JsonNumbers;

/**
 * Writes what the tax witness measured in fak's fields, and records each acceptance item
 * with {@link RungRecorder#check} so every one is computed and can fail: {@code raw_vllm}, {@code gateway},
 * {@code tax}, {@code noise_floor}, {@code gate}, {@code interleaving}, the acceptance checks and
 * {@code summary}. The A/A arms are checked like the measured ones: a failed A/A request fails the rung, never dropped;
 * an arm's wrong answer (error status, malformed stream) is a product check, FAIL even on an invalid measurement. A witness
 * stopped for futility at its first look ({@link WitnessLook}) is PENDING_MEASUREMENT ({@code futility}) with the readings;
 * its A/B arms are checked as sent, its A/A, never run, is not.
 *
 * @since 0.1
 */
final class TaxReport {

	private TaxReport() {
	}

	static void write(RungRecorder run, TaxSettings settings, TaxUpstream upstream, String model, TaxRuns runs) {
		ObjectNode body = run.body();
		run.workload(settings.workload().describe() + "; " + settings.count() + " streamed samples per arm, ABBA after "
				+ settings.warmup() + " warm-up");
		Map<String, String> rows = new LinkedHashMap<>();
		rows.put("determinism_mode", settings.determinism());
		rows.put("precision", settings.precisionFor(upstream.simulated()));
		rows.put("batching_regime", settings.batchingFor(upstream));
		rows.forEach(body::put);
		body.set("raw_vllm", runs.raw().toJson(rows));
		body.set("gateway", runs.gateway().toJson(rows));
		BootstrapCi bootstrap = settings.witnessPlan().bootstrap(settings.seed());
		TaxStats tax = TaxStats.compute(runs.raw().samples(), runs.gateway().samples(), bootstrap);
		writeTax(body.putObject("tax"), tax, runs, bootstrap);
		PairedBlocks noiseBlocks = PairedBlocks.of(runs.aaFirst().samples(), runs.aaSecond().samples(), PairedBlocks.LATENCY_S,
				bootstrap.minSamples());
		ConfidenceInterval noise = noiseBlocks.pairedBOverA(bootstrap);
		ConfidenceInterval noisePooled = noiseBlocks.bOverA(bootstrap);
		writeNoiseFloor(body.putObject("noise_floor"), noise, noisePooled, noiseBlocks, runs);
		writeSequential(body.putObject("sequential"), settings, runs);
		ObjectNode interleaving = body.putObject("interleaving");
		interleaving.put("scheme", "ABBA");
		interleaving.put("seed", settings.seed());
		interleaving.put("warmup_per_target", settings.warmup());
		interleaving.put("warmup_failed", runs.warmupFailed());
		ObjectNode warmupByTarget = interleaving.putObject("warmup_failed_by_target");
		for (String target : List.of(RAW_CLIENT, GATEWAY_CLIENT, "raw_b")) {
			warmupByTarget.put(target, runs.warmupFailuresOf(target).size());
		}
		runs.order()
				.forEach(arm -> interleaving.withArray("order")
						.add(arm == dev.fakbattery.core.stats.Interleaving.Arm.A ? "raw" : "gateway"));
		runs.skipped().ifPresent(why -> body.put("skipped", why));
		runs.lag().ifPresent(lag -> lag.writeTo(body.putObject("engine_double_lag")));
		if (runs.skipped().isEmpty()) {
			runs.clientLag().writeTo(body.putObject("client_lag"));
		}
		runs.engineMetrics().ifPresent(metrics -> metrics.writeTo(body.putObject("engine_metrics")));
		runs.gatewayMetrics().ifPresent(metrics -> metrics.writeTo(body.putObject("gateway_metrics")));
		Adjudication.of(runs.raw().outcomes(), runs.gateway().outcomes()).ifPresent(a -> a.writeTo(body.putObject("adjudication")));
		runs.futility().ifPresent(reading -> body.putObject("futility_stop").put("reading", reading).put("rule", Futility.WITNESS_RULE));
		if (!runs.firstLookLag().isEmpty()) {
			// the series the futility rule reads, kept whether it stopped or not: its false-stop rate is checked on them
			ArrayNode quarters = body.putArray("first_look_client_lag_p99_us");
			runs.firstLookLag().forEach(p99 -> JsonNumbers.add(quarters, p99, 0));
		}
		// a witness stopped for futility sent only its first look and no A/A: judged by its instrument, not by its count
		boolean enough = runs.futility().isEmpty() && enoughSamples(run, runs, bootstrap);
		checks(run, settings, runs, tax, enough);
		invalidations(run, runs, noise);
		blockInvalidations(run, runs, tax.latencyBlocks(), noiseBlocks);
		boolean valid = run.invalidations().isEmpty() && run.checks().stream().allMatch(dev.fakbattery.core.Check::passed);
		TaxBaselineKey key = baselineKey(run, settings, upstream, model);
		TaxGateResult gate = gate(body, settings, key, tax, valid);
		if (enough) {
			regressionGate(run, settings, gate);
		}
		if (tax.latencyTaxPaired().isDefined() && noise.isDefined()) {
			java.util.Optional<String> contradiction = HonestFraming.contradiction(tax.latencyTaxPaired(), noise);
			run.check("honest_framing", contradiction.isEmpty(), "the measured latency_tax does not contradict the framing's "
					+ "expectation (>= 1): its interval does not lie below the A/A noise floor's", contradiction.orElse("consistent"));
		}
		measurements(run, tax, noise, noisePooled, runs);
		summary(run, upstream, tax, noise, noisePooled, gate);
	}

	/**
	 * {@code sequential}: the plan (method, target, looks, level of each look) and where the A/B and A/A runs stopped
	 * ({@code ab}, {@code aa}: used, cap, cap_hit), in conversations per arm.
	 */
	private static void writeSequential(ObjectNode node, TaxSettings settings, TaxRuns runs) {
		SequentialPlan plan = settings.witnessPlan();
		node.put("method", SequentialPlan.METHOD);
		JsonNumbers.put(node, "target_half_width", plan.targetHalfWidth(), 6);
		JsonNumbers.put(node, "look_level", plan.lookLevel(), 6);
		plan.looks().forEach(node.putArray("looks")::add);
		node.put("judged_on", "ab: latency_tax_paired and decode_tps_tax_paired intervals; aa: the A/A latency_tax_paired interval");
		runs.abStop().ifPresent(stop -> stop.writeTo(node.putObject("ab"), "conversations per arm"));
		runs.aaStop().ifPresent(stop -> stop.writeTo(node.putObject("aa"), "conversations per arm"));
	}

	private static void writeTax(ObjectNode node, TaxStats tax, TaxRuns runs, BootstrapCi bootstrap) {
		tax.writeTo(node);
		putCi95(node, "latency_tax_ci95", tax.latencyTax());
		putCi95(node, "decode_tps_tax_ci95", tax.decodeTpsTax());
		ConfidenceInterval e2e = PairedBlocks.of(runs.raw().samples(), runs.gateway().samples(), PairedBlocks.E2E_DECODE_TPS,
				bootstrap.minSamples()).aOverB(bootstrap);
		JsonNumbers.put(node, "e2e_decode_tps_tax", e2e.estimate(), 4);
		putCi95(node, "e2e_decode_tps_tax_ci95", e2e);
		JsonNumbers.put(node, "raw_median_e2e_decode_tps", dev.fakbattery.core.stats.Percentiles.median(runs.raw().e2eDecodeTps()), 3);
		JsonNumbers.put(node, "gateway_median_e2e_decode_tps",
				dev.fakbattery.core.stats.Percentiles.median(runs.gateway().e2eDecodeTps()), 3);
		node.put("raw_ok_samples", runs.raw().okSamples());
		node.put("gateway_ok_samples", runs.gateway().okSamples());
	}

	/**
	 * Whether every arm sent at least the samples an interval takes ({@link BootstrapCi#minSamples()}); if not, the
	 * witness is PENDING_MEASUREMENT naming the minimum and {@code tax.count}: an interval over fewer points is
	 * undefined, never a narrow one that passes by luck. A run that did not send anything is judged by its checks.
	 */
	static boolean enoughSamples(RungRecorder run, TaxRuns runs, BootstrapCi bootstrap) {
		int fewest = java.util.stream.Stream.of(runs.raw(), runs.gateway(), runs.aaFirst(), runs.aaSecond())
				.mapToInt(arm -> arm.samples().size())
				.min()
				.orElse(0);
		if (runs.skipped().isPresent() || fewest >= bootstrap.minSamples()) {
			return true;
		}
		run.pending(dev.fakbattery.core.HarnessConstants.TAX_COUNT, String.format(Locale.ROOT, "an arm sent %d samples, fewer than the %d "
				+ "per arm a %.0f %% interval of a median takes (from n points even min to max covers the median with probability only "
				+ "1 - 2 x 0.5^n), so latency_tax, decode_tps_tax and the A/A floor are undefined", fewest, bootstrap.minSamples(),
				bootstrap.level() * 100),
				"set -D" + dev.fakbattery.core.HarnessConstants.TAX_COUNT + "=" + Math.max(8, bootstrap.minSamples())
						+ " (at least " + bootstrap.minSamples() + ")");
		return false;
	}

	/** The witness's clients of the raw engine and of the gateway, by name, as their requests name them. */
	static final String RAW_CLIENT = "raw";

	static final String GATEWAY_CLIENT = "gateway";

	/**
	 * Whether a request got a wrong answer: an error status, or a 200 that was not a complete stream (an error frame, a
	 * malformed chunk, no token, no {@code [DONE]}). That is the target's own failure, which no lagging instrument explains,
	 * so the check that counts it is a product check ({@link dev.fakbattery.core.Check#product()}); a request that got no
	 * answer (refused, timed out, cut by the time cap) is not.
	 */
	static boolean answeredWrong(java.util.Collection<dev.fakbattery.core.load.RequestOutcome> outcomes) {
		return outcomes.stream().anyMatch(o -> !o.ok() && o.httpStatus() != 0);
	}

	private static void writeNoiseFloor(ObjectNode node, ConfidenceInterval noise, ConfidenceInterval pooled, PairedBlocks blocks,
			TaxRuns runs) {
		node.put("arms", "raw vs raw: two clients of the raw engine on the tax run's ABBA schedule");
		JsonNumbers.put(node, "latency_tax", pooled.estimate(), 4);
		putCi95(node, "latency_tax_ci95", pooled);
		ObjectNode ci = node.putObject("latency_tax_ci");
		pooled.writeTo(ci, 4);
		blocks.writeTo(ci.putObject("blocks"));
		JsonNumbers.put(node, "latency_tax_paired", noise.estimate(), 4);
		putCi95(node, "latency_tax_paired_ci95", noise);
		noise.writeTo(node.putObject("latency_tax_paired_ci"), 4);
		node.put("judged_on", "latency_tax_paired: the median of paired ratios, as the tax's framing and stopping; "
				+ "latency_tax (fak's ratio of medians) is shown beside it, its interval widened by any level the engine "
				+ "wanders to over the run");
		node.put("ratio_of_medians_ci95_within_1pct", withinOnePercent(pooled));
		node.put("samples_per_arm", runs.aaFirst().samples().size());
		node.put("ok_samples", runs.aaFirst().okSamples() + runs.aaSecond().okSamples());
		node.put("failed_samples", runs.aaFirst().samples().size() - runs.aaFirst().okSamples() + runs.aaSecond().samples().size()
				- runs.aaSecond().okSamples());
		node.put("ci95_within_1pct", withinOnePercent(noise));
		ObjectNode samples = node.putObject("latency_s_by_slot");
		samples.put("layout", "[schedule slot, E2EL s] per request, null when it failed: enough to recompute the floor");
		writeSlots(samples.putArray("aa_raw_a"), runs.aaFirst());
		writeSlots(samples.putArray("aa_raw_b"), runs.aaSecond());
	}

	private static void writeSlots(com.fasterxml.jackson.databind.node.ArrayNode array, ArmReport arm) {
		for (InterleavingRunner.Sample sample : arm.samples()) {
			com.fasterxml.jackson.databind.node.ArrayNode row = array.addArray().add(sample.position());
			if (sample.outcome().ok()) {
				JsonNumbers.add(row, sample.outcome().e2elMs() / 1000, 6);
			}
			else {
				row.addNull();
			}
		}
	}

	/** The engine part of the baseline key: the engine double never shares a baseline with a real engine. */
	private static String baselineEngine(TaxUpstream upstream) {
		return (upstream.simulated().isPresent() ? "engine-double-" : "") + upstream.engine().id();
	}

	/**
	 * What this run's tax is a baseline of: the gateway as configured, the engine and the version it reported, the
	 * model, the workload and this host's class.
	 */
	static TaxBaselineKey baselineKey(RungRecorder run, TaxSettings settings, TaxUpstream upstream, String model) {
		String version = run.target().map(dev.fakbattery.core.target.TargetIdentity::engineVersion).orElse(null);
		return new TaxBaselineKey(TaxBaselineKey.gatewayOf(run.config()), baselineEngine(upstream), version,
				model == null ? "unknown" : model, settings.workload().describe(), HostClass.current(run.config()));
	}

	/** The regression gate on the latency tax's interval; only a valid run is recorded in the baseline file. */
	private static TaxGateResult gate(ObjectNode body, TaxSettings settings, TaxBaselineKey key, TaxStats tax, boolean record) {
		ObjectNode node = body.putObject("gate");
		try {
			TaxGateResult gate = new TaxGate(settings.baselineFile(), settings.taxTolerance()).evaluate(key, tax.latencyTax(), record);
			gate.writeTo(node);
			return gate;
		}
		catch (IllegalStateException e) {
			node.put("verdict", "ERROR")
					.put("ok", false)
					.put("baseline_file", settings.baselineFile().toString())
					.put("reason", e.getMessage());
			return null;
		}
	}

	private static void checks(RungRecorder run, TaxSettings settings, TaxRuns runs, TaxStats tax, boolean enough) {
		String notRun = runs.skipped().map(why -> "not run: " + why).orElse(null);
		ObjectNode process = run.body().path("gateway_process") instanceof ObjectNode p ? p : null;
		String mode = process == null ? "none" : process.path("mode").asText();
		run.check("gateway_command", mode.equals("started") || mode.equals("existing"),
				"the gateway under test starts or is reachable (gateway_process.mode started or existing)",
				"mode " + mode + ": " + (process == null ? "" : process.path(process.has("error") ? "error" : "description").asText()));
		int ab = runs.abStop().map(SequentialPlan.Stop::used).orElse(settings.count());
		int aa = runs.aaStop().map(SequentialPlan.Stop::used).orElse(settings.count());
		armCheck(run, "raw_vllm_chat", runs.raw(), ab, "raw engine", notRun);
		armCheck(run, "gateway_chat", runs.gateway(), ab, "gateway", notRun);
		if (runs.futility().isEmpty()) {
			armCheck(run, "aa_raw_a_chat", runs.aaFirst(), aa, "raw engine (A/A floor, first client)", notRun);
			armCheck(run, "aa_raw_b_chat", runs.aaSecond(), aa, "raw engine (A/A floor, second client)", notRun);
		}
		List<RequestOutcome> warmRaw = runs.warmupFailuresOf(RAW_CLIENT);
		List<RequestOutcome> warmGateway = runs.warmupFailuresOf(GATEWAY_CLIENT);
		ArmFailures.judgeFailures(run, List.of(
				new ArmFailures("warm-up", warmRaw.size(), warmGateway.size(), settings.warmup(),
						warmGateway.stream().findFirst().map(RequestOutcome::error).orElse(null)),
				ArmFailures.failures("raw against gateway", runs.raw().outcomes(), runs.gateway().outcomes())), notRun);
		ArmFailures.judgeRetries(run,
				List.of(ArmFailures.retries("raw against gateway", runs.raw().outcomes(), runs.gateway().outcomes())), notRun);
		if (!enough) {
			return;
		}
		boolean measured = tax.latencyTax().isDefined() && tax.decodeTpsTax().isDefined();
		run.check("tax_measured", measured,
				"latency_tax and decode_tps_tax measured, each with a 95% bootstrap interval over paired ABBA blocks",
				measured
						? String.format(Locale.ROOT, "latency_tax %.4f [%.4f, %.4f], decode_tps_tax %.4f [%.4f, %.4f]",
								tax.latencyTax().estimate(), tax.latencyTax().lo(), tax.latencyTax().hi(), tax.decodeTpsTax().estimate(),
								tax.decodeTpsTax().lo(), tax.decodeTpsTax().hi())
						: notRun != null
								? notRun
								: "latency: " + tax.latencyTax().reason().orElse("defined") + "; decode: "
										+ tax.decodeTpsTax().reason().orElse("defined"));
	}

	/**
	 * The instrument's own readings: a lagging engine double or an A/A noise floor wider than +/-1 % means the run
	 * measured nothing about the gateway (PENDING_MEASUREMENT with the reading and the fix, never PASS or FAIL).
	 */
	static void invalidations(RungRecorder run, TaxRuns runs, ConfidenceInterval noise) {
		runs.futility()
				.ifPresent(reading -> run.invalid("futility", "stopped at its first look, the A/A not run: its instrument is already "
						+ "past its limit: " + reading,
						"run on a quieter machine or a bigger client host, or run the witness to its end "
								+ "anyway with -D" + dev.fakbattery.core.HarnessConstants.CALIBRATION_FORCE + "=witness"));
		runs.lag()
				.filter(lag -> !lag.withinLimit())
				.ifPresent(lag -> run.invalid("engine_double_lag",
						"engine double scheduling lag " + lag + " over the " + (int) UpstreamLag.LIMIT_P99_MICROS
								+ " us limit: the double, "
								+ "not the gateway, added latency",
						"run on a quieter machine (no other build), or with fewer streams or a slower decode pace"));
		if (runs.skipped().isEmpty() && !runs.clientLag().withinLimit()) {
			run.invalid("client_lag", "load client scheduling lag " + runs.clientLag().withHostNote() + " over the "
					+ (int) dev.fakbattery.core.load.ClientLag.LIMIT_P99_MICROS + " us limit: the client, not the gateway, added latency",
					"run on a quieter machine (no other build), or with fewer streams");
		}
		if (runs.skipped().isEmpty() && noise.isDefined() && !withinOnePercent(noise)) {
			run.invalid("noise_floor", String.format(Locale.ROOT, "A/A latency_tax_paired %.4f [%.4f, %.4f] is wider than +/-1 %%: "
					+ "the raw engine against itself differs more than the effect to be measured", noise.estimate(), noise.lo(),
					noise.hi()),
					"more samples per arm (-D" + dev.fakbattery.core.HarnessConstants.TAX_COUNT + "="
							+ Math.max(16, 2 * runs.raw().conversations())
							+ "; this run sent " + runs.raw().conversations() + ") on a quieter machine");
		}
	}

	/**
	 * Latencies correlated over a longer stretch than the run can resample (the block length cut to keep enough blocks)
	 * give an interval too narrow to judge on: PENDING_MEASUREMENT with the reading and the fix, never PASS.
	 */
	static void blockInvalidations(RungRecorder run, TaxRuns runs, PairedBlocks tax, PairedBlocks noise) {
		if (runs.skipped().isEmpty()) {
			blockInvalidation(run, runs, "latency_tax_blocks", tax);
			blockInvalidation(run, runs, "noise_floor_blocks", noise);
		}
	}

	private static void blockInvalidation(RungRecorder run, TaxRuns runs, String name, PairedBlocks blocks) {
		if (blocks.capped()) {
			run.invalid(name, String.format(Locale.ROOT, "consecutive latencies are correlated over about %.1f ABBA pairs, "
					+ "longer than this run can resample in the fewest blocks an interval takes (%s): its interval would be "
					+ "too narrow", blocks.suggestedPairs(), blocks.describe()),
					"more samples per arm (-D" + dev.fakbattery.core.HarnessConstants.TAX_COUNT + "="
							+ Math.max(16, 2 * runs.raw().conversations()) + "; this run sent " + runs.raw().conversations()
							+ "), or a machine whose latency holds still");
		}
	}

	static boolean withinOnePercent(ConfidenceInterval ci) {
		return ci.isDefined() && ci.lo() >= 0.99 && ci.hi() <= 1.01;
	}

	/** KEEP passes, REVERT and NO_BENCH fail, NO_BASELINE is pending: nothing was compared. */
	private static void regressionGate(RungRecorder run, TaxSettings settings, TaxGateResult gate) {
		if (gate != null && gate.verdict() == TaxVerdict.NO_BASELINE) {
			run.pending("regression_gate", "the regression gate compared nothing: " + gate.reason()
					+ (gate.baselineRecorded() ? "" : "; this run was not valid, so none was recorded"),
					"run again to compare (baselines are kept in " + settings.baselineFile().getParent() + ")");
			return;
		}
		run.check("regression_gate", gate != null && gate.ok(), "gate KEEP: the upper bound of latency_tax's 95 % interval at most "
				+ "the baseline x (1 + " + dev.fakbattery.core.HarnessConstants.TAX_TOLERANCE + ") in " + settings.baselineFile(),
				gate == null ? "ERROR: " + run.body().path("gate").path("reason").asText() : gate.verdict() + ": " + gate.reason());
	}

	static void armCheck(RungRecorder run, String name, ArmReport arm, int count, String what, String notRun) {
		boolean ok = notRun == null && arm.conversations() == count && arm.failedConversations() == 0
				&& arm.okSamples() == arm.samples().size();
		String observed = notRun != null
				? notRun
				: arm.conversations() + " conversations, " + arm.okSamples() + "/" + arm.samples().size()
						+ " requests ok, HTTP status counts " + arm.statusCounts() + (arm.firstError() == null
								? ""
								: ", first failure: "
										+ arm.firstError());
		run.check(name, ok, "all " + count + " streamed " + what + " conversations answer HTTP 200 with tokens and [DONE] at every turn",
				observed, notRun == null && answeredWrong(arm.outcomes()));
	}

	/** The headline numbers as typed measurements, each only when it was measured. */
	private static void measurements(RungRecorder run, TaxStats tax, ConfidenceInterval noise, ConfidenceInterval noisePooled,
			TaxRuns runs) {
		String source = "adjudication-tax-witness: ratio of medians, " + runs.raw().samples().size() + " samples per arm";
		measure(run, "latency_tax", tax.latencyTax(), source);
		measure(run, "decode_tps_tax", tax.decodeTpsTax(), source);
		measure(run, "noise_floor_latency_tax", noisePooled, "A/A: raw against raw on the same schedule, ratio of medians");
		String paired = "adjudication-tax-witness: median of paired ratios, " + runs.raw().samples().size() + " samples per arm";
		measure(run, "latency_tax_paired", tax.latencyTaxPaired(), paired);
		measure(run, "decode_tps_tax_paired", tax.decodeTpsTaxPaired(), paired);
		measure(run, "noise_floor_latency_tax_paired", noise, "A/A: raw against raw on the same schedule, median of paired "
				+ "ratios (the floor judged)");
		if (Double.isFinite(tax.rawMedianLatencyS())) {
			run.measured("raw_median_latency_s", tax.rawMedianLatencyS(), "s", "raw engine arm, median E2EL");
		}
		if (Double.isFinite(tax.gatewayMedianLatencyS())) {
			run.measured("gateway_median_latency_s", tax.gatewayMedianLatencyS(), "s", "gateway arm, median E2EL");
		}
		runs.lag()
				.filter(lag -> Double.isFinite(lag.p99Micros()))
				.ifPresent(lag -> run.measured("engine_double_lag_p99", lag.p99Micros(), "us", "engine double scheduling lag"));
		if (runs.skipped().isEmpty() && runs.clientLag().count() > 0) {
			run.measured("client_lag_p99", runs.clientLag().p99Micros(), "us", "load client scheduling lag over the measured arms");
		}
	}

	private static void measure(RungRecorder run, String name, ConfidenceInterval ci, String source) {
		if (ci.isDefined()) {
			run.measured(name, ci.estimate(), "ratio", String.format(Locale.ROOT, "%s; 95%% CI [%.4f, %.4f]", source, ci.lo(), ci.hi()),
					ci);
		}
	}

	private static void summary(RungRecorder run, TaxUpstream upstream, TaxStats tax, ConfidenceInterval noise,
			ConfidenceInterval noisePooled, TaxGateResult gate) {
		ObjectNode summary = run.body().putObject("summary");
		summary.put("gate_verdict", gate == null ? "ERROR" : gate.verdict().name());
		JsonNumbers.put(summary, "latency_tax", tax.latencyTax().estimate(), 4);
		JsonNumbers.put(summary, "decode_tps_tax", tax.decodeTpsTax().estimate(), 4);
		JsonNumbers.put(summary, "noise_floor_latency_tax", noisePooled.estimate(), 4);
		JsonNumbers.put(summary, "latency_tax_paired", tax.latencyTaxPaired().estimate(), 4);
		JsonNumbers.put(summary, "noise_floor_latency_tax_paired", noise.estimate(), 4);
		summary.put("framing", run.body().path("framing").asText());
		run.headline(String.format(Locale.ROOT, "latency_tax %s, decode_tps_tax %s; paired: latency %s, A/A %s; gate %s%s",
				ci(tax.latencyTax()), ci(tax.decodeTpsTax()), ci(tax.latencyTaxPaired()), ci(noise),
				gate == null ? "ERROR" : gate.verdict(),
				upstream.simulated().isPresent() ? " (SIMULATED: engine double)" : ""));
	}

	private static String ci(ConfidenceInterval ci) {
		return ci.isDefined() ? String.format(Locale.ROOT, "%.4f [%.4f, %.4f]", ci.estimate(), ci.lo(), ci.hi()) : "unmeasured";
	}

	private static void putCi95(ObjectNode node, String key, ConfidenceInterval ci) {
		JsonNumbers.putPair(node, key, ci.lo(), ci.hi(), 4);
	}
}
