package dev.fakbattery.bench.tax;

import static dev.fakbattery.bench.tax.Synthetic.ci;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.stats.ConfidenceInterval;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's verdict from synthetic levels: every check, pending and invalidation, with its exact text. */
@DisplayName("concurrency sweep report on synthetic levels")
class SweepReportTests {

	private static final UpstreamLag.Reading CALM = new UpstreamLag.Reading(500, 80, 400, 700);

	@TempDir
	Path dir;

	private TaxSettings settings;

	private List<Path> plots;

	@BeforeEach
	void setUp() throws IOException {
		settings = Synthetic.settings(dir, Map.of());
		plots = List.of(Files.writeString(dir.resolve("a.png"), "png"), Files.writeString(dir.resolve("b.png"), "png"));
	}

	private static SweepLevel level(int c, ConfidenceInterval ratio, LoadResult a, LoadResult b, Optional<UpstreamLag.Reading> lag) {
		return new SweepLevel(c, List.of(a), List.of(b), a, b, ratio, ratio, ci(1.001, 0.998, 1.004), 0, lag, Optional.empty());
	}

	private static SweepLevel clean(int c, double ratio, ClientLag client) {
		return level(c, ci(ratio, ratio - 0.003, ratio + 0.002), Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, client),
				Synthetic.result("gateway", Synthetic.oks("gateway", 4, 101), 0, 1, client), Optional.of(CALM));
	}

	private RungRecorder started() {
		RungRecorder run = Synthetic.run(ArtifactId.CONCURRENCY_SWEEP);
		run.body().putObject("gateway_process").put("mode", "started").put("description", "embedded reference gateway");
		return run;
	}

	@Test
	@DisplayName("batches correlated over more of a level than its blocks can hold: PENDING on ratio_blocks, never PASS")
	void correlatedBatchesArePending() {
		List<LoadResult> raw = new java.util.ArrayList<>();
		List<LoadResult> drifting = new java.util.ArrayList<>();
		for (int i = 0; i < 64; i++) {
			raw.add(Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1.0 + (i % 4) / 1000.0, Synthetic.QUIET));
			drifting.add(Synthetic.result("gateway", Synthetic.oks("gateway", 4, 101), 0, 1.0 + i / 64.0, Synthetic.QUIET));
		}
		LoadResult a = LoadResult.merge("closed loop", raw);
		LoadResult b = LoadResult.merge("closed loop", drifting);
		SweepLevel level = new SweepLevel(4, raw, drifting, a, b, SweepLevel.ratioBlocks(raw, drifting, 6)
				.bOverA(
						dev.fakbattery.core.stats.BootstrapCi.seeded(1)),
				ci(0.8, 0.79, 0.81), ci(1.3, 1.2, 1.4), 0, Optional.of(CALM),
				Optional.empty());
		RungRecorder run = started();

		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(level), Optional.of(clean(4, 1.0, Synthetic.QUIET)),
				plots, null);

		assertThat(level.ratioBlocks().capped()).isTrue();
		assertThat(level.ratio().method()).startsWith(dev.fakbattery.core.stats.BootstrapCi.PAIRED_BLOCKS);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("ratio_blocks");
		assertThat(run.invalidations().get(0).missing()).contains("c=4 6 blocks of 10 ABBA pairs", "cut to keep enough blocks");
		assertThat(level.toJson("raw", "gateway").at("/ratio_ci/blocks/capped").asBoolean()).isTrue();
	}

	@Test
	@DisplayName("clean levels pass every check, invalidate nothing and measure each ratio and lag")
	void clean() {
		RungRecorder run = started();
		SweepReport.checks(run, settings, Synthetic.simulated(CALM),
				List.of(clean(1, 0.999, Synthetic.QUIET), clean(4, 0.99, Synthetic.QUIET)),
				Optional.of(clean(4, 1.0, Synthetic.QUIET)), plots, null);
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("gateway_command", "sweep_measured", "requests_succeeded", "gateway_failures", "gateway_retries",
						"plots_written");
		assertThat(run.checks()).allMatch(Check::passed);
		assertThat(Synthetic.check(run, "sweep_measured").observed()).isEqualTo("c=1 0.999, c=4 0.990");
		assertThat(Synthetic.check(run, "requests_succeeded").observed()).isEqualTo("0 failed");
		assertThat(run.invalidations()).isEmpty();
		assertThat(run.measurements()).extracting(Measurement::name)
				.containsExactly("ratio_c1", "engine_double_lag_p99_c1",
						"client_lag_p99_c1", "ratio_c4", "engine_double_lag_p99_c4", "client_lag_p99_c4", "noise_floor_ratio_c4");
		assertThat(run.headline()).contains("gateway/raw tok/s ratio c=1 0.999, c=4 0.990; A/A c=4 1.000 (SIMULATED: engine double)");
		assertThat(run.body().path("summary").path("ratio_by_concurrency").path("4").asDouble()).isEqualTo(0.99);
	}

	@Test
	@DisplayName("a level without a ratio, failed requests, a failed gateway start and missing plots each fail their own check")
	void failures() {
		RungRecorder run = Synthetic.run(ArtifactId.CONCURRENCY_SWEEP);
		run.body().putObject("gateway_process").put("mode", "start-failed").put("error", "port taken");
		SweepLevel broken = level(4, Synthetic.undefined(), Synthetic.result("raw", Synthetic.oks("raw", 2, 100), 0, 1, Synthetic.QUIET),
				Synthetic.result("gateway", List.of(Synthetic.failed("gateway", 0, 500), Synthetic.failed("gateway", 1, 502)), 1, 1,
						Synthetic.QUIET),
				Optional.of(CALM));
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(clean(1, 0.999, Synthetic.QUIET), broken), Optional.empty(),
				List.of(), null);
		assertThat(Synthetic.check(run, "gateway_command").passed()).isFalse();
		assertThat(Synthetic.check(run, "gateway_command").observed()).isEqualTo("mode start-failed: port taken");
		assertThat(Synthetic.check(run, "sweep_measured").passed()).isFalse();
		assertThat(Synthetic.check(run, "sweep_measured").observed()).isEqualTo("no ratio at [c=4: no samples, A/A: not measured]");
		assertThat(Synthetic.check(run, "requests_succeeded").passed()).isFalse();
		assertThat(Synthetic.check(run, "requests_succeeded").observed()).isEqualTo("3 failed: c=4: 3 (gateway: HTTP 500: boom)");
		assertThat(Synthetic.check(run, "requests_succeeded").product()).as("the gateway answered 500: its own failure").isTrue();
		assertThat(Synthetic.check(run, "plots_written").passed()).isFalse();
		assertThat(Synthetic.check(run, "plots_written").observed()).isEqualTo("");
	}

	@Test
	@DisplayName("a lagging double, a lagging client and a wide A/A ratio each invalidate the sweep with the reading and the fix")
	void invalidations() {
		RungRecorder run = started();
		UpstreamLag.Reading late = new UpstreamLag.Reading(500, 300, 1_900, 4_000);
		SweepLevel lagging = level(8, ci(0.99, 0.98, 1.0), Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, Synthetic.LATE),
				Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, Synthetic.QUIET), Optional.of(late));
		SweepLevel unread = level(16, ci(0.99, 0.98, 1.0), Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, Synthetic.QUIET),
				Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, Synthetic.QUIET), Optional.empty());
		// the README's llama.cpp A/A: a narrow per-request latency interval beside the batch ratio's wide one
		SweepLevel noise = new SweepLevel(8, List.of(), List.of(), lagging.a(), lagging.b(), ci(1.002, 0.987, 1.021), ci(1.0, 0.999, 1.001),
				ci(1.0, 0.998, 1.002), 0, Optional.of(CALM), Optional.empty());
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(clean(1, 1.0, Synthetic.QUIET), lagging, unread),
				Optional.of(noise), plots, null);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name)
				.containsExactly("engine_double_lag", "client_lag",
						"noise_floor");
		assertThat(run.invalidations().get(0).missing()).isEqualTo("invalid measurement, its own instrument says so: engine double "
				+ "scheduling lag p99 over 1000 us at [c=8 p99 1900.0 us (p50 300.0, max 4000.0) over 500 emissions, c=16 not measured]: "
				+ "the double, not the gateway, set the pace");
		assertThat(run.invalidations().get(1).missing()).startsWith("invalid measurement, its own instrument says so: load client "
				+ "scheduling lag p99 over 1000 us at [c=8 p99 ").endsWith("the client, not the gateway, set the pace");
		assertThat(run.invalidations().get(1).howToProvide()).isEqualTo("run on a quieter machine (no other build), or at fewer streams "
				+ "(-Dsweep.concurrency=1,8)");
		assertThat(run.invalidations().get(2).missing()).isEqualTo("invalid measurement, its own instrument says so: A/A ratio at "
				+ "c=8 1.0020 [0.9870, 1.0210] is wider than +/-1 %: the raw engine against itself differs more than the effect to be measured");
		assertThat(run.invalidations().get(2).howToProvide()).isEqualTo("more requests for the A/A level (-Dsweep.noise.requests=256; "
				+ "this run sent 48 per arm, half-width 1.70 %, 0.80 % of room around its estimate) on a quieter machine");
	}

	@Test
	@DisplayName("the A/A level's instrument is checked like every other level's: its client lag over the limit invalidates the sweep, naming it")
	void aaLevelLagChecked() {
		RungRecorder run = started();
		SweepLevel calm = clean(4, 1.0, Synthetic.QUIET);
		SweepLevel lagging = clean(4, 1.0, Synthetic.LATE);
		SweepLevel noise = new SweepLevel(4, List.of(), List.of(), lagging.a(), lagging.b(), ci(1.0, 0.995, 1.004), ci(1.0, 0.999, 1.001),
				ci(1.0, 0.998, 1.002), 0, Optional.of(new UpstreamLag.Reading(500, 300, 1_900, 4_000)), Optional.empty());
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(clean(1, 1.0, Synthetic.QUIET), calm), Optional.of(noise),
				plots, null);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("engine_double_lag", "client_lag");
		assertThat(run.invalidations().get(0).missing()).contains("at [A/A c=4 p99 1900.0 us");
		assertThat(run.invalidations().get(1).missing()).contains("at [A/A c=4 p99 2401.0 us");
	}

	@Test
	@DisplayName("a level's warm-up wave failing on the gateway arm alone fails gateway_failures, naming the level and the first error")
	void warmupWaveFailuresCount() {
		RungRecorder run = started();
		SweepLevel calm = clean(4, 1.0, Synthetic.QUIET);
		SweepLevel warmFailing = new SweepLevel(4, calm.batchesA(), calm.batchesB(), calm.a(), calm.b(), calm.ratio(),
				calm.perRequestRatio(),
				calm.latencyTax(), 2, calm.lag(), Optional.empty(), Optional.empty(),
				List.of(Synthetic.failed("gateway", 0, 500), Synthetic.failed("gateway", 1, 500)));
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(clean(1, 1.0, Synthetic.QUIET), warmFailing),
				Optional.of(clean(4, 1.0, Synthetic.QUIET)), plots, null);
		Check failures = Synthetic.check(run, "gateway_failures");
		assertThat(failures.passed()).isFalse();
		assertThat(failures.product()).isTrue();
		assertThat(failures.observed()).isEqualTo("c=4 warm-up: gateway 2 failed of 4, raw 0 (gateway's first: HTTP 500: boom)");
		assertThat(Synthetic.check(run, "requests_succeeded").passed()).as("the measured requests all answered").isTrue();
		assertThat(warmFailing.toJson("raw", "gateway").path("warmup_failed_by_arm").path("gateway").asInt()).isEqualTo(2);
	}

	@Test
	@DisplayName("the A/A floor's fix: the count its interval would fit at, or a quieter machine where the estimate leaves no room")
	void noiseFloorFix() {
		// the container's c=4 A/A at 512 per arm (2026-12-04): fits at about four times the count
		assertThat(SweepReport.moreNoiseRequests(ci(1.0037, 0.9881, 1.0130), 512)).startsWith("more requests for the A/A level "
				+ "(-Dsweep.noise.requests=2048; this run sent 512 per arm, half-width 1.24 %, 0.63 % of room");
		assertThat(SweepReport.moreNoiseRequests(ci(1.0004, 0.9950, 1.0115), 2048)).as("never less than twice what was sent")
				.contains("-Dsweep.noise.requests=4096;");
		assertThat(SweepReport.moreNoiseRequests(ci(1.0095, 1.0014, 1.0180), 2048)).startsWith("the A/A estimate itself lies 0.95 % "
				+ "from 1 (this run sent 2048 per arm): not a matter of count");
	}

	@Test
	@DisplayName("the A/A floor is judged on the ratio the sweep reports: a narrow ratio is valid beside a wide per-request latency_tax")
	void floorJudgedOnRatio() {
		RungRecorder run = started();
		SweepLevel calm = clean(4, 1.0, Synthetic.QUIET);
		SweepLevel noise = new SweepLevel(4, List.of(), List.of(), calm.a(), calm.b(), ci(1.0, 0.995, 1.004), ci(1.0, 0.98, 1.03),
				ci(1.02, 0.97, 1.05), 0, Optional.of(CALM), Optional.empty());
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(clean(1, 1.0, Synthetic.QUIET), calm), Optional.of(noise),
				plots,
				null);
		assertThat(run.invalidations()).isEmpty();
		assertThat(run.checks()).allMatch(Check::passed);
	}

	@Test
	@DisplayName("a failed request on the A/A level fails requests_succeeded like a measured one, and an unmeasured A/A ratio fails sweep_measured")
	void floorFailuresCount() {
		RungRecorder run = started();
		SweepLevel noise = level(4, Synthetic.undefined(), Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, Synthetic.QUIET),
				Synthetic.result("raw_b", List.of(Synthetic.failed("raw_b", 0, 503)), 0, 1, Synthetic.QUIET), Optional.of(CALM));
		SweepReport.checks(run, settings, Synthetic.simulated(CALM),
				List.of(clean(1, 1.0, Synthetic.QUIET), clean(4, 1.0, Synthetic.QUIET)),
				Optional.of(noise), plots, null);
		assertThat(Synthetic.check(run, "requests_succeeded").passed()).isFalse();
		assertThat(Synthetic.check(run, "requests_succeeded").observed()).isEqualTo("1 failed: A/A c=4: 1 (raw_b: HTTP 503: boom)");
		assertThat(Synthetic.check(run, "requests_succeeded").product()).isTrue();
		assertThat(Synthetic.check(run, "sweep_measured").passed()).isFalse();
		assertThat(Synthetic.check(run, "sweep_measured").observed()).isEqualTo("no ratio at [A/A c=4: no samples]");
	}

	@Test
	@DisplayName("a level the host calibration found beyond this host is PENDING with its reading and the fix, never measured nor failed")
	void beyondHostIsPending() {
		RungRecorder run = started();
		SweepLevel quiet = clean(1, 1.0, Synthetic.QUIET);
		SweepLevel late = clean(4, 1.0, Synthetic.LATE);
		HostCalibration.Level one = HostCalibration.judge(1, List.of(quiet.a(), quiet.a()), List.of(quiet.b(), quiet.b()), List.of(CALM),
				false);
		HostCalibration.Level four = HostCalibration.judge(4, List.of(late.a(), late.a()), List.of(late.b(), late.b()), List.of(CALM),
				false);
		HostCalibration calibration = new HostCalibration(List.of(one, four), java.time.Duration.ofSeconds(2));
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), Optional.empty(), Optional.of(calibration),
				List.of(clean(1, 0.999, Synthetic.QUIET)), Optional.empty(), plots, null);
		assertThat(Synthetic.check(run, "sweep_measured").passed()).as("every level this host can judge was measured").isTrue();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("host_calibration");
		assertThat(run.invalidations().get(0).missing()).contains("levels beyond this host, not run at full size: c=4: load client lag "
				+ "p99 per wave [2401, 2401, 2401, 2401] us", "; the A/A floor's level c=4 among them");
		assertThat(run.invalidations().get(0).howToProvide()).endsWith("-Dcalibration.force=4");

		RungRecorder without = started();
		SweepReport.checks(without, settings, Synthetic.simulated(CALM), List.of(clean(1, 0.999, Synthetic.QUIET)), Optional.empty(),
				plots, null);
		assertThat(Synthetic.check(without, "sweep_measured").passed()).as("the same missing level without a calibration reading")
				.isFalse();
	}

	@Test
	@DisplayName("a level stopped for futility is PENDING with its reading; a calibration probe the gateway alone failed fails gateway_failures")
	void futilityIsPendingAndProbeFailuresCount() {
		RungRecorder run = started();
		SweepLevel calm = clean(4, 1.0, Synthetic.LATE);
		SweepLevel futile = new SweepLevel(4, calm.batchesA(), calm.batchesB(), calm.a(), calm.b(), Synthetic.undefined(),
				calm.perRequestRatio(),
				calm.latencyTax(), 0, calm.lag(), Optional.empty(), Optional.empty(), List.of(),
				Optional.of("load client lag p99 over 1250 us"));
		LoadResult failing = Synthetic.result("gateway", List.of(Synthetic.failed("gateway", 0, 502)), 0, 1, Synthetic.QUIET);
		SweepLevel quiet = clean(1, 1.0, Synthetic.QUIET);
		HostCalibration calibration = new HostCalibration(
				List.of(HostCalibration.judge(1, List.of(quiet.a(), quiet.a()), List.of(failing, quiet.b()), List.of(CALM), false)),
				java.time.Duration.ZERO);
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), Optional.empty(), Optional.of(calibration),
				List.of(clean(1, 1.0, Synthetic.QUIET), futile), Optional.of(clean(4, 1.0, Synthetic.QUIET)), plots, null);
		assertThat(Synthetic.check(run, "sweep_measured").passed()).isTrue();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).contains("futility", "client_lag");
		assertThat(run.invalidations().get(0).missing()).contains("[c=4 load client lag p99 over 1250 us]");
		assertThat(run.invalidations().get(0).howToProvide()).endsWith("-Dcalibration.force=4");
		Check failures = Synthetic.check(run, "gateway_failures");
		assertThat(failures.passed()).isFalse();
		assertThat(failures.observed()).contains("c=1 calibration: gateway 1 failed");
	}

	@Test
	@DisplayName("a sweep that did not run fails its checks with the reason and is not judged by its instruments")
	void skipped() {
		RungRecorder run = Synthetic.run(ArtifactId.CONCURRENCY_SWEEP);
		run.body().putObject("gateway_process").put("mode", "planned").put("error", "not started");
		SweepReport.checks(run, settings, Synthetic.simulated(CALM), List.of(), Optional.empty(), List.of(),
				"the raw engine is not usable");
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("sweep_measured", "requests_succeeded", "gateway_failures", "gateway_retries", "plots_written");
		assertThat(Synthetic.check(run, "sweep_measured").observed()).isEqualTo("not run: the raw engine is not usable");
		assertThat(Synthetic.check(run, "requests_succeeded").passed()).isFalse();
		assertThat(run.invalidations()).isEmpty();
		assertThat(run.measurements()).isEmpty();
	}
}
