package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Runs the real rung 3 tests against the engine double and the embedded reference gateway with the
 * default profile's tiny counts, into a temporary folder, and checks the artifacts' shape and
 * verdict. Numbers are recorded there, never asserted here. Tagged {@value #TAG}: the measuring profiles
 * ({@code -Pbattery}, {@code -Pgpu}, {@code -Pllamacpp}) leave it out, since they run the rungs themselves at full size.
 */
@DisplayName("rung 3 tax pipeline on the engine double (smoke)")
@Tag(TaxPipelineSmokeTests.TAG)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class TaxPipelineSmokeTests {

	/** The tag the measuring profiles exclude ({@code harness.excluded.groups}). */
	static final String TAG = "pipeline-smoke";

	@TempDir
	Path dir;

	@Test
	@DisplayName("the tax witness writes fak's fields; SIMULATED, or PENDING_MEASUREMENT for an honest reason, never PASS or FAIL")
	void taxWitness() throws Exception {
		JsonNode artifact = runRung("taxWitness", "adjudication-tax-witness.json");
		assertThat(artifact.path("schema").asText()).isEqualTo("fak.vllm-adjudication-tax.v1");
		assertThat(artifact.path("simulated").asText()).contains("engine double");
		for (String field : new String[]{ "model", "base_url", "provider", "count", "max_tokens", "engine_cache_engine", "dry_run",
			"framing", "upstream_models", "gateway_process", "raw_vllm", "gateway", "tax", "noise_floor", "gate", "acceptance",
			"summary", "determinism_mode", "precision", "batching_regime", "engine_double_lag", "engine_double_timing" }) {
			assertThat(artifact.has(field)).as(field).isTrue();
		}
		assertThat(artifact.path("count").asInt()).as("the fewest samples an interval takes").isEqualTo(BootstrapCi.MIN_SAMPLES_PER_ARM);
		assertThat(artifact.path("gateway_process").path("mode").asText()).isEqualTo("started");
		assertThat(artifact.path("gateway_process").path("embedded").asBoolean()).isTrue();
		for (String arm : new String[]{ "raw_vllm", "gateway" }) {
			JsonNode node = artifact.path(arm);
			assertThat(node.path("samples").asInt()).as(arm).isEqualTo(BootstrapCi.MIN_SAMPLES_PER_ARM);
			assertThat(node.path("leg_samples")).hasSize(BootstrapCi.MIN_SAMPLES_PER_ARM);
			assertThat(node.path("leg_samples").get(0).path("perf").has("decode_tps")).isTrue();
			assertThat(node.path("leg_samples").get(0).path("determinism_mode").asText()).startsWith("engine.vllm.determinism.");
		}
		for (String field : new String[]{ "latency_tax", "decode_tps_tax", "raw_median_latency_s", "gateway_median_latency_s",
			"raw_median_decode_tps", "gateway_median_decode_tps", "interpretation", "latency_tax_ci95", "decode_tps_tax_ci95" }) {
			assertThat(artifact.path("tax").has(field)).as("tax." + field).isTrue();
		}
		assertThat(artifact.path("tax").path("latency_tax_ci95")).hasSize(2);
		assertThat(artifact.path("noise_floor").path("latency_tax_ci95")).hasSize(2);
		assertThat(artifact.path("gate").path("verdict").asText()).as("a fresh baseline file: nothing to compare").isEqualTo("NO_BASELINE");
		assertThat(artifact.path("acceptance").fieldNames()).toIterable()
				.contains("gateway_command", "raw_vllm_chat", "gateway_chat",
						"aa_raw_a_chat", "aa_raw_b_chat", "tax_measured");
		assertThat(artifact.path("tax").path("latency_tax_ci").has("reason")).as("an interval over the smoke run's samples").isFalse();
		assertThat(artifact.path("summary").path("framing").asText()).contains("SIMULATED");
		assertThat(artifact.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
		assertSimulatedOrHonestlyPending(artifact, "vllm_adjudication_tax_witness");
	}

	@Test
	@DisplayName("the sweep writes levels with raw, gateway, ratio and CI, an A/A floor, and two PNG plots")
	void concurrencySweep() throws Exception {
		JsonNode artifact = runRung("concurrencySweep", "concurrency-sweep.json");
		assertThat(artifact.path("schema").asText()).isEqualTo("fak-battery.concurrency-sweep.v1");
		assertThat(artifact.path("engine").asText()).as("the engine measured, not the dialect it speaks").isEqualTo("engine-double");
		assertThat(artifact.path("dialect").asText()).isEqualTo("vllm");
		assertThat(artifact.path("provenance").path("engine").asText()).isEqualTo("engine-double");
		assertThat(artifact.path("levels")).hasSize(2);
		assertThat(artifact.at("/host_calibration/levels")).as("a probe per level, recorded; the smoke run forces every level")
				.hasSize(2)
				.allSatisfy(probe -> assertThat(probe.path("verdict").asText()).isEqualTo("FORCED"));
		assertThat(artifact.at("/host_calibration/levels/1/wave_client_lag_p99_us")).hasSize(4);
		JsonNode level = artifact.path("levels").get(0);
		assertThat(level.path("concurrency").asInt()).isEqualTo(1);
		for (String field : new String[]{ "raw", "gateway", "ratio", "ratio_ci95", "throughput_ratio" }) {
			assertThat(level.has(field)).as(field).isTrue();
		}
		for (String field : new String[]{ "output_throughput", "request_throughput", "p50_ttft_ms", "p90_itl_ms", "p99_e2el_ms" }) {
			assertThat(level.path("gateway").has(field)).as("gateway." + field).isTrue();
		}
		assertThat(artifact.path("noise_floor").path("concurrency").asInt()).isEqualTo(4);
		assertThat(artifact.path("noise_floor").has("ratio_ci95_within_1pct")).as("the A/A floor is judged on the ratio").isTrue();
		assertThat(level.path("batch_output_throughput").path("raw")).as("the fewest batches an interval takes")
				.hasSize(TaxSettings.MIN_BATCHES);
		assertThat(level.path("ratio_ci").has("reason")).as(level.path("ratio_ci").toString()).isFalse();
		assertThat(Files.size(dir.resolve(ConcurrencySweep.RATIO_PLOT))).isPositive();
		assertThat(Files.size(dir.resolve(ConcurrencySweep.CDF_PLOT))).isPositive();
		assertSimulatedOrHonestlyPending(artifact, null);
	}

	@Test
	@org.junit.jupiter.api.condition.EnabledOnOs(org.junit.jupiter.api.condition.OS.LINUX)
	@DisplayName("client.keepawake: the witness keeps its CPUs busy while it measures, and the artifact says which and how")
	void keepAwake() throws Exception {
		JsonNode artifact = runRung("taxWitness", "adjudication-tax-witness.json", Map.of(HarnessConstants.CLIENT_KEEPAWAKE, "true"));
		JsonNode cpus = artifact.path("client_keepawake").path("cpus");
		assertThat(cpus).as(artifact.path("client_keepawake").toString()).isNotEmpty();
		assertThat(artifact.path("client_keepawake").path("method").asText()).contains("chrt --idle 0");
		for (JsonNode cpu : cpus) {
			assertThat(artifact.path("client_lag").path("host_cpu").path("cpus").path("cpu" + cpu.asInt()).path("busy_pct").asDouble())
					.as("cpu%d busy while kept awake", cpu.asInt())
					.isGreaterThan(90);
		}
		assertSimulatedOrHonestlyPending(artifact, "vllm_adjudication_tax_witness");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
		"random   | input.len=24,output.len=6,range.ratio=0.5",
		"sharegpt | dataset.path=SAMPLE",
		"prefix   | prefix.count=2,prefix.len=32,prefix.suffix.len=4,output.len=6",
		"agentic  | agentic.turns=2,agentic.injection.share=0.5,output.len=6" })
	@DisplayName("the tax witness takes every workload, recording it with its seed, percentiles, client lag and engine metrics")
	void taxWitnessWorkloads(String workload, String parameters) throws Exception {
		JsonNode artifact = runRung("taxWitness", "adjudication-tax-witness.json", workload(workload, parameters));
		assertThat(artifact.path("workload_spec").path("name").asText()).isEqualTo(workload);
		assertThat(artifact.path("workload_spec").path("seed").asLong()).isEqualTo(TaxSettings.SEED);
		assertThat(artifact.path("client_lag").path("count").asLong()).isPositive();
		if (java.nio.file.Files.exists(java.nio.file.Path.of("/proc/stat"))) {
			assertThat(artifact.path("client_lag").path("host_cpu").path("cpus").path("cpu0").has("steal_pct"))
					.as("the host's CPU beside the lag")
					.isTrue();
		}
		assertThat(artifact.path("engine_metrics").path("available").asBoolean()).as(artifact.path("engine_metrics").toString()).isTrue();
		for (String field : new String[]{ "p50_ttft_ms", "p90_tpot_ms", "p95_itl_ms", "p99_e2el_ms", "p99.9_ttft_ms" }) {
			assertThat(artifact.path("gateway").path("latency").has(field)).as(field).isTrue();
		}
		assertThat(artifact.path("raw_vllm").path("conversations").asInt()).isEqualTo(BootstrapCi.MIN_SAMPLES_PER_ARM);
		if (!workload.equals("agentic")) {
			assertThat(artifact.path("raw_vllm").path("tokens").path("prompt_compared").asInt()).isEqualTo(BootstrapCi.MIN_SAMPLES_PER_ARM);
		}
		if (workload.equals("prefix")) {
			assertThat(artifact.path("engine_metrics").has("prefix_cache_hit_rate")).isTrue();
		}
		if (workload.equals("agentic")) {
			assertThat(artifact.path("gateway").path("per_turn")).hasSizeGreaterThan(1);
			assertThat(artifact.path("adjudication").path("proposed").asInt()).isPositive();
			assertThat(artifact.path("gateway").path("tool_calls").path("by_kind").has("deny")).as("denied calls never reach the client")
					.isFalse();
		}
		assertSimulatedOrHonestlyPending(artifact, "vllm_adjudication_tax_witness");
	}

	@Test
	@DisplayName("the concurrency sweep takes a multi-turn workload, with the double in its own process")
	void concurrencySweepAgentic() throws Exception {
		JsonNode artifact = runRung("concurrencySweep", "concurrency-sweep.json", workload("agentic", "agentic.turns=2,output.len=4"));
		assertThat(artifact.path("workload_spec").path("name").asText()).isEqualTo("agentic");
		assertThat(artifact.path("engine_double_process").asText()).startsWith("own JVM");
		assertThat(artifact.path("engine_double_timing").asText()).as("the pace the double ran, whole")
				.contains("itlBase=PT0.001S", "batchAlpha=0.05");
		assertThat(artifact.path("batching_regime").asText()).as("the slowdown the double ran, not a constant")
				.isEqualTo("engine double: itl x (1 + 0.05 x (active - 1)), continuous-batching model");
		JsonNode level = artifact.path("levels").get(1);
		assertThat(level.path("client_lag").path("count").asLong()).isPositive();
		if (java.nio.file.Files.exists(java.nio.file.Path.of("/proc/stat"))) {
			assertThat(level.path("client_lag").path("host_cpu").path("cpus").path("cpu").has("busy_pct"))
					.as("the host's CPU beside the lag")
					.isTrue();
		}
		assertThat(level.path("gateway").path("per_turn")).isNotEmpty();
		assertThat(level.path("engine_metrics").path("available").asBoolean()).isTrue();
		assertSimulatedOrHonestlyPending(artifact, null);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
		"poisson, no cap           | ''",
		"gamma 0.5, cap 2, prefix  | burstiness=0.5,max.concurrency=2,workload=prefix,prefix.len=32,output.len=6,slo.e2el.ms=5000,"
				+ "calibration.force=witness,calibration.force.rates=16" })
	@DisplayName("the rate sweep runs open loops at offered rates and writes goodput, the search, the queue time and its plot")
	void rateSweep(String shape, String parameters) throws Exception {
		JsonNode artifact = runRung("rateSweep", "rate-sweep.json", parameters(parameters));
		assertThat(artifact.path("schema").asText()).isEqualTo("fak-battery.rate-sweep.v1");
		if (parameters.contains("calibration.force.rates=16")) {
			// 32 as the host calibration says: probed first, the ladder's top (then 16, forced, probed and run whatever it reads)
			assertThat(artifact.at("/host_calibration/levels/0/rate").asDouble()).as("the ladder's top probed first").isEqualTo(32.0);
			assertThat(artifact.at("/host_calibration/levels/0/verdict").asText()).isIn("JUDGEABLE", "BEYOND_HOST");
			assertThat(artifact.at("/host_calibration/levels/1/rate").asDouble()).isEqualTo(16.0);
			assertThat(artifact.at("/host_calibration/levels/1/verdict").asText()).isEqualTo("FORCED");
			assertThat(artifact.path("levels").size()).isPositive();
		}
		else {
			assertThat(artifact.path("levels").size()).isGreaterThanOrEqualTo(2);
			assertThat(artifact.at("/host_calibration/levels")).as("a probe per rate, recorded; the smoke run forces every rate")
					.hasSizeGreaterThanOrEqualTo(2)
					.allSatisfy(probe -> assertThat(probe.path("verdict").asText()).isEqualTo("FORCED"));
		}
		assertThat(artifact.at("/host_calibration/levels/0/wave_client_lag_p99_us")).hasSize(4);
		assertThat(artifact.at("/host_calibration/margin").asDouble()).isEqualTo(Futility.MARGIN);
		double probes = 0;
		for (JsonNode probe : artifact.at("/host_calibration/levels")) {
			if (probe.path("probed").asBoolean()) {
				assertThat(probe.path("duration_s").asDouble()).as("each probe's own time").isPositive();
			}
			else {
				assertThat(probe.path("duration_s").asDouble()).as("a rate the probes decided took none").isZero();
			}
			probes += probe.path("duration_s").asDouble();
		}
		assertThat(artifact.at("/host_calibration/duration_s").asDouble()).as("the probes' time alone, not the sweep's")
				.isCloseTo(probes, org.assertj.core.data.Offset.offset(0.001 * artifact.at("/host_calibration/levels").size()));
		JsonNode level = artifact.path("levels").get(0);
		for (String field : new String[]{ "request_goodput", "good_fraction", "p99_client_queue_time_ms", "p99.9_e2el_ms" }) {
			assertThat(level.path("gateway").has(field)).as(field).isTrue();
		}
		assertThat(artifact.path("search").path("goodput_cost").has("statistic")).isTrue();
		for (String interval : new String[]{ "goodput_cost", "raw_max_ci", "gateway_max_ci" }) {
			// the search's intervals name their method (posterior draws), not the bootstrap every other interval is
			JsonNode ci = artifact.path("search").path(interval);
			assertThat(ci.path("method").asText()).as(interval).isEqualTo(dev.fakbattery.core.stats.RateSearch.METHOD);
			if (!ci.has("reason")) {
				assertThat(ci.path("lo").asDouble()).as(interval).isLessThanOrEqualTo(ci.path("estimate").asDouble());
				assertThat(ci.path("hi").asDouble()).as(interval).isGreaterThanOrEqualTo(ci.path("estimate").asDouble());
			}
		}
		double target = artifact.path("search").path("attainment").asDouble();
		for (JsonNode each : artifact.path("levels")) {
			// where the level's sequential decision stopped: undecided only at the cap
			JsonNode stop = each.path("sequential");
			assertThat(stop.path("used").asInt()).isBetween(1, stop.path("cap").asInt());
			boolean decided = !each.path("raw_decision").asText().equals("undecided")
					&& !each.path("gateway_decision").asText().equals("undecided");
			assertThat(stop.path("cap_hit").asBoolean()).as("cap hit at " + each.path("rate")).isEqualTo(!decided);
			assertThat(each.path("raw_attainment_ci").path("level").asDouble()).isEqualTo(stop.path("look_level").asDouble());
			for (String arm : new String[]{ "raw", "gateway" }) {
				// how sure each met is: the Wilson interval and a decision that never contradicts the plug-in flag
				JsonNode ci = each.path(arm + "_attainment_ci");
				assertThat(ci.path("method").asText()).startsWith("Wilson score");
				// misses in runs count for fewer requests, never for more
				assertThat(ci.path("design_effect").asDouble()).isGreaterThanOrEqualTo(1);
				assertThat(ci.path("effective_requests").asDouble()).isCloseTo(
						ci.path("requests").asDouble() / ci.path("design_effect").asDouble(), org.assertj.core.api.Assertions.within(0.2));
				assertThat(ci.path("lo").asDouble()).isLessThanOrEqualTo(ci.path("estimate").asDouble());
				assertThat(ci.path("hi").asDouble()).isGreaterThanOrEqualTo(ci.path("estimate").asDouble());
				String decision = each.path(arm + "_decision").asText();
				assertThat(decision).isIn("met", "missed", "undecided");
				if (!decision.equals("undecided")) {
					assertThat(each.path(arm + "_met").asBoolean()).as(arm + " at " + each.path("rate")).isEqualTo(decision.equals("met"));
					assertThat(decision.equals("met") ? ci.path("lo").asDouble() >= target : ci.path("hi").asDouble() < target).isTrue();
				}
			}
		}
		assertThat(artifact.path("load_shape").path("arrivals").asText()).isEqualTo(shape.startsWith("poisson") ? "poisson" : "gamma");
		assertThat(Files.size(dir.resolve(RateSweep.PLOT))).isPositive();
		String verdict = assertPassedOrPendingOnlyFor(artifact, "goodput_cost");
	}

	private Map<String, String> workload(String name, String parameters) {
		Map<String, String> values = new java.util.HashMap<>(parameters(parameters));
		values.put(HarnessConstants.WORKLOAD, name);
		return values;
	}

	private static Map<String, String> parameters(String text) {
		Map<String, String> values = new java.util.HashMap<>();
		for (String pair : text.split(",")) {
			if (!pair.isBlank()) {
				String value = pair.substring(pair.indexOf('=') + 1).trim();
				values.put(pair.substring(0, pair.indexOf('=')).trim(), value.equals("SAMPLE") ? sample().toString() : value);
			}
		}
		return values;
	}

	/** The committed ShareGPT sample, found from the module folder or the repository root. */
	static Path sample() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path sample = dir.resolve("fixtures/workloads/sharegpt-sample.json");
			if (Files.isRegularFile(sample)) {
				return sample;
			}
		}
		throw new IllegalStateException("fixtures/workloads/sharegpt-sample.json not found above " + Path.of("").toAbsolutePath());
	}

	private JsonNode runRung(String method, String file) throws Exception {
		return runRung(method, file, Map.of());
	}

	private JsonNode runRung(String method, String file, Map<String, String> extra) throws Exception {
		Map<String, String> values = new java.util.HashMap<>(Map.of(HarnessConstants.PROFILE, "default",
				HarnessConstants.EXPERIMENTS_DIR, dir.toString(), HarnessConstants.BASELINE_FILE, dir.resolve("baseline.json").toString(),
				HarnessConstants.ALLOW_PENDING, "true"));
		values.putAll(extra);
		var events = EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(TaxRungTests.class, method, RungRecorderParameter.NAME))
				.configurationParameters(HarnessConfig.hermeticParameters(values))
				.execute()
				.testEvents();
		Path artifact = dir.resolve(file);
		assertThat(artifact).as("artifact of %s; test events: %s", method, events.list()).exists();
		return Json.MAPPER.readTree(artifact.toFile());
	}

	/**
	 * The verdict, SIMULATED or PENDING_MEASUREMENT, after checking that every acceptance check passed or was left
	 * unjudged and that every pending measurement was invalidated by its instrument or is {@code allowedPending}.
	 */
	private static String assertPassedOrPendingOnlyFor(JsonNode artifact, String allowedPending) {
		String verdict = artifact.path("verdict").asText();
		assertThat(verdict).isIn("SIMULATED", "PENDING_MEASUREMENT");
		artifact.path("acceptance")
				.fields()
				.forEachRemaining(check -> assertThat(check.getValue().path("status").asText())
						.as(check.getKey() + ": " + check.getValue())
						.isIn("PASS", "NOT_JUDGED"));
		artifact.path("pending")
				.forEach(pending -> assertThat(pending.path("invalidated").asBoolean()
						|| pending.path("name").asText().equals(allowedPending)).as(pending.toString()).isTrue());
		return verdict;
	}

	/**
	 * SIMULATED when every check passed and nothing is missing; otherwise PENDING_MEASUREMENT, and then only for the
	 * reasons a smoke run honestly has: the instrument invalidated its own reading (the double lagged on busy cores, an
	 * A/A floor of 6 samples or batches wider than +/-1 %), or the regression gate had no baseline. Never FAIL, never PASS.
	 */
	private static void assertSimulatedOrHonestlyPending(JsonNode artifact, String summaryField) {
		String verdict = assertPassedOrPendingOnlyFor(artifact, "regression_gate");
		assertThat(artifact.path("pending").isEmpty()).isEqualTo(verdict.equals("SIMULATED"));
		if (summaryField != null) {
			assertThat(artifact.path("summary").path(summaryField).asText()).isEqualTo(verdict);
		}
	}

	/** The fully qualified parameter type of a rung method, for the method selector. */
	private static final class RungRecorderParameter {
		static final String NAME = "dev.fakbattery.core.RungRecorder";
	}
}
