package dev.fakbattery.bench.tax;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.stats.BootstrapCi;
import dev.fakbattery.api.stats.ConfidenceInterval;
import dev.fakbattery.api.stats.TaxGate;
import dev.fakbattery.api.stats.TaxGateResult;
import dev.fakbattery.api.stats.TaxStats;
import dev.fakbattery.wire.JsonNumbers;

/**
 * Writes what the tax witness measured in the seed's fields, and records each acceptance item
 * with {@link RungRun#check} so every one is computed and can fail: {@code raw_vllm}, {@code gateway},
 * {@code tax}, {@code noise_floor}, {@code gate}, {@code interleaving}, the acceptance checks and
 * {@code summary}.
 *
 * @since 0.1
 */
final class TaxReport {

	private TaxReport() {
	}

	static void write(RungRun run, TaxSettings settings, TaxUpstream upstream, String model, TaxRuns runs) {
		ObjectNode body = run.body();
		Map<String, String> rows = new LinkedHashMap<>();
		rows.put("determinism_mode", settings.determinism());
		rows.put("precision", settings.precisionFor(upstream.simulated()));
		rows.put("batching_regime", settings.batchingFor(upstream.simulated()));
		rows.forEach(body::put);
		body.set("raw_vllm", runs.raw().toJson(rows));
		body.set("gateway", runs.gateway().toJson(rows));
		BootstrapCi bootstrap = BootstrapCi.seeded(settings.seed());
		TaxStats tax = TaxStats.compute(runs.raw().latencyS(), runs.gateway().latencyS(), runs.raw().decodeTps(),
				runs.gateway().decodeTps(), bootstrap);
		writeTax(body.putObject("tax"), tax, runs, bootstrap);
		ConfidenceInterval noise = bootstrap.ratioOfMedians(runs.aaSecond().latencyS(), runs.aaFirst().latencyS());
		writeNoiseFloor(body.putObject("noise_floor"), noise, runs);
		ObjectNode interleaving = body.putObject("interleaving");
		interleaving.put("scheme", "ABBA");
		interleaving.put("seed", settings.seed());
		interleaving.put("warmup_per_target", settings.warmup());
		interleaving.put("warmup_failed", runs.warmupFailed());
		runs.order().forEach(arm -> interleaving.withArray("order").add(arm == dev.fakbattery.api.stats.Interleaving.Arm.A ? "raw" : "gateway"));
		runs.skipped().ifPresent(why -> body.put("skipped", why));
		runs.lag().ifPresent(lag -> lag.writeTo(body.putObject("engine_double_lag")));
		TaxGateResult gate = gate(body, settings, upstream, model, tax);
		checks(run, settings, upstream, runs, tax, gate);
		summary(run, upstream, tax, noise, gate);
	}

	private static void writeTax(ObjectNode node, TaxStats tax, TaxRuns runs, BootstrapCi bootstrap) {
		tax.writeTo(node);
		putCi95(node, "latency_tax_ci95", tax.latencyTax());
		putCi95(node, "decode_tps_tax_ci95", tax.decodeTpsTax());
		ConfidenceInterval e2e = bootstrap.ratioOfMedians(runs.raw().e2eDecodeTps(), runs.gateway().e2eDecodeTps());
		JsonNumbers.put(node, "e2e_decode_tps_tax", e2e.estimate(), 4);
		putCi95(node, "e2e_decode_tps_tax_ci95", e2e);
		JsonNumbers.put(node, "raw_median_e2e_decode_tps", dev.fakbattery.api.stats.Percentiles.median(runs.raw().e2eDecodeTps()), 3);
		JsonNumbers.put(node, "gateway_median_e2e_decode_tps",
				dev.fakbattery.api.stats.Percentiles.median(runs.gateway().e2eDecodeTps()), 3);
		node.put("raw_ok_samples", runs.raw().okSamples());
		node.put("gateway_ok_samples", runs.gateway().okSamples());
	}

	private static void writeNoiseFloor(ObjectNode node, ConfidenceInterval noise, TaxRuns runs) {
		node.put("arms", "raw vs raw: two clients of the raw engine on the tax run's ABBA schedule");
		JsonNumbers.put(node, "latency_tax", noise.estimate(), 4);
		putCi95(node, "latency_tax_ci95", noise);
		noise.writeTo(node.putObject("latency_tax_ci"), 4);
		node.put("samples_per_arm", runs.aaFirst().samples().size());
		node.put("ok_samples", runs.aaFirst().okSamples() + runs.aaSecond().okSamples());
		node.put("ci95_within_1pct", noise.isDefined() && noise.lo() >= 0.99 && noise.hi() <= 1.01);
	}

	private static TaxGateResult gate(ObjectNode body, TaxSettings settings, TaxUpstream upstream, String model, TaxStats tax) {
		ObjectNode node = body.putObject("gate");
		try {
			TaxGateResult gate = new TaxGate(settings.baselineFile()).evaluate(model == null ? "unknown" : model, upstream.engine().id(),
					tax.latencyTax().estimate(), true);
			gate.writeTo(node);
			return gate;
		}
		catch (IllegalStateException e) {
			node.put("verdict", "ERROR").put("ok", false).put("baseline_file", settings.baselineFile().toString())
				.put("reason", e.getMessage());
			return null;
		}
	}

	private static void checks(RungRun run, TaxSettings settings, TaxUpstream upstream, TaxRuns runs, TaxStats tax,
			TaxGateResult gate) {
		String notRun = runs.skipped().map(why -> "not run: " + why).orElse(null);
		ObjectNode process = run.body().path("gateway_process") instanceof ObjectNode p ? p : null;
		String mode = process == null ? "none" : process.path("mode").asText();
		run.check("gateway_command", mode.equals("started") || mode.equals("existing"),
				"the gateway under test starts or is reachable (gateway_process.mode started or existing)",
				"mode " + mode + ": " + (process == null ? "" : process.path(process.has("error") ? "error" : "description").asText()));
		legCheck(run, "raw_vllm_chat", runs.raw(), settings.count(), "raw engine", notRun);
		legCheck(run, "gateway_chat", runs.gateway(), settings.count(), "gateway", notRun);
		boolean measured = tax.latencyTax().isDefined() && tax.decodeTpsTax().isDefined();
		run.check("tax_measured", measured, "latency_tax and decode_tps_tax measured, each with a 95% bootstrap interval",
				measured ? String.format(Locale.ROOT, "latency_tax %.4f [%.4f, %.4f], decode_tps_tax %.4f [%.4f, %.4f]",
						tax.latencyTax().estimate(), tax.latencyTax().lo(), tax.latencyTax().hi(), tax.decodeTpsTax().estimate(),
						tax.decodeTpsTax().lo(), tax.decodeTpsTax().hi())
						: notRun != null ? notRun : "latency: " + tax.latencyTax().reason().orElse("defined") + "; decode: "
								+ tax.decodeTpsTax().reason().orElse("defined"));
		run.check("regression_gate", gate != null && gate.ok(), "gate KEEP against " + settings.baselineFile(),
				gate == null ? "ERROR: " + run.body().path("gate").path("reason").asText() : gate.verdict() + ": " + gate.reason());
		String framing = run.body().path("framing").asText();
		List<String> problems = HonestFraming.problems(framing, upstream.simulated().isPresent());
		run.check("honest_framing", problems.isEmpty(), "states the tax >= 1 expectation, claims no speed win"
				+ (upstream.simulated().isPresent() ? ", says SIMULATED on the engine double" : ""),
				problems.isEmpty() ? "framing is honest" : String.join("; ", problems));
		if (upstream.lag().isPresent()) {
			run.check("double_not_bottleneck", runs.lag().map(UpstreamLag.Reading::withinLimit).orElse(false),
					"engine double scheduling lag p99 <= " + (int) UpstreamLag.LIMIT_P99_MICROS
							+ " us over the measured requests (else the double, not the gateway, added the latency)",
					runs.lag().map(UpstreamLag.Reading::toString).orElse(notRun != null ? notRun : "not measured"));
		}
	}

	private static void legCheck(RungRun run, String name, LegReport leg, int count, String what, String notRun) {
		boolean ok = leg.samples().size() == count && leg.okSamples() == count;
		String observed = notRun != null ? notRun : leg.okSamples() + "/" + leg.samples().size() + " ok, HTTP status counts "
				+ leg.statusCounts() + (leg.firstError() == null ? "" : ", first failure: " + leg.firstError());
		run.check(name, ok, "all " + count + " streamed " + what + " samples answer HTTP 200 with tokens and [DONE]", observed);
	}

	private static void summary(RungRun run, TaxUpstream upstream, TaxStats tax, ConfidenceInterval noise, TaxGateResult gate) {
		boolean allPassed = run.checks().stream().allMatch(dev.fakbattery.api.Check::passed);
		ObjectNode summary = run.body().putObject("summary");
		summary.put("vllm_adjudication_tax_witness", !allPassed ? "FAIL" : upstream.simulated().isPresent() ? "SIMULATED" : "PASS");
		summary.put("gate_verdict", gate == null ? "ERROR" : gate.verdict().name());
		JsonNumbers.put(summary, "latency_tax", tax.latencyTax().estimate(), 4);
		JsonNumbers.put(summary, "decode_tps_tax", tax.decodeTpsTax().estimate(), 4);
		JsonNumbers.put(summary, "noise_floor_latency_tax", noise.estimate(), 4);
		summary.put("framing", run.body().path("framing").asText());
		run.headline(String.format(Locale.ROOT, "latency_tax %s, decode_tps_tax %s, A/A %s; gate %s%s", ci(tax.latencyTax()),
				ci(tax.decodeTpsTax()), ci(noise), gate == null ? "ERROR" : gate.verdict(),
				upstream.simulated().isPresent() ? " (SIMULATED: engine double)" : ""));
	}

	private static String ci(ConfidenceInterval ci) {
		return ci.isDefined() ? String.format(Locale.ROOT, "%.4f [%.4f, %.4f]", ci.estimate(), ci.lo(), ci.hi()) : "unmeasured";
	}

	private static void putCi95(ObjectNode node, String key, ConfidenceInterval ci) {
		JsonNumbers.putPair(node, key, ci.lo(), ci.hi(), 4);
	}
}
