package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.api.Determinism;
import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.stats.TaxGate;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * What the tax witness and the concurrency sweep run with, from the harness configuration. The
 * {@code default} profile (a plain {@code ./mvnw verify}) gets tiny counts so a smoke run stays
 * fast: 2 samples per leg, levels 1 and 4; every other profile the battery's: {@code tax.count}
 * (default 8, the seed's), {@code sweep.concurrency} (default 1,8,64,128, at most
 * {@value #MAX_LEVEL}).
 *
 * @param tiny whether the smoke-sized defaults apply
 * @param count samples per leg of the witness
 * @param maxTokens {@code max_tokens} of every request
 * @param warmup warm-up requests per target before the witness
 * @param levels concurrency levels of the sweep
 * @param levelTimeCap the most one batch of a sweep level may take
 * @param baselineFile the tax gate's baseline file
 * @param seed seed of the interleaving and of the bootstrap
 * @param determinism the vLLM determinism token on every row
 * @param precision weight precision on every row; null when not configured
 * @param batchingRegime batching regime on every row; null when not configured
 * @param headers extra request headers (Authorization from {@code api.key.env}); never written anywhere
 * @since 0.1
 */
public record TaxSettings(boolean tiny, int count, int maxTokens, int warmup, List<Integer> levels, Duration levelTimeCap,
		Path baselineFile, long seed, String determinism, String precision, String batchingRegime,
		Map<String, String> headers) {

	/** The largest concurrency the sweep accepts. */
	public static final int MAX_LEVEL = 512;

	/** {@code max_tokens} of the witness and the sweep. */
	public static final int MAX_TOKENS = 64;

	/** Seed of every interleaving and bootstrap, recorded in the artifacts. */
	public static final long SEED = 20_260_807L;

	/** Sweep levels on the embedded engine double when {@code sweep.concurrency} is not set. */
	public static final List<Integer> EMBEDDED_LEVELS = List.of(1, 8);

	/** The same settings with other sweep levels. */
	public TaxSettings withLevels(List<Integer> value) {
		return new TaxSettings(tiny, count, maxTokens, warmup, List.copyOf(value), levelTimeCap, baselineFile, seed, determinism, precision,
				batchingRegime, headers);
	}

	/** Resolves the settings; a sweep level above {@value #MAX_LEVEL} fails naming the parameter. */
	public static TaxSettings from(HarnessConfig config) {
		boolean tiny = config.profile().smoke();
		int count = config.positiveInt(HarnessConstants.TAX_COUNT, tiny ? 2 : 8);
		List<Integer> levels = config.positiveInts(HarnessConstants.SWEEP_CONCURRENCY, tiny ? List.of(1, 4) : List.of(1, 8, 64, 128));
		for (int level : levels) {
			if (level > MAX_LEVEL) {
				throw new ExtensionConfigurationException("Unable to use " + HarnessConstants.SWEEP_CONCURRENCY + " level " + level
						+ ": the sweep accepts at most " + MAX_LEVEL + ". Fix: pass -D" + HarnessConstants.SWEEP_CONCURRENCY
						+ "=1,8,64,128 or levels up to " + MAX_LEVEL + ".");
			}
		}
		Path baseline = config.path(HarnessConstants.BASELINE_FILE).orElse(defaultBaseline(config)).toAbsolutePath();
		Map<String, String> headers = config.string(HarnessConstants.API_KEY_ENV).map(System::getenv).filter(k -> !k.isBlank())
			.map(key -> Map.of("Authorization", "Bearer " + key)).orElse(Map.of());
		return new TaxSettings(tiny, count, MAX_TOKENS, tiny ? 1 : 4, levels, Duration.ofMinutes(2), baseline, SEED,
				Determinism.resolve(config).token(), config.string(HarnessConstants.QUANT).orElse(null),
				config.string(HarnessConstants.BATCHING_REGIME).orElse(null), headers);
	}

	/**
	 * {@code experiments/baselines/<experiments folder>/.vllm-tax-baseline.json}: beside the artifacts, outside the
	 * folder {@code -Pbattery} empties, so the regression gate has a baseline from the second run on.
	 */
	static Path defaultBaseline(HarnessConfig config) {
		Path dir = config.experimentsDir();
		return dir.resolveSibling("baselines").resolve(dir.getFileName().toString()).resolve(TaxGate.DEFAULT_BASELINE_FILE);
	}

	/** Measured requests per arm at a sweep level: {@code max(4c, 32)}, tiny {@code max(2c, 8)}. */
	public int sweepRequests(int concurrency) {
		return tiny ? Math.max(2 * concurrency, 8) : Math.max(4 * concurrency, 32);
	}

	/** Batches per arm at each sweep level: two ABBA blocks (4), one in the smoke profile (2). */
	public int sweepBatchesPerArm() {
		return tiny ? 2 : 4;
	}

	/** The sweep level of the A/A noise floor: 64 when swept, else the largest level. */
	public int noiseFloorLevel() {
		return levels.contains(64) ? 64 : levels.stream().mapToInt(Integer::intValue).max().orElseThrow();
	}

	/** The precision written on rows: the configured one, or what a simulated run has instead. */
	public String precisionFor(Optional<String> simulated) {
		return precision != null ? precision : simulated.isPresent() ? "none (engine double, no weights)" : null;
	}

	/** The batching regime written on rows: the configured one, or the double's model when simulated. */
	public String batchingFor(Optional<String> simulated) {
		return batchingRegime != null ? batchingRegime
				: simulated.isPresent() ? "engine double: itl x (1 + 0.05 x (active - 1)), continuous-batching model" : null;
	}
}
