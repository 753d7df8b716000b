package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.AlternatingOpenLoop;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.metrics.EngineMetrics;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.RateSearch;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rate sweep's verdict from synthetic rates: the search, the goodput cost or why it is pending, and invalidations. */
@DisplayName("rate sweep report on synthetic rates")
class RateSweepReportTests {

	private static final UpstreamLag.Reading CALM = new UpstreamLag.Reading(500, 80, 400, 700);

	@TempDir
	Path dir;

	private TaxSettings settings;

	private List<Path> plots;

	@BeforeEach
	void setUp() throws IOException {
		settings = Synthetic.settings(dir, Map.of("rate.sweep", "4,8,16"));
		plots = List.of(Files.writeString(dir.resolve("goodput.png"), "png"));
	}

	/** A rate where {@code good} requests meet the default SLOs (ttft 1000, tpot 50) and {@code bad} miss TPOT. */
	private RateLevel level(double rate, int goodRaw, int badRaw, int goodGateway, int badGateway, ClientLag client,
			Optional<UpstreamLag.Reading> lag) {
		LoadResult raw = Synthetic.result("raw", outcomes("raw", goodRaw, badRaw), 0, 2, client);
		LoadResult gateway = Synthetic.result("gateway", outcomes("gateway", goodGateway, badGateway), 0, 2, client);
		return new RateLevel(rate, raw, gateway, goodput(raw), goodput(gateway), lag, Optional.empty());
	}

	private RateLevel level(double rate, int goodRaw, int goodGateway) {
		return level(rate, goodRaw, 10 - goodRaw, goodGateway, 10 - goodGateway, Synthetic.QUIET, Optional.of(CALM));
	}

	private static List<RequestOutcome> outcomes(String target, int good, int bad) {
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (int i = 0; i < good + bad; i++) {
			outcomes.add(Synthetic.ok(target, i, 10, i < good ? 100 : 1_000, 8));
		}
		return outcomes;
	}

	private Goodput goodput(LoadResult result) {
		return Goodput.of(settings.load().slo(), result.outcomes().stream().map(RequestOutcome::timing).toList(), result.durationS());
	}

	private RungRecorder report(List<RateLevel> levels, String skipped) {
		RungRecorder run = Synthetic.run(ArtifactId.RATE_SWEEP);
		run.body().putObject("gateway_process").put("mode", "started").put("description", "embedded");
		RateSearch.Result result = RateSearch.compare(levels.stream().map(RateLevel::pointA).toList(),
				levels.stream().map(RateLevel::pointB).toList(), settings.load().attainment(), BootstrapCi.seeded(7).withResamples(500));
		RateSweepReport.checks(run, settings, Synthetic.simulated(CALM), levels, result, skipped == null ? plots : List.of(), skipped);
		return run;
	}

	/** A rate's probe: four waves whose client lag is {@code lag}, judged by the calibration's rule. */
	private static RateCalibration.Level probe(double rate, ClientLag lag, boolean forced) {
		List<LoadResult> raw = List.of(Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, lag),
				Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, lag));
		List<LoadResult> gateway = List.of(Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, lag),
				Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, lag));
		return new RateCalibration.Level(rate, HostCalibration.judge(0, raw, gateway, List.of(), forced), java.time.Duration.ofSeconds(1));
	}

	@Test
	@DisplayName("a rate the host calibration finds beyond this host is not required, PENDING with its reading and the fix; forced, it runs")
	void rateBeyondTheHost() {
		RateCalibration calibration = new RateCalibration(
				List.of(probe(4, Synthetic.QUIET, false), probe(8, Synthetic.QUIET, false), probe(16, Synthetic.LATE, false)));
		assertThat(calibration.runs(8)).isTrue();
		assertThat(calibration.runs(16)).isFalse();
		List<RateLevel> levels = List.of(level(4, 10, 10), level(8, 10, 10));
		RungRecorder run = Synthetic.run(ArtifactId.RATE_SWEEP);
		run.body().putObject("gateway_process").put("mode", "started").put("description", "embedded");
		RateSearch.Result result = RateSearch.compare(levels.stream().map(RateLevel::pointA).toList(),
				levels.stream().map(RateLevel::pointB).toList(), settings.load().attainment(), BootstrapCi.seeded(7).withResamples(500));
		RateSweepReport.checks(run, settings, Synthetic.simulated(CALM), Optional.empty(), Optional.of(calibration), levels, result, plots,
				null);
		assertThat(Synthetic.check(run, "rate_sweep_measured").passed()).as("the two rates this host can judge").isTrue();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("host_calibration");
		assertThat(run.invalidations().get(0).missing()).contains("rates beyond this host, not run: 16 req/s: load client lag p99 per wave",
				"over the margin in every wave: load client");
		assertThat(run.invalidations().get(0).howToProvide()).endsWith("-Dcalibration.force.rates=16");

		calibration.writeTo(run.body().putObject("host_calibration"));
		assertThat(run.body().at("/host_calibration/levels/2/verdict").asText()).isEqualTo("BEYOND_HOST");
		assertThat(run.body().at("/host_calibration/levels/2/rate").asDouble()).isEqualTo(16.0);
		assertThat(run.body().at("/host_calibration/levels/2/wave_client_lag_p99_us")).hasSize(4);

		RateCalibration forced = new RateCalibration(List.of(probe(16, Synthetic.LATE, true)));
		assertThat(forced.runs(16)).isTrue();
		assertThat(forced.beyond()).isEmpty();
	}

	private static double value(RungRecorder run, String name) {
		return run.measurements()
				.stream()
				.filter(m -> m.name().equals(name))
				.map(Measurement.Measured.class::cast)
				.findFirst()
				.orElseThrow(() -> new AssertionError("no measurement " + name))
				.value();
	}

	@Test
	@DisplayName("the highest rates met inside the ladder give the goodput cost: raw 8, gateway 4, cost 4 req/s")
	void costMeasured() {
		RungRecorder run = report(List.of(level(4, 10, 10), level(8, 10, 8), level(16, 5, 5)), null);
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("gateway_command", "rate_sweep_measured", "lowest_rate_clean", "gateway_failures", "gateway_retries",
						"plots_written");
		assertThat(run.checks()).allMatch(Check::passed);
		assertThat(Synthetic.check(run, "rate_sweep_measured").observed())
				.isEqualTo("3 rates measured: 4.00: raw 1.00, gateway 1.00; 8.00: raw "
						+ "1.00, gateway 0.80; 16.00: raw 0.50, gateway 0.50");
		assertThat(Synthetic.check(run, "lowest_rate_clean").observed()).isEqualTo("4.00 req/s: 0 failed or unsent");
		assertThat(run.pendings()).isEmpty();
		assertThat(value(run, "raw_max_rate_met")).isEqualTo(8);
		assertThat(value(run, "gateway_max_rate_met")).isEqualTo(4);
		assertThat(value(run, "goodput_cost")).isEqualTo(4);
		assertThat(run.measurements()).filteredOn(m -> m.name().endsWith("_max_rate_met"))
				.hasSize(2)
				.allSatisfy(m -> assertThat(((Measurement.Measured) m).source())
						.as("a maximum says how its rates were offered: sustained, in batches of 0.5 s (the smoke settings)")
						.contains("met sustained (one open loop per rate, batches of 0.5 s of arrivals taking turns between the arms "
								+ "after a ramp of 1.0 s, never drained between them)"));
		assertThat(run.headline()).hasValueSatisfying(h -> assertThat(h).startsWith("the gateway costs 4.00 [")
				.contains(
						"req/s of goodput at ttft:1000.0 tpot:50.0 (90 % attainment): raw max 8.00, gateway max 4.00 (SIMULATED: engine double)"));
		assertThat(run.body().path("search").path("raw_censored").asBoolean()).isFalse();
		assertThat(run.body().path("summary").path("goodput_cost").asDouble()).isEqualTo(4);
	}

	@Test
	@DisplayName("a raw engine that met even the highest rate leaves the cost pending: its maximum lies above")
	void censored() {
		RungRecorder run = report(List.of(level(4, 10, 10), level(8, 10, 10), level(16, 10, 9)), null);
		assertThat(run.pendings()).extracting(Measurement.Pending::name).containsExactly("goodput_cost");
		assertThat(run.pendings().get(0).reason()).isEqualTo("the raw engine met the SLOs even at the highest rate tested, 16.00 req/s: "
				+ "its maximum lies above, so the cost is unbounded (higher rates: -Drate.sweep=... around the engine's capacity, or other "
				+ "-Dslo.*.ms)");
		assertThat(run.invalidations()).isEmpty();
	}

	@Test
	@DisplayName("a raw engine that met no rate leaves the cost pending, naming the lowest rate's attainment")
	void noneMet() {
		RungRecorder run = report(List.of(level(4, 5, 5), level(8, 2, 2)), null);
		assertThat(run.pendings().get(0).reason()).isEqualTo("no offered rate met the SLOs (ttft:1000.0 tpot:50.0 at 90 % attainment) on "
				+ "the raw engine; the lowest, 4.00 req/s, reached 0.500 (lower rates: -Drate.sweep=... around the engine's capacity, or "
				+ "other -Dslo.*.ms)");
		assertThat(Synthetic.check(run, "rate_sweep_measured").passed()).as("2 of 3 rates").isFalse();
	}

	@Test
	@DisplayName("a gateway that met no rate costs at least the raw maximum")
	void gatewayNoneMet() {
		RungRecorder run = report(List.of(level(4, 10, 5), level(8, 10, 5), level(16, 5, 5)), null);
		assertThat(value(run, "goodput_cost")).isEqualTo(8);
		assertThat(run.measurements()).extracting(Measurement::name).doesNotContain("gateway_max_rate_met");
		assertThat(run.headline()).hasValueSatisfying(h -> assertThat(h).contains("gateway max none met"));
	}

	@Test
	@DisplayName("failures at the lowest rate fail lowest_rate_clean; a lagging double and client invalidate the sweep")
	void failuresAndLag() {
		RateLevel broken = new RateLevel(4, Synthetic.result("raw", List.of(Synthetic.failed("raw", 0, 500)), 1, 2, Synthetic.QUIET),
				Synthetic.result("gateway", outcomes("gateway", 2, 0), 0, 2, Synthetic.QUIET), null, null, Optional.of(CALM),
				Optional.empty());
		broken = new RateLevel(4, broken.a(), broken.b(), goodput(broken.a()), goodput(broken.b()), Optional.of(CALM), Optional.empty());
		RateLevel late = level(8, 10, 0, 10, 0, Synthetic.LATE, Optional.of(new UpstreamLag.Reading(90, 500, 2_000, 3_000)));
		RungRecorder run = report(List.of(broken, late, level(16, 5, 5)), null);
		assertThat(Synthetic.check(run, "lowest_rate_clean").passed()).isFalse();
		assertThat(Synthetic.check(run, "lowest_rate_clean").observed()).isEqualTo("4.00 req/s: 2 failed or unsent");
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("engine_double_lag", "client_lag");
		assertThat(run.invalidations().get(0).missing()).isEqualTo("invalid measurement, its own instrument says so: engine double "
				+ "scheduling lag p99 over 1000 us at [8.00 req/s p99 2000.0 us (p50 500.0, max 3000.0) over 90 emissions]: the double, "
				+ "not the gateway, set the pace");
		assertThat(run.invalidations().get(1).missing()).startsWith("invalid measurement, its own instrument says so: load client "
				+ "scheduling lag p99 over 1000 us at [8.00 req/s p99 ");
	}

	@Test
	@DisplayName("a level that began while the engine still ran the level before's requests invalidates the sweep, naming it")
	void busyAtStart() {
		RateLevel calm = level(4, 10, 10);
		RateLevel idle = withIdle(level(8, 10, 10), new EngineMetrics.Idle(OptionalDouble.of(0), 0.4, true));
		RateLevel busy = withIdle(level(16, 5, 5), new EngineMetrics.Idle(OptionalDouble.of(12), 30.0, false));
		assertThat(report(List.of(calm, idle), null).invalidations()).as("idle, or not recorded: nothing to say").isEmpty();
		RungRecorder run = report(List.of(calm, idle, busy), null);
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).containsExactly("engine_idle_at_start");
		assertThat(run.invalidations().get(0).missing()).contains("still ran requests after waiting 30 s at the start of [16.00 "
				+ "req/s 12.0 requests]");
		assertThat(busy.toJson(0.9).path("engine_idle_at_start").path("running_requests").asDouble()).isEqualTo(12);
		assertThat(busy.toJson(0.9).path("engine_idle_at_start").path("idle").asBoolean(true)).isFalse();
	}

	private static RateLevel withIdle(RateLevel level, EngineMetrics.Idle idle) {
		return new RateLevel(level.rate(), level.a(), level.b(), level.goodputA(), level.goodputB(), level.lag(), level.engineMetrics(),
				Optional.empty(), Optional.of(idle));
	}

	/** A level whose arms' measured requests are as given, with a quiet client. */
	private RateLevel level(double rate, List<RequestOutcome> raw, List<RequestOutcome> gateway, ClientLag client) {
		LoadResult a = Synthetic.result("raw", raw, 0, 2, client);
		LoadResult b = Synthetic.result("gateway", gateway, 0, 2, client);
		return new RateLevel(rate, a, b, goodput(a), goodput(b), Optional.of(CALM), Optional.empty());
	}

	/** {@code good} good requests of {@code target}, then {@code failed} that answered 500. */
	private static List<RequestOutcome> withFailures(String target, int good, int failed) {
		List<RequestOutcome> outcomes = new ArrayList<>(outcomes(target, good, 0));
		for (int i = 0; i < failed; i++) {
			outcomes.add(Synthetic.failed(target, good + i, 500));
		}
		return outcomes;
	}

	@Test
	@DisplayName("a request past its hard bound at the lowest rate is a failure: a gateway that hangs fails lowest_rate_clean and gateway_failures")
	void pastTheHardBoundFails() {
		List<RequestOutcome> gateway = new ArrayList<>(outcomes("gateway", 9, 0));
		gateway.add(RequestOutcome.failed("gateway", 9, false, 0, 0, 9_300_000_000L, 0,
				AlternatingOpenLoop.PAST_HARD_BOUND + "of 9300 ms (2 x the 4150 ms ...)", null));
		RateLevel lowest = level(4, outcomes("raw", 10, 0), gateway, Synthetic.QUIET);
		assertThat(lowest.failed()).isOne();
		RungRecorder run = report(List.of(lowest, level(8, 10, 10), level(16, 5, 5)), null);
		assertThat(Synthetic.check(run, "lowest_rate_clean").passed()).isFalse();
		assertThat(Synthetic.check(run, "lowest_rate_clean").observed()).isEqualTo("4.00 req/s: 1 failed or unsent");
		Check failures = Synthetic.check(run, "gateway_failures");
		assertThat(failures.passed()).isFalse();
		assertThat(failures.product()).isTrue();
		assertThat(failures.observed()).isEqualTo("4.00 req/s: gateway 1 failed of 10, raw 0 (gateway's first: "
				+ "no complete answer within the hard bound of 9300 ms (2 x the 4150 ms ...))");
	}

	@Test
	@DisplayName("gateway-arm failures at a rate above the lowest fail gateway_failures, a product check the lagging client does not hide")
	void failuresAboveTheLowestRate() {
		RateLevel failing = level(8, outcomes("raw", 10, 0), withFailures("gateway", 7, 3), Synthetic.LATE);
		RungRecorder run = report(List.of(level(4, 10, 10), failing, level(16, 5, 5)), null);
		assertThat(Synthetic.check(run, "lowest_rate_clean").passed()).as("the lowest rate was clean").isTrue();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).contains("client_lag");
		Check failures = Synthetic.check(run, "gateway_failures");
		assertThat(failures.passed()).isFalse();
		assertThat(failures.product()).as("FAIL even where the instrument says PENDING").isTrue();
		assertThat(failures.observed()).isEqualTo("8.00 req/s: gateway 3 failed of 10, raw 0 (gateway's first: HTTP 500: boom)");
		assertThat(run.body().path("failures_by_arm").path("phases").findValuesAsText("where"))
				.as("every ramp and level judged, in order")
				.containsExactly("ramp at 4.00 req/s", "4.00 req/s", "ramp at 8.00 req/s",
						"8.00 req/s", "ramp at 16.00 req/s", "16.00 req/s");
	}

	@Test
	@DisplayName("failures both arms share (the engine failing) are recorded, not the gateway's FAIL; the gateway failing beyond chance is")
	void sharedFailuresAreTheEngines() {
		RateLevel shared = level(16, withFailures("raw", 7, 3), withFailures("gateway", 6, 4), Synthetic.QUIET);
		RungRecorder run = report(List.of(level(4, 10, 10), level(8, 10, 10), shared), null);
		assertThat(Synthetic.check(run, "gateway_failures").passed()).isTrue();
		assertThat(Synthetic.check(run, "gateway_failures").observed()).isEqualTo("6 phases: gateway 4 failed, raw 3");
		assertThat(run.body().path("failures_by_arm").path("phases").get(5).path("gateway").asInt()).isEqualTo(4);
		RateLevel worse = level(16, withFailures("raw", 29, 1), withFailures("gateway", 20, 10), Synthetic.QUIET);
		assertThat(Synthetic.check(report(List.of(level(4, 10, 10), level(8, 10, 10), worse), null), "gateway_failures").passed())
				.as("1 against 10: p = 12/2048")
				.isFalse();
	}

	@Test
	@DisplayName("failed ramp requests on the gateway arm alone fail gateway_failures; so do the steady warm-up's")
	void warmupFailuresCount() {
		RateLevel clean = level(4, 10, 10);
		LoadResult b = clean.b();
		LoadResult rampFailed = new LoadResult(b.target(), b.baseUrl(), b.mode(), b.concurrency(), b.rate(), b.planned(), b.outcomes(), 4,
				2,
				0, b.startNanos(), b.endNanos(), b.durationS(), Optional.empty(), false, b.clientLag());
		RateLevel ramp = new RateLevel(4, clean.a(), rampFailed, clean.goodputA(), clean.goodputB(), Optional.of(CALM), Optional.empty(),
				Optional.empty(), Optional.empty(), List.of(Synthetic.failed("gateway", 0, 502)));
		RungRecorder run = report(List.of(ramp, level(8, 10, 10), level(16, 5, 5)), null);
		assertThat(Synthetic.check(run, "gateway_failures").passed()).isFalse();
		assertThat(Synthetic.check(run, "gateway_failures").observed())
				.isEqualTo("ramp at 4.00 req/s: gateway 2 failed of 4, raw 0 (gateway's first: HTTP 502: boom)");
		assertThat(ramp.toJson(0.9).path("gateway").path("warmup_failed").asInt()).isEqualTo(2);

		SteadyWarmup warmup = new SteadyWarmup(4, 16, List.of(Synthetic.QUIET, Synthetic.QUIET), 1.0, true)
				.withFailures(List.of(), List.of(Synthetic.failed("gateway", 0, 500)));
		RungRecorder warmed = Synthetic.run(dev.fakbattery.core.ArtifactId.RATE_SWEEP);
		warmed.body().putObject("gateway_process").put("mode", "started").put("description", "embedded");
		List<RateLevel> levels = List.of(level(4, 10, 10), level(8, 10, 10), level(16, 5, 5));
		RateSearch.Result result = RateSearch.compare(levels.stream().map(RateLevel::pointA).toList(),
				levels.stream().map(RateLevel::pointB).toList(), settings.load().attainment(), BootstrapCi.seeded(7).withResamples(500));
		RateSweepReport.checks(warmed, settings, Synthetic.simulated(CALM), Optional.of(warmup), levels, result, plots, null);
		assertThat(Synthetic.check(warmed, "gateway_failures").observed())
				.isEqualTo("warm-up: gateway 1 failed of 16, raw 0 (gateway's first: HTTP 500: boom)");
	}

	@Test
	@DisplayName("first attempts dropped on reused connections are counted per arm; the gateway's beyond the raw arm's and 1 % fail")
	void droppedFirstAttempts() {
		List<RequestOutcome> gateway = new ArrayList<>(outcomes("gateway", 10, 0));
		gateway.replaceAll(o -> o.index() < 2 ? o.withRetry("no response on a reused connection") : o);
		RungRecorder run = report(List.of(level(4, 10, 10), level(8, outcomes("raw", 10, 0), gateway, Synthetic.QUIET), level(16, 5, 5)),
				null);
		Check retries = Synthetic.check(run, "gateway_retries");
		assertThat(retries.passed()).isFalse();
		assertThat(retries.observed()).isEqualTo("8.00 req/s: gateway 2 first attempts dropped on a reused connection of 10, raw 0 "
				+ "(gateway's first: no response on a reused connection)");
		assertThat(run.body().path("retries_by_arm").path("phases").get(1).path("gateway").asInt()).isEqualTo(2);
		gateway.set(0, gateway.get(0).withRetry("x"));
		gateway.set(1, outcomes("gateway", 2, 0).get(1));
		assertThat(Synthetic.check(report(List.of(level(4, 10, 10), level(8, outcomes("raw", 10, 0), gateway, Synthetic.QUIET),
				level(16, 5, 5)), null), "gateway_retries").passed()).as("one drop: the allowance").isTrue();
	}

	@Test
	@DisplayName("a sweep that did not run fails its checks with the reason and measures nothing")
	void skipped() {
		RungRecorder run = report(List.of(), "the raw engine is not usable");
		assertThat(Synthetic.check(run, "rate_sweep_measured").observed()).isEqualTo("not run: the raw engine is not usable");
		assertThat(Synthetic.check(run, "lowest_rate_clean").observed()).isEqualTo("not run: the raw engine is not usable");
		assertThat(Synthetic.check(run, "plots_written").passed()).isFalse();
		assertThat(run.measurements()).isEmpty();
		assertThat(run.invalidations()).isEmpty();
	}

	@Test
	@DisplayName("a level counts failed and unsent requests of both arms, its ramp's failures per arm, and writes both arms with the lags")
	void levelCountsAndJson() {
		LoadResult raw = new LoadResult("raw", "http://127.0.0.1:1/v1", "synthetic", 1, Double.NaN, 5,
				List.of(Synthetic.failed("raw", 0, 500), Synthetic.ok("raw", 1, 50, 200, 8)), 3, 1, 3, 0, 2_000_000_000L, 2,
				Optional.empty(), false, Synthetic.QUIET);
		LoadResult gateway = new LoadResult("gateway", "http://127.0.0.1:2/v1", "synthetic", 1, Double.NaN, 5,
				List.of(Synthetic.failed("gateway", 0, 502), Synthetic.failed("gateway", 1, 502)), 3, 2, 1, 0, 2_000_000_000L, 2,
				Optional.empty(), false, Synthetic.QUIET);
		RequestOutcome rampRaw = Synthetic.failed("raw", 90, 500);
		RequestOutcome rampGateway = Synthetic.failed("gateway", 91, 503);
		RateLevel level = new RateLevel(4, raw, gateway, goodput(raw), goodput(gateway), Optional.of(CALM), Optional.empty(),
				Optional.empty(), Optional.empty(), List.of(rampRaw, rampGateway));

		assertThat(level.failed()).as("1 + 2 failed, 3 + 1 unsent").isEqualTo(7);
		ArmFailures ramp = level.rampFailuresByArm();
		assertThat(ramp).isEqualTo(new ArmFailures("ramp at 4.00 req/s", 1, 2, 3, "HTTP 503: boom"));
		assertThat(level.intervalLevel()).isEqualTo(0.95);

		com.fasterxml.jackson.databind.node.ObjectNode json = level.toJson(0.0);
		assertThat(json.path("rate").asDouble()).isEqualTo(4);
		assertThat(json.path("raw").path("target").asText()).isEqualTo("raw");
		assertThat(json.path("gateway").path("target").asText()).isEqualTo("gateway");
		assertThat(json.path("raw_met").asBoolean()).as("an attainment at the target is met").isTrue();
		assertThat(json.path("gateway_met").asBoolean()).isTrue();
		assertThat(level.toJson(0.5).path("gateway_met").asBoolean()).isFalse();
		for (String arm : List.of("raw_attainment_ci", "gateway_attainment_ci")) {
			assertThat(json.path(arm).path("level").asDouble()).isEqualTo(0.95);
			assertThat(json.path(arm).has("design_effect")).isTrue();
			assertThat(json.path(arm).has("effective_requests")).isTrue();
		}
		assertThat(json.path("raw_attainment_ci").path("requests").asInt()).isEqualTo(level.pointA().requests());
		assertThat(json.path("raw_attainment_ci").path("good").asInt()).isEqualTo(level.pointA().good());
		assertThat(json.path("engine_double_lag").path("count").asInt()).isEqualTo(500);
		assertThat(json.path("client_lag").isObject()).isTrue();
		assertThat(json.path("client_lag").isEmpty()).isFalse();
		assertThat(json.path("ramp_failures")).extracting(n -> n.path("arm").asText() + " " + n.path("http_status").asInt())
				.containsExactly("raw 500", "gateway 503");
	}
}
