package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("tax settings")
class TaxSettingsTests {

	private static TaxSettings settings(Map<String, String> values) {
		return TaxSettings.from(HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));
	}

	@Test
	@DisplayName("the default profile gets smoke-sized counts, the battery fak's counts")
	void profiles() {
		TaxSettings tiny = settings(Map.of(HarnessConstants.PROFILE, "default"));
		assertThat(tiny.count()).as("the fewest an interval takes").isEqualTo(6);
		assertThat(tiny.levels()).containsExactly(1, 4);
		assertThat(tiny.sweepRequests(4)).isEqualTo(24);
		TaxSettings battery = settings(Map.of(HarnessConstants.PROFILE, "battery"));
		assertThat(battery.count()).isEqualTo(8);
		assertThat(battery.levels()).containsExactly(1, 8, 64, 128);
		assertThat(battery.sweepRequests(1)).isEqualTo(48);
		assertThat(battery.sweepRequests(128)).isEqualTo(768);
		assertThat(battery.noiseFloorLevel()).isEqualTo(64);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.TAX_COUNT, "3")).count()).isEqualTo(3);
	}

	@Test
	@DisplayName("the gateway arm sends the gateway's request headers, {upstream} the engine's URL; the raw arm sends none of them")
	void gatewayArmHeaders() {
		TaxSettings settings = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.GATEWAY_HEADERS,
				"x-portkey-provider: openai\nx-portkey-custom-host: {upstream}"));

		assertThat(settings.headers()).isEmpty();
		assertThat(settings.gatewayArmHeaders(URI.create("http://127.0.0.1:8000/v1"))).containsOnly(
				Map.entry("x-portkey-provider", "openai"), Map.entry("x-portkey-custom-host", "http://127.0.0.1:8000/v1"));
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery")).gatewayArmHeaders(URI.create("http://127.0.0.1:8000/v1")))
				.isEmpty();
	}

	@Test
	@DisplayName("a rate sweep batch is 2 s of arrivals (0.5 s in the smoke run), longer with rate.batch.seconds, and out of range named")
	void rateBatchSeconds() {
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery")).load().batchSeconds()).isEqualTo(2.0);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery")).load().batchRequests(16)).isEqualTo(32);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "default")).load().batchSeconds()).isEqualTo(0.5);
		TaxSettings sustained = settings(Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.RATE_BATCH_SECONDS, "30"));
		assertThat(sustained.load().batchRequests(16)).as("30 s of arrivals at 16 req/s").isEqualTo(480);
		assertThat(sustained.load().batchRequests(0.1)).as("never fewer than 8").isEqualTo(8);
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.RATE_BATCH_SECONDS, "0"))).isInstanceOf(ConfigurationException.class)
				.hasMessageContaining(HarnessConstants.RATE_BATCH_SECONDS);
	}

	@Test
	@DisplayName("batching_regime names the model of the double this run started, never a constant; the configured regime wins")
	void batchingRegime() {
		TaxSettings battery = settings(Map.of(HarnessConstants.PROFILE, "battery"));
		URI base = URI.create("http://127.0.0.1:1/v1");
		TaxUpstream started = TaxUpstream.simulated(base, Dialect.VLLM, "the engine double", Synthetic.simulated(null).lag().orElseThrow(),
				TimingModel.defaults().withBatchAlpha(0.015).batchingFormula());
		assertThat(battery.batchingFor(started)).isEqualTo("engine double: itl x (1 + 0.015 x (active - 1)), continuous-batching model");
		TaxUpstream reached = new TaxUpstream(base, Dialect.VLLM, Optional.of("its version says engine-double"), Optional.empty(),
				Optional.empty());
		assertThat(battery.batchingFor(reached)).as("a double this run only reached: its timing is its own command line's")
				.doesNotContain("itl x")
				.contains("not known");
		assertThat(battery.batchingFor(TaxUpstream.node(base, Dialect.VLLM))).as("a real engine, nothing configured").isNull();
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.BATCHING_REGIME, "continuous"))
				.batchingFor(started)).isEqualTo("continuous");
	}

	@Test
	@DisplayName("sweep.requests sets the measured requests per arm and level, never below 6 x the level; a bad value names it")
	void sweepRequests() {
		TaxSettings more = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "256"));
		assertThat(more.sweepRequests(1)).isEqualTo(256);
		assertThat(more.sweepRequests(128)).isEqualTo(768);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "default", HarnessConstants.SWEEP_REQUESTS, "3")).sweepRequests(4))
				.isEqualTo(24);
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.SWEEP_REQUESTS, "many")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("sweep.requests");
	}

	@Test
	@DisplayName("tax.warmup sets the witness's warm-up per target: 1 in the smoke run, 4 on the double, 256 on llama.cpp; a bad value names it")
	void taxWarmup() {
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "default")).warmup()).isEqualTo(1);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery")).warmup()).isEqualTo(4);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "llamacpp")).warmup()).isEqualTo(256);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "llamacpp", HarnessConstants.TAX_WARMUP, "0")).warmup()).isZero();
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.TAX_WARMUP, "-1")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("tax.warmup");
	}

	@Test
	@DisplayName("sweep.warmup.s caps the sweeps' warm-up: 120 s, 1 s in the smoke run; a bad value names it")
	void sweepWarmup() {
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery")).warmupCap()).isEqualTo(java.time.Duration.ofMinutes(2));
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "default")).warmupCap()).isEqualTo(java.time.Duration.ofSeconds(1));
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_WARMUP_S, "30")).warmupCap())
				.isEqualTo(java.time.Duration.ofSeconds(30));
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.SWEEP_WARMUP_S, "0")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("sweep.warmup.s");
	}

	@Test
	@DisplayName("more sweep requests make more, not longer, batches: one per max(16, 4 x level), at least 6 (an interval's minimum) and even")
	void sweepBatches() {
		TaxSettings defaults = settings(Map.of(HarnessConstants.PROFILE, "battery"));
		assertThat(defaults.sweepBatchesPerArm(1)).as("48 requests in waves of 2").isEqualTo(24);
		assertThat(defaults.sweepBatchSize(1)).isEqualTo(2);
		assertThat(defaults.sweepBatchesPerArm(128)).isEqualTo(6);
		assertThat(defaults.sweepBatchSize(128)).isEqualTo(128);
		TaxSettings more = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "256"));
		assertThat(more.sweepBatchesPerArm(4)).isEqualTo(16);
		assertThat(more.sweepBatchesPerArm(8)).isEqualTo(8);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "80")).sweepBatchesPerArm(1))
				.isEqualTo(6);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "160")).sweepBatchesPerArm(1))
				.isEqualTo(10);
		assertThat(settings(Map.of(HarnessConstants.PROFILE, "default", HarnessConstants.SWEEP_REQUESTS, "256")).sweepBatchesPerArm(4))
				.isEqualTo(6);
	}

	@Test
	@DisplayName("sweep.batch sets the requests per batch, never fewer than the level; more batches per arm for the same requests")
	void sweepBatch() {
		TaxSettings waves = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "1536",
				HarnessConstants.SWEEP_BATCH, "4"));
		assertThat(waves.sweepBatchSize(4)).isEqualTo(4);
		assertThat(waves.sweepBatchesPerArm(4)).isEqualTo(384);
		assertThat(waves.sweepBatchSize(1)).isEqualTo(4);
		assertThat(waves.sweepBatchSize(8)).as("one request per stream at the least").isEqualTo(8);
		assertThat(waves.sweepBatchesPerArm(8)).isEqualTo(192);
		TaxSettings unset = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_REQUESTS, "1536"));
		assertThat(unset.sweepBatchSize(4)).isEqualTo(16);
		TaxSettings llamacpp = settings(Map.of(HarnessConstants.PROFILE, "llamacpp"));
		assertThat(llamacpp.sweepBatchSize(4)).as("-Pllamacpp: one wave of the level's streams").isEqualTo(4);
		assertThat(llamacpp.sweepBatchesPerArm(4)).isEqualTo(128);
		assertThat(llamacpp.sweepBatchSize(1)).isEqualTo(1);
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.SWEEP_BATCH, "0")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("sweep.batch");
	}

	@Test
	@DisplayName("sweep.noise.requests sets the A/A level's requests alone; unset, it runs with sweep.requests")
	void noiseFloorRequests() {
		TaxSettings llamacpp = settings(Map.of(HarnessConstants.PROFILE, "llamacpp"));
		assertThat(llamacpp.sweepRequests(4)).isEqualTo(512);
		assertThat(llamacpp.noiseFloorRequests()).as("-Pllamacpp's A/A").isEqualTo(2048);
		assertThat(llamacpp.forNoiseFloor().sweepBatchesPerArm(4)).isEqualTo(512);
		assertThat(llamacpp.forNoiseFloor().levels()).isEqualTo(llamacpp.levels());
		TaxSettings battery = settings(Map.of(HarnessConstants.PROFILE, "battery"));
		assertThat(battery.forNoiseFloor()).isSameAs(battery);
		TaxSettings set = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.SWEEP_NOISE_REQUESTS, "640"));
		assertThat(set.forNoiseFloor().sweepRequests(64)).isEqualTo(640);
		assertThat(set.sweepRequests(64)).isEqualTo(6 * 64);
	}

	@Test
	@DisplayName("the sequential stop: three looks where the cap allows, else the one look at today's cap; stop.* keys set it")
	void sequentialPlans() {
		TaxSettings defaults = settings(Map.of(HarnessConstants.PROFILE, "battery"));
		assertThat(defaults.sweepPlan(1).looks()).containsExactly(8, 16, 24);
		assertThat(defaults.sweepPlan(1).targetHalfWidth()).isEqualTo(0.005);
		assertThat(defaults.sweepPlan(64).looks()).containsExactly(6);
		assertThat(defaults.sweepPlan(64).lookLevel()).isEqualTo(0.95);
		assertThat(defaults.witnessPlan().looks()).as("tax.count 8: one look").containsExactly(8);
		TaxSettings set = settings(Map.of(HarnessConstants.PROFILE, "battery", HarnessConstants.TAX_COUNT, "512",
				HarnessConstants.STOP_HALF_WIDTH, "0.002", HarnessConstants.STOP_LOOKS, "2"));
		assertThat(set.witnessPlan().looks()).containsExactly(8, 512);
		assertThat(set.witnessPlan().targetHalfWidth()).isEqualTo(0.002);
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.STOP_HALF_WIDTH, "-1")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("stop.halfwidth");
	}

	@Test
	@DisplayName("the baseline file defaults to .vllm-tax-baseline.json in experiments.dir")
	void baselineDefault() {
		TaxSettings s = settings(Map.of(HarnessConstants.EXPERIMENTS_DIR, "/tmp/x"));
		assertThat(s.baselineFile()).isEqualTo(Path.of("/tmp/baselines/x/.vllm-tax-baseline.json"));
	}

	@Test
	@DisplayName("levels up to 512 are accepted; above is a configuration error naming the parameter")
	void levelLimit() {
		assertThat(settings(Map.of(HarnessConstants.SWEEP_CONCURRENCY, "256,512")).levels()).containsExactly(256, 512);
		assertThatThrownBy(() -> settings(Map.of(HarnessConstants.SWEEP_CONCURRENCY, "1,1024")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("sweep.concurrency level 1024");
	}
}
