package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.RequestDetail;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.Interleaving;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The tax witness's verdict from synthetic arms: checks, pendings, invalidations and what the artifact carries. */
@DisplayName("tax report on synthetic arms")
class TaxReportTests {

	private static final UpstreamLag.Reading CALM = new UpstreamLag.Reading(500, 80, 400, 700);

	@TempDir
	Path dir;

	private static ArmReport arm(String name, double... e2elMs) {
		List<InterleavingRunner.Sample> samples = new ArrayList<>();
		for (int i = 0; i < e2elMs.length; i++) {
			samples.add(new InterleavingRunner.Sample(i, Synthetic.ok(name, i, 10, e2elMs[i], 8)));
		}
		return new ArmReport(name, samples);
	}

	private static ArmReport arm(String name, List<RequestOutcome> outcomes) {
		List<InterleavingRunner.Sample> samples = new ArrayList<>();
		outcomes.forEach(o -> samples.add(new InterleavingRunner.Sample(o.detail().conversation(), o)));
		return new ArmReport(name, samples);
	}

	/** Eight samples: 100.0 to 100.3 ms, twice. */
	private static final double[] STEADY = { 100.0, 100.1, 100.2, 100.3, 100.0, 100.1, 100.2, 100.3 };

	/** The first {@code n} samples of 100.0, 100.1, 100.2, 100.3 ms, repeated: an A/An arm as long as the measured ones. */
	/** 100.0 to 100.3 ms over and over, starting {@code shift} steps in: the two A/A arms differ pair by pair. */
	private static ArmReport aa(String name, int n, int shift) {
		double[] e2el = new double[n];
		for (int i = 0; i < n; i++) {
			e2el[i] = 100.0 + ((i + shift) % 4) / 10.0;
		}
		return arm(name, e2el);
	}

	private static TaxRuns runs(ArmReport raw, ArmReport gateway, ClientLag client) {
		int n = raw.conversations();
		return runs(raw, gateway, aa("aa_raw_a", n, 0), aa("aa_raw_b", n, 1), client);
	}

	private static TaxRuns runs(ArmReport raw, ArmReport gateway, ArmReport aaFirst, ArmReport aaSecond, ClientLag client) {
		return new TaxRuns(raw, gateway, aaFirst, aaSecond, Interleaving.abba(raw.conversations(), 1), 0, Optional.of(CALM),
				Optional.empty(),
				client, Optional.empty(), Optional.empty());
	}

	private RungRecorder write(TaxRuns runs) {
		RungRecorder run = Synthetic.run(ArtifactId.TAX_WITNESS);
		run.body().putObject("gateway_process").put("mode", "started").put("description", "embedded");
		TaxReport.write(run, Synthetic.settings(dir, Map.of("tax.count", String.valueOf(runs.raw().conversations()))),
				Synthetic.simulated(CALM), "m", runs);
		return run;
	}

	@Test
	@DisplayName("valid arms pass every check; the first run has no baseline (pending), the second is KEEP")
	void validThenKeep() {
		TaxRuns runs = runs(arm("raw_vllm", STEADY), arm("gateway", 100.5, 100.6, 100.7, 100.8, 100.5, 100.6, 100.7, 100.8),
				Synthetic.QUIET);
		RungRecorder first = write(runs);
		assertThat(first.checks()).extracting(Check::name)
				.containsExactly("gateway_command", "raw_vllm_chat", "gateway_chat",
						"aa_raw_a_chat", "aa_raw_b_chat", "gateway_failures", "gateway_retries", "tax_measured", "honest_framing");
		assertThat(first.checks()).allMatch(Check::passed);
		assertThat(first.invalidations()).isEmpty();
		assertThat(first.pendings()).extracting(Measurement.Pending::name).containsExactly("regression_gate");
		assertThat(first.pendings().get(0).missing()).startsWith("the regression gate compared nothing: no baseline for gateway=")
				.contains("|engine=engine-double-vllm version-unreported|model=m|workload=")
				.endsWith("and recorded it as the baseline");
		assertThat(Synthetic.check(first, "raw_vllm_chat").observed())
				.isEqualTo("8 conversations, 8/8 requests ok, HTTP status counts {200=8}");
		assertThat(first.measurements()).extracting(Measurement::name)
				.contains("latency_tax", "decode_tps_tax", "noise_floor_latency_tax",
						"client_lag_p99", "engine_double_lag_p99");
		assertThat(first.body().path("client_lag").path("within_limit").asBoolean()).isTrue();
		assertThat(first.body().path("gateway").path("latency").path("p99.9_e2el_ms").asDouble()).isEqualTo(100.8,
				org.assertj.core.data.Offset.offset(0.01));
		assertThat(first.body().has("adjudication")).as("no tool call, no adjudication").isFalse();
		RungRecorder second = write(runs);
		assertThat(Synthetic.check(second, "regression_gate").passed()).isTrue();
		assertThat(Synthetic.check(second, "regression_gate").observed()).startsWith("KEEP");
	}

	@Test
	@DisplayName("a gateway faster than the raw engine beyond noise fails honest_framing")
	void contradiction() {
		RungRecorder run = write(
				runs(arm("raw_vllm", STEADY), arm("gateway", 90.0, 90.1, 90.2, 90.3, 90.0, 90.1, 90.2, 90.3), Synthetic.QUIET));
		assertThat(Synthetic.check(run, "honest_framing").passed()).isFalse();
		assertThat(Synthetic.check(run, "honest_framing").product()).as("a measurement check, not the target's answer").isFalse();
		assertThat(Synthetic.check(run, "honest_framing").observed())
				.isEqualTo("the gateway measured faster than the raw engine beyond noise: "
						+ "latency_tax 0.9001 [0.9000, 0.9003] lies below the A/A floor [0.9970, 1.0010]; the arms were not comparable");
	}

	@Test
	@DisplayName("latencies correlated over more of the run than its blocks can hold: PENDING on the block length, never PASS")
	void correlatedRunIsPending() {
		int n = 64;
		double[] raw = new double[n];
		double[] drifting = new double[n];
		for (int i = 0; i < n; i++) {
			raw[i] = 100.0 + (i % 4) / 10.0;
			drifting[i] = 101.0 + 2.0 * i / n;
		}
		RungRecorder run = write(runs(arm("raw_vllm", raw), arm("gateway", drifting), Synthetic.QUIET));

		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("latency_tax_blocks");
		assertThat(run.invalidations().get(0).missing()).contains("correlated over about", "cut to keep enough blocks");
		assertThat(run.invalidations().get(0).howToProvide()).contains("-Dtax.count=128");
		assertThat(run.body().at("/tax/latency_tax_ci/blocks/capped").asBoolean()).isTrue();
		assertThat(run.body().at("/noise_floor/latency_tax_ci/blocks/capped").asBoolean()).isFalse();
	}

	@Test
	@DisplayName("a gateway answering 500 fails its arm's product check naming status and reason, even beside a lagging client")
	void failureAndLag() {
		List<RequestOutcome> gateway = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			gateway.add(Synthetic.ok("gateway", i, 10, 101, 8));
		}
		gateway.add(Synthetic.failed("gateway", 7, 500));
		RungRecorder run = write(runs(arm("raw_vllm", STEADY), arm("gateway", gateway), Synthetic.LATE));
		assertThat(Synthetic.check(run, "gateway_chat").passed()).isFalse();
		assertThat(Synthetic.check(run, "gateway_chat").product()).as("the gateway's own answer: FAIL whatever the instrument says")
				.isTrue();
		assertThat(Synthetic.check(run, "gateway_chat").observed())
				.isEqualTo("8 conversations, 7/8 requests ok, HTTP status counts {200=7, 500=1}, "
						+ "first failure: HTTP 500: boom");
		assertThat(Synthetic.check(run, "gateway_chat").expected())
				.isEqualTo("all 8 streamed gateway conversations answer HTTP 200 with tokens "
						+ "and [DONE] at every turn");
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("client_lag");
		assertThat(run.pendings()).extracting(Measurement.Pending::name).containsExactly("client_lag", "regression_gate");
		assertThat(run.pendings().get(1).missing()).endsWith("; this run was not valid, so none was recorded");
	}

	@Test
	@DisplayName("warm-up requests failing on the gateway alone fail gateway_failures, a product check, though every measured request answered")
	void warmupFailuresCount() {
		TaxRuns clean = runs(arm("raw_vllm", STEADY), arm("gateway", 100.5, 100.6, 100.7, 100.8, 100.5, 100.6, 100.7, 100.8),
				Synthetic.LATE);
		List<RequestOutcome> warmup = List.of(Synthetic.failed("gateway", 0, 503), Synthetic.failed("gateway", 1, 503),
				Synthetic.failed("raw_b", 0, 0));
		TaxRuns runs = new TaxRuns(clean.raw(), clean.gateway(), clean.aaFirst(), clean.aaSecond(), clean.order(), warmup.size(),
				clean.lag(), clean.skipped(), clean.clientLag(), clean.engineMetrics(), clean.gatewayMetrics(), Optional.empty(),
				Optional.empty(), warmup);
		RungRecorder run = write(runs);
		assertThat(Synthetic.check(run, "gateway_chat").passed()).isTrue();
		Check failures = Synthetic.check(run, "gateway_failures");
		assertThat(failures.passed()).isFalse();
		assertThat(failures.product()).as("FAIL beside the lagging client's PENDING").isTrue();
		assertThat(failures.observed()).startsWith("warm-up: gateway 2 failed of ").endsWith(", raw 0 (gateway's first: HTTP 503: boom)");
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("client_lag");
		assertThat(run.body().path("interleaving").path("warmup_failed_by_target").toString())
				.isEqualTo("{\"raw\":0,\"gateway\":2,\"raw_b\":1}");
	}

	@Test
	@DisplayName("a request with no answer (timed out) fails its arm's check as a measurement check: not judged on a lagging client")
	void noAnswerIsNotProduct() {
		List<RequestOutcome> gateway = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			gateway.add(Synthetic.ok("gateway", i, 10, 101, 8));
		}
		gateway.add(Synthetic.failed("gateway", 7, 0));
		RungRecorder run = write(runs(arm("raw_vllm", STEADY), arm("gateway", gateway), Synthetic.LATE));
		assertThat(Synthetic.check(run, "gateway_chat").passed()).isFalse();
		assertThat(Synthetic.check(run, "gateway_chat").product()).isFalse();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("client_lag");
	}

	@Test
	@DisplayName("a failed request on an A/An arm fails that arm's check like a measured one, never dropped")
	void aaFailureCounts() {
		List<RequestOutcome> second = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			second.add(Synthetic.ok("raw_b", i, 10, 100, 8));
		}
		second.add(Synthetic.failed("raw_b", 7, 503));
		RungRecorder run = write(
				runs(arm("raw_vllm", STEADY), arm("gateway", STEADY), aa("aa_raw_a", 8, 0), arm("aa_raw_b", second), Synthetic.QUIET));
		assertThat(Synthetic.check(run, "aa_raw_a_chat").passed()).isTrue();
		assertThat(Synthetic.check(run, "aa_raw_b_chat").passed()).isFalse();
		assertThat(Synthetic.check(run, "aa_raw_b_chat").product()).isTrue();
		assertThat(Synthetic.check(run, "aa_raw_b_chat").observed())
				.isEqualTo("8 conversations, 7/8 requests ok, HTTP status counts {200=7, 503=1}, "
						+ "first failure: HTTP 503: boom");
		assertThat(run.body().path("noise_floor").path("failed_samples").asInt()).isEqualTo(1);
	}

	@ParameterizedTest(name = "tax.count={0}")
	@ValueSource(ints = { 1, 5 })
	@DisplayName("fewer samples per arm than an interval takes is PENDING_MEASUREMENT naming the minimum and tax.count, never a pass")
	void tooFewSamples(int count) {
		double[] e2el = java.util.Arrays.copyOf(STEADY, count);
		RungRecorder run = write(runs(arm("raw_vllm", e2el), arm("gateway", e2el), Synthetic.QUIET));
		assertThat(run.pendings()).extracting(Measurement.Pending::name).containsExactly("tax.count");
		assertThat(run.pendings().get(0).reason()).isEqualTo("an arm sent " + count + " samples, fewer than the 6 per arm a 95 % interval "
				+ "of a median takes (from n points even min to max covers the median with probability only 1 - 2 x 0.5^n), so latency_tax, "
				+ "decode_tps_tax and the A/A floor are undefined (set -Dtax.count=8 (at least 6))");
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("gateway_command", "raw_vllm_chat", "gateway_chat", "aa_raw_a_chat",
						"aa_raw_b_chat", "gateway_failures", "gateway_retries");
		assertThat(run.checks()).allMatch(Check::passed);
		assertThat(run.measurements()).extracting(Measurement::name).doesNotContain("latency_tax", "noise_floor_latency_tax");
		assertThat(run.body().path("gate").path("verdict").asText()).isEqualTo("NO_BENCH");
	}

	@Test
	@DisplayName("a witness that did not run fails its checks with the reason, has no framing check and no client lag")
	void skipped() {
		RungRecorder run = Synthetic.run(ArtifactId.TAX_WITNESS);
		TaxReport.write(run, Synthetic.settings(dir, Map.of()), Synthetic.simulated(CALM), null,
				TaxRuns.skipped("the gateway did not start"));
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("gateway_command", "raw_vllm_chat", "gateway_chat", "aa_raw_a_chat",
						"aa_raw_b_chat", "gateway_failures", "gateway_retries", "tax_measured", "regression_gate");
		assertThat(run.checks()).noneMatch(Check::passed);
		assertThat(Synthetic.check(run, "gateway_command").observed()).isEqualTo("mode none: ");
		assertThat(Synthetic.check(run, "tax_measured").observed()).isEqualTo("not run: the gateway did not start");
		assertThat(run.invalidations()).isEmpty();
		assertThat(run.body().has("client_lag")).isFalse();
		assertThat(run.body().path("skipped").asText()).isEqualTo("the gateway did not start");
	}

	@Test
	@DisplayName("tool calls on the wire give the gateway's adjudication share: passed, redacted, dropped")
	void adjudicationShare() {
		List<RequestDetail.Call> proposed = List.of(new RequestDetail.Call("a", "allow_read", "{\"p\": 1}"),
				new RequestDetail.Call("b", "deny_write", "{}"), new RequestDetail.Call("c", "transform_exec", "{\"cmd\": \"ls\"}"));
		List<RequestDetail.Call> passed = List.of(new RequestDetail.Call("a", "allow_read", "{\"p\": 1}"),
				new RequestDetail.Call("c", "transform_exec", "{\"redacted\": true}"));
		RungRecorder run = write(runs(
				arm("raw_vllm", List.of(Synthetic.ok("raw", 0, 0, 10, 100, 8, proposed), Synthetic.ok("raw", 0, 1, 10, 100, 8,
						List.of()))),
				arm("gateway", List.of(Synthetic.ok("gateway", 0, 0, 10, 101, 8, passed), Synthetic.ok("gateway", 0, 1, 10, 101, 8,
						List.of()))),
				Synthetic.QUIET));
		var adjudication = run.body().path("adjudication");
		assertThat(adjudication.path("turns_compared").asInt()).isEqualTo(1);
		assertThat(adjudication.path("proposed").asInt()).isEqualTo(3);
		assertThat(adjudication.path("passed").asInt()).isEqualTo(1);
		assertThat(adjudication.path("redacted").asInt()).isEqualTo(1);
		assertThat(adjudication.path("dropped").asInt()).isEqualTo(1);
		assertThat(adjudication.path("share").asDouble()).isEqualTo(0.6667);
		assertThat(run.body().path("gateway").path("tool_calls").path("by_kind").toString()).isEqualTo("{\"allow\":1,\"transform\":1}");
		assertThat(run.body().path("gateway").path("per_turn")).hasSize(2);
	}

	@Test
	@DisplayName("the artifact carries fak's fields, each with the number measured: tax, A/A floor, interleaving, lag, summary")
	void artifactFields() {
		RungRecorder run = write(runs(arm("raw_vllm", STEADY), arm("gateway", 100.6, 100.7, 100.8, 100.5, 100.6, 100.7, 100.8, 100.5),
				Synthetic.QUIET));
		var body = run.body();
		// medians 100.15 and 100.65 ms: 100.65 / 100.15 = 1.0050
		assertThat(body.path("tax").toString()).contains("\"latency_tax\":1.005,", "\"latency_tax_ci95\":[1.002,1.006]",
				"\"decode_tps_tax_ci95\":[1.0022,1.0067]", "\"e2e_decode_tps_tax\":1.005,\"e2e_decode_tps_tax_ci95\":[1.002,1.006]",
				"\"raw_median_e2e_decode_tps\":79.801,\"gateway_median_e2e_decode_tps\":79.404",
				"\"raw_ok_samples\":8,\"gateway_ok_samples\":8");
		// pair by pair 100.6/100.0, 100.7/100.1, 100.8/100.2, 100.5/100.3, twice: median (1.005988 + 1.005994) / 2
		assertThat(body.path("tax").toString()).contains("\"latency_tax_paired\":1.006,\"latency_tax_paired_ci95\":[");
		// A/A pair by pair 100.1/100.0, 100.2/100.1, 100.3/100.2, 100.0/100.3, twice: median (1.000998 + 1.000999) / 2
		assertThat(body.path("noise_floor").toString()).contains("\"latency_tax_paired\":1.001,",
				"\"judged_on\":\"latency_tax_paired: the median of paired ratios");
		assertThat(body.path("noise_floor").toString()).contains("\"latency_tax\":1.0,\"latency_tax_ci95\":[0.997,1.001]",
				"\"estimate\":1.0,\"lo\":0.997,\"hi\":1.001",
				"\"samples_per_arm\":8,\"ok_samples\":16,\"failed_samples\":0,\"ci95_within_1pct\":true");
		assertThat(body.at("/noise_floor/latency_s_by_slot/aa_raw_a")).hasSize(8);
		assertThat(body.at("/noise_floor/latency_s_by_slot/aa_raw_b/1").toString()).isEqualTo("[1,0.1002]");
		assertThat(body.path("interleaving").path("order")).hasSize(16);
		assertThat(body.path("interleaving").path("scheme").asText()).isEqualTo("ABBA");
		assertThat(body.path("engine_double_lag").toString()).isEqualTo("{\"count\":500,\"p50_us\":80.0,\"p99_us\":400.0,"
				+ "\"max_us\":700.0,\"limit_p99_us\":1000.0,\"within_limit\":true}");
		assertThat(body.path("summary").toString()).isEqualTo("{\"gate_verdict\":\"NO_BASELINE\",\"latency_tax\":1.005,"
				+ "\"decode_tps_tax\":1.0055,\"noise_floor_latency_tax\":1.0,\"latency_tax_paired\":1.006,"
				+ "\"noise_floor_latency_tax_paired\":1.001,\"framing\":\"\"}");
		assertThat(body.path("determinism_mode").asText()).isEqualTo("engine.vllm.determinism.unavailable");
		assertThat(run.headline()).contains("latency_tax 1.0050 [1.0020, 1.0060], decode_tps_tax 1.0055 [1.0022, 1.0067]; "
				+ "paired: latency 1.0060 [1.0020, 1.0060], A/A 1.0010 [0.9970, 1.0010]; gate NO_BASELINE (SIMULATED: engine double)");
		assertThat(run.workload()).contains("fixed counting prompt, max_tokens 64; 8 streamed samples per arm, ABBA after 1 warm-up");
		assertThat(run.measurements()).extracting(Measurement::name)
				.containsExactly("regression_gate", "latency_tax", "decode_tps_tax",
						"noise_floor_latency_tax", "latency_tax_paired", "decode_tps_tax_paired", "noise_floor_latency_tax_paired",
						"raw_median_latency_s", "gateway_median_latency_s", "engine_double_lag_p99",
						"client_lag_p99");
	}

	@Test
	@DisplayName("a witness that did not run says so in its headline: nothing measured, no number")
	void skippedHeadline() {
		RungRecorder run = Synthetic.run(ArtifactId.TAX_WITNESS);
		TaxReport.write(run, Synthetic.settings(dir, Map.of()), Synthetic.simulated(CALM), null, TaxRuns.skipped("x"));
		assertThat(run.headline())
				.contains("latency_tax unmeasured, decode_tps_tax unmeasured; paired: latency unmeasured, A/A unmeasured; gate NO_BENCH "
						+ "(SIMULATED: engine double)");
		assertThat(run.body().path("summary").path("latency_tax").isNull()).isTrue();
	}
}
