package dev.fakbattery.bench.tax;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.Determinism;
import dev.fakbattery.core.GatewayHeaders;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.SequentialPlan;
import dev.fakbattery.core.stats.Slo;
import dev.fakbattery.core.workload.Workload;
import dev.fakbattery.core.workload.Workloads;

/**
 * What the tax witness and the concurrency sweep run with, from the harness configuration. The
 * {@code default} profile (a plain {@code ./mvnw verify}), and any profile with {@code tax.smoke=true}, gets tiny
 * counts so a smoke run stays fast ({@link #recordSizes(RungRecorder)} says so in the artifact): {@value dev.fakbattery.core.stats.BootstrapCi#MIN_SAMPLES_PER_ARM} samples per arm (the fewest an interval takes),
 * levels 1 and 4; every other profile the battery's: {@code tax.count} (default 8, fak's; below
 * {@value dev.fakbattery.core.stats.BootstrapCi#MIN_SAMPLES_PER_ARM} the witness is PENDING_MEASUREMENT),
 * {@code sweep.concurrency} (default 1,8,64,128, at most {@value #MAX_LEVEL}).
 *
 * @param tiny whether the smoke-sized defaults apply
 * @param count samples per arm of the witness
 * @param maxTokens {@code max_tokens} of every request
 * @param warmup warm-up conversations per target before the witness ({@code tax.warmup})
 * @param levels concurrency levels of the sweep
 * @param sweepRequests measured requests per arm at each sweep level ({@code sweep.requests}); 0 for the default
 * @param sweepBatch requests in one batch of a sweep level ({@code sweep.batch}); 0 for the default
 * @param levelTimeCap the most one batch of a sweep level may take
 * @param warmupCap the most a sweep's warm-up may take before its first level ({@code sweep.warmup.s}, {@link SteadyWarmup})
 * @param baselineFile the tax gate's baseline file
 * @param taxTolerance the tax gate's tolerance, a fraction of the baseline ({@code tax.tolerance})
 * @param seed seed of the interleaving and of the bootstrap
 * @param determinism the vLLM determinism token on every row
 * @param precision weight precision on every row; null when not configured
 * @param batchingRegime batching regime on every row; null when not configured
 * @param headers extra request headers (Authorization from {@code api.key.env}); never written anywhere
 * @param workload what every request is ({@code workload}), with its parameters and seed
 * @param load the rate sweep's open loop: rates, arrivals, cap and SLOs
 * @param stopHalfWidth the half-width at which the witness and a sweep level stop adding samples ({@code stop.halfwidth})
 * @param stopLooks the most planned looks of that stop ({@code stop.looks})
 * @param noiseRequests measured requests per arm at the sweep's A/A level ({@code sweep.noise.requests}); 0 for
 *        {@code sweepRequests}
 * @param gatewayHeaders the request headers of the gateway under test ({@code gateway.header.*}), sent to its arm only
 * @since 0.1
 */
public record TaxSettings(boolean tiny, int count, int maxTokens, int warmup, List<Integer> levels, int sweepRequests, int sweepBatch,
		Duration levelTimeCap, Duration warmupCap, Path baselineFile, double taxTolerance, long seed, String determinism, String precision,
		String batchingRegime,
		Map<String, String> headers, Workload workload, RateLoad load, double stopHalfWidth, int stopLooks, int noiseRequests,
		GatewayHeaders gatewayHeaders) {

	/**
	 * The rate sweep's settings.
	 *
	 * @param rates offered request rates, requests/s, ascending
	 * @param burstiness gamma shape of the inter-arrival times (1 Poisson)
	 * @param maxConcurrency most requests in flight, 0 for no cap
	 * @param slo the objectives goodput is judged against
	 * @param attainment share of requests that must meet the SLOs for a rate to count as met
	 * @param searchSteps bisection steps after the ladder of rates
	 * @param batchSeconds seconds of arrivals in one batch (requests per batch = rate x this, at least 8): {@code rate.batch.seconds}
	 * @since 0.3
	 */
	public record RateLoad(List<Double> rates, double burstiness, int maxConcurrency, Slo slo, double attainment, int searchSteps,
			double batchSeconds) {

		/** Requests in one batch at {@code rate}: {@code max(8, rate x batchSeconds)}. */
		public int batchRequests(double rate) {
			return (int) Math.max(8, Math.round(rate * batchSeconds));
		}
	}

	/** The largest concurrency the sweep accepts. */
	public static final int MAX_LEVEL = 512;

	/** {@code max_tokens} of the witness and the sweep. */
	public static final int MAX_TOKENS = 64;

	/** Seed of every interleaving and bootstrap, recorded in the artifacts. */
	public static final long SEED = 20_260_807L;

	/**
	 * Sweep levels on the embedded engine double when {@code sweep.concurrency} is not set: the double runs in its own
	 * process, so 64 and 128 streams are measured here too (whether they stay valid is the lag readings' call).
	 */
	public static final List<Integer> EMBEDDED_LEVELS = List.of(1, 8, 64, 128);

	/** The same settings with other sweep levels. */
	public TaxSettings withLevels(List<Integer> value) {
		return new TaxSettings(tiny, count, maxTokens, warmup, List.copyOf(value), sweepRequests, sweepBatch, levelTimeCap, warmupCap,
				baselineFile, taxTolerance,
				seed, determinism, precision, batchingRegime, headers, workload, load, stopHalfWidth, stopLooks, noiseRequests,
				gatewayHeaders);
	}

	/**
	 * The settings the sweep's A/A level runs with: {@code sweep.noise.requests} as its {@code sweep.requests} where
	 * set, else these.
	 */
	public TaxSettings forNoiseFloor() {
		return noiseRequests <= 0
				? this
				: new TaxSettings(tiny, count, maxTokens, warmup, levels, noiseRequests, sweepBatch, levelTimeCap, warmupCap, baselineFile,
						taxTolerance,
						seed, determinism, precision, batchingRegime, headers, workload, load, stopHalfWidth, stopLooks, 0,
						gatewayHeaders);
	}

	/** The most measured requests per arm at the sweep's A/A level ({@link #noiseFloorLevel()}, {@link #forNoiseFloor()}). */
	public int noiseFloorRequests() {
		return forNoiseFloor().sweepRequests(noiseFloorLevel());
	}

	/** The same settings with other rates for the rate sweep. */
	public TaxSettings withRates(List<Double> value) {
		return new TaxSettings(tiny, count, maxTokens, warmup, levels, sweepRequests, sweepBatch, levelTimeCap, warmupCap, baselineFile,
				taxTolerance,
				seed,
				determinism, precision, batchingRegime, headers, workload,
				new RateLoad(List.copyOf(value), load.burstiness(), load.maxConcurrency(), load.slo(),
						load.attainment(), load.searchSteps(), load.batchSeconds()),
				stopHalfWidth, stopLooks, noiseRequests, gatewayHeaders);
	}

	/** Resolves the settings; a sweep level above {@value #MAX_LEVEL} fails naming the parameter. */
	public static TaxSettings from(HarnessConfig config) {
		boolean tiny = config.profile().smoke() || config.get(ConfigKeys.TAX_SMOKE);
		HarnessConfig sizes = tiny ? smokeSized(config) : config;
		int count = sizes.get(ConfigKeys.TAX_COUNT);
		List<Integer> levels = sizes.get(ConfigKeys.SWEEP_CONCURRENCY);
		for (int level : levels) {
			if (level > MAX_LEVEL) {
				throw new ConfigurationException("Unable to use " + HarnessConstants.SWEEP_CONCURRENCY + " level " + level
						+ ": the sweep accepts at most " + MAX_LEVEL + ". Fix: pass -D" + HarnessConstants.SWEEP_CONCURRENCY
						+ "=1,8,64,128 or levels up to " + MAX_LEVEL + ".");
			}
		}
		Path baseline = config.path(HarnessConstants.BASELINE_FILE).orElse(defaultBaseline(config)).toAbsolutePath();
		Map<String, String> headers = config.string(HarnessConstants.API_KEY_ENV)
				.map(System::getenv)
				.filter(k -> !k.isBlank())
				.map(key -> Map.of("Authorization", "Bearer " + key))
				.orElse(Map.of());
		int sweepRequests = sizes.find(ConfigKeys.SWEEP_REQUESTS).orElse(0);
		Duration warmupCap = Duration.ofSeconds(sizes.get(ConfigKeys.SWEEP_WARMUP_S));
		return new TaxSettings(tiny, count, MAX_TOKENS, sizes.get(ConfigKeys.TAX_WARMUP), levels, sweepRequests,
				sizes.find(ConfigKeys.SWEEP_BATCH).orElse(0), Duration.ofMinutes(2),
				warmupCap, baseline, config.get(ConfigKeys.TAX_TOLERANCE),
				SEED, Determinism.resolve(config).token(), config.string(HarnessConstants.QUANT).orElse(null),
				config.string(HarnessConstants.BATCHING_REGIME).orElse(null), headers, Workloads.from(config, MAX_TOKENS, SEED),
				rateLoad(sizes, tiny), config.get(ConfigKeys.STOP_HALF_WIDTH), config.get(ConfigKeys.STOP_LOOKS),
				sizes.find(ConfigKeys.SWEEP_NOISE_REQUESTS).orElse(0), GatewayHeaders.of(config, System::getenv));
	}

	/**
	 * {@code config} as the smoke profile reads it, for the keys of the rung's sizes: a key that is set keeps its value,
	 * one that is not takes the {@code default} profile's default ({@code tax.smoke} under another profile).
	 */
	private static HarnessConfig smokeSized(HarnessConfig config) {
		if (config.profile().smoke()) {
			return config;
		}
		return HarnessConfig.of(name -> name.equals(HarnessConstants.PROFILE) ? Optional.of(Profile.DEFAULT.id()) : config.string(name));
	}

	/** {@code provenance.sample_sizes} of a rung run at the smoke run's sizes: {@value}. */
	public static final String SMOKE_SIZES = "smoke";

	/**
	 * Records the sizes the rung runs at as {@code provenance.sample_sizes}: {@value #SMOKE_SIZES} or {@code full}, and
	 * why. At the smoke run's sizes outside the smoke profile ({@code tax.smoke}) the measurement is also invalid for
	 * its profile ({@code sample_sizes}, PENDING_MEASUREMENT): the final gate never counts it, the authority draft is
	 * withheld, and the tax gate keeps no baseline of it.
	 */
	public void recordSizes(RungRecorder run) {
		Profile profile = run.config().profile();
		if (!tiny) {
			run.provenance("sample_sizes", "full");
			return;
		}
		if (profile.smoke()) {
			run.provenance("sample_sizes", SMOKE_SIZES + " (the " + profile.id() + " profile)");
			return;
		}
		run.provenance("sample_sizes", SMOKE_SIZES + " (" + HarnessConstants.TAX_SMOKE + "=true under -P" + profile.id() + ")");
		run.invalid("sample_sizes",
				"the rung ran at the smoke run's sizes (" + count + " samples per arm, levels " + levels + "), set by -D"
						+ HarnessConstants.TAX_SMOKE + "=true under -P" + profile.id() + ": not a measurement of -P" + profile.id(),
				"unset -D" + HarnessConstants.TAX_SMOKE + " to measure at -P" + profile.id() + "'s sizes");
	}

	/**
	 * The headers the gateway arm sends: {@link #headers()}, then the gateway's own ({@code gateway.header.*}), its
	 * {@code {upstream}} the engine at {@code upstream}.
	 */
	public Map<String, String> gatewayArmHeaders(URI upstream) {
		Map<String, String> all = new LinkedHashMap<>(headers);
		all.putAll(gatewayHeaders.values(upstream));
		return all;
	}

	/** Rates of the rate sweep on the engine double when {@code rate.sweep} is not set (smoke: {@code 16,32}). */
	public static final List<Double> EMBEDDED_RATES = List.of(4.0, 8.0, 16.0, 32.0);

	private static RateLoad rateLoad(HarnessConfig config, boolean tiny) {
		List<Double> rates = config.get(ConfigKeys.RATE_SWEEP).stream().sorted().distinct().toList();
		StringBuilder slo = new StringBuilder();
		slo.append("ttft:").append(config.get(ConfigKeys.SLO_TTFT_MS));
		slo.append(" tpot:").append(config.get(ConfigKeys.SLO_TPOT_MS));
		config.find(ConfigKeys.SLO_E2EL_MS).ifPresent(e2el -> slo.append(" e2el:").append(e2el));
		return new RateLoad(rates, config.get(ConfigKeys.BURSTINESS),
				config.get(ConfigKeys.MAX_CONCURRENCY),
				Slo.parse(slo.toString()), config.get(ConfigKeys.SLO_ATTAINMENT), tiny ? 1 : 3, config.get(ConfigKeys.RATE_BATCH_SECONDS));
	}

	/**
	 * {@code experiments/baselines/<experiments folder>/.vllm-tax-baseline.json}: beside the artifacts, outside the
	 * folder {@code -Pbattery} empties, so the regression gate has a baseline from the second run on.
	 */
	static Path defaultBaseline(HarnessConfig config) {
		Path dir = config.experimentsDir();
		return dir.resolveSibling("baselines").resolve(dir.getFileName().toString()).resolve(TaxGate.DEFAULT_BASELINE_FILE);
	}

	/**
	 * Batches per arm at every sweep level, at least: the sweep's ratio is a median over batches with an interval, and
	 * an interval of a median needs {@value dev.fakbattery.core.stats.BootstrapCi#MIN_SAMPLES_PER_ARM} points per arm
	 * ({@link BootstrapCi#MIN_SAMPLES_PER_ARM}).
	 */
	public static final int MIN_BATCHES = BootstrapCi.MIN_SAMPLES_PER_ARM;

	/**
	 * The most measured requests per arm at a sweep level, the cap of its sequential stop: {@code sweep.requests} but at
	 * least {@value #MIN_BATCHES}c (a full wave per batch); by default {@value #MIN_BATCHES} x {@code max(c, 8)}, tiny
	 * {@value #MIN_BATCHES} x {@code max(c, 2)}.
	 */
	public int sweepRequests(int concurrency) {
		if (sweepRequests > 0) {
			return Math.max(sweepRequests, MIN_BATCHES * concurrency);
		}
		return MIN_BATCHES * Math.max(concurrency, tiny ? 2 : 8);
	}

	/**
	 * The most batches per arm at sweep level {@code concurrency}, the cap of its sequential stop
	 * ({@link #sweepPlan(int)}): at least {@value #MIN_BATCHES} (three ABBA blocks, the fewest the ratio's interval takes)
	 * and even; {@value #MIN_BATCHES} in the smoke profile. With {@code sweep.requests} one batch per
	 * {@code max(16, 4 x level)} requests: more requests interleave the arms more finely instead of lengthening each batch,
	 * since on a shared machine batch-to-batch drift, not request count, sets the A/A floor (on 2 cores 4 batches of 64
	 * read A/A 0.9816 [0.9694, 0.9918]). By default one batch per wave of {@code max(c, 2)} requests: below 8 streams
	 * the requests of {@value #MIN_BATCHES} x 8 split into more, shorter batches, so the level can stop early. With
	 * {@code sweep.batch} one batch per that many requests (at least the level).
	 */
	public int sweepBatchesPerArm(int concurrency) {
		if (tiny) {
			return MIN_BATCHES;
		}
		int batches = sweepRequests(concurrency) / sweepBatchTarget(concurrency);
		return Math.max(MIN_BATCHES, batches - batches % 2);
	}

	/** Requests a batch at sweep level {@code concurrency} aims at: {@code sweep.batch} (at least the level), else the default. */
	private int sweepBatchTarget(int concurrency) {
		if (sweepBatch > 0) {
			return Math.max(sweepBatch, concurrency);
		}
		return sweepRequests > 0 ? Math.max(16, 4 * concurrency) : Math.max(2, concurrency);
	}

	/** Requests in one batch at sweep level {@code concurrency}: the cap's requests over its batches, rounded up. */
	public int sweepBatchSize(int concurrency) {
		int batches = sweepBatchesPerArm(concurrency);
		return (sweepRequests(concurrency) + batches - 1) / batches;
	}

	/**
	 * The sequential stop of sweep level {@code concurrency}: looks in batches per arm from {@value #MIN_BATCHES} to
	 * {@link #sweepBatchesPerArm(int)}, whole ABBA blocks, at most {@code stop.looks}, target {@code stop.halfwidth}.
	 */
	public SequentialPlan sweepPlan(int concurrency) {
		return SequentialPlan.of(MIN_BATCHES, sweepBatchesPerArm(concurrency), 2, stopLooks, stopHalfWidth, BootstrapCi.DEFAULT_LEVEL);
	}

	/**
	 * The tax witness's sequential stop: looks in samples per arm up to {@code tax.count}, whole ABBA blocks; with fewer
	 * than {@value dev.fakbattery.core.stats.BootstrapCi#MIN_SAMPLES_PER_ARM} one look at the count.
	 */
	public SequentialPlan witnessPlan() {
		int fewest = Math.min(count, MIN_BATCHES);
		return SequentialPlan.of(Math.max(1, fewest), Math.max(1, count), 2, stopLooks, stopHalfWidth, BootstrapCi.DEFAULT_LEVEL);
	}

	/** The most batches per arm at a rate sweep level outside the smoke profile, the cap of its sequential decision. */
	public static final int RATE_MAX_BATCHES = 4;

	/**
	 * The sequential decision of a rate sweep level: looks in batches per arm at 2 (one ABBA block) and
	 * {@value #RATE_MAX_BATCHES}, each arm's attainment interval at the looks' Bonferroni level (97.5 % with two looks);
	 * one look at {@value #RATE_MAX_BATCHES} with {@code stop.looks=1}; in the smoke profile one look at 2 (95 %).
	 */
	public SequentialPlan ratePlan() {
		List<Integer> looks = tiny ? List.of(2) : stopLooks == 1 ? List.of(RATE_MAX_BATCHES) : List.of(2, RATE_MAX_BATCHES);
		return new SequentialPlan(looks, 0, BootstrapCi.DEFAULT_LEVEL);
	}

	/** The sweep level of the A/A noise floor: 64 when swept, else the largest level. */
	public int noiseFloorLevel() {
		return levels.contains(64) ? 64 : levels.stream().mapToInt(Integer::intValue).max().orElseThrow();
	}

	/** The precision written on rows: the configured one, or what a simulated run has instead. */
	public String precisionFor(Optional<String> simulated) {
		return precision != null ? precision : simulated.isPresent() ? "none (engine double, no weights)" : null;
	}

	/**
	 * The batching regime written on rows: the configured one, else the model of the double this run started, else on a
	 * double it only reached, that its model is unknown here.
	 */
	public String batchingFor(TaxUpstream upstream) {
		if (batchingRegime != null) {
			return batchingRegime;
		}
		return upstream.batching()
				.map(formula -> "engine double: " + formula + ", continuous-batching model")
				.orElse(upstream.simulated().isPresent()
						? "engine double, started elsewhere: its batching model is not known to this run"
						: null);
	}
}
