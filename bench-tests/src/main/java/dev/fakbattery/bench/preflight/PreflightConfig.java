package dev.fakbattery.bench.preflight;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

/**
 * What the preflight evaluates against: the model's size, the quant, the KV headroom, the engines
 * and the GPU name the node must report.
 *
 * @param model the model id recorded in the report, default {@code zai-org/GLM-5.2}
 * @param modelTotalParamsB total parameters in billions, default 753 (GLM-5.2)
 * @param quant the weight precision, default {@code fp8}; must be in {@code quants}
 * @param kvOverhead fractional VRAM headroom over the weights for KV cache and activations, default 0.15
 * @param quants the known precisions
 * @param engines the engines to evaluate, default {@code [vllm]}
 * @param requiredGpuName the anti-mislabel guard: a name every GPU must contain, for example {@code H200}
 * @param supportedGpus the sm_90+ parts recorded in the report
 * @since 0.1
 */
public record PreflightConfig(String model, double modelTotalParamsB, String quant, double kvOverhead,
		QuantTable quants, List<String> engines, Optional<String> requiredGpuName, List<String> supportedGpus) {

	/** Model id recorded in the report (see {@link HarnessConstants#PREFLIGHT_MODEL}). */
	public static final String MODEL_PROPERTY = HarnessConstants.PREFLIGHT_MODEL;

	/** Model size in billions of parameters (see {@link HarnessConstants#PREFLIGHT_MODEL_PARAMS_B}). */
	public static final String PARAMS_PROPERTY = HarnessConstants.PREFLIGHT_MODEL_PARAMS_B;

	/** KV-cache headroom fraction (see {@link HarnessConstants#PREFLIGHT_KV_OVERHEAD}). */
	public static final String KV_OVERHEAD_PROPERTY = HarnessConstants.PREFLIGHT_KV_OVERHEAD;

	/** fak's model: {@value}. */
	public static final String GLM52 = "zai-org/GLM-5.2";

	/** fak's supported sm_90+ parts. */
	public static final List<String> SUPPORTED_GPUS = List.of("H100", "H200", "B200", "B300", "GB200", "GB300");

	public PreflightConfig {
		Objects.requireNonNull(model, "model");
		Objects.requireNonNull(quants, "quants");
		quants.require(quant);
		if (!(modelTotalParamsB > 0) || !Double.isFinite(modelTotalParamsB)) {
			throw new IllegalArgumentException("model size must be a positive number of billions: " + modelTotalParamsB);
		}
		if (!(kvOverhead >= 0) || !Double.isFinite(kvOverhead)) {
			throw new IllegalArgumentException("kv overhead must be a fraction >= 0: " + kvOverhead);
		}
		engines = List.copyOf(engines);
		if (engines.isEmpty()) {
			throw new IllegalArgumentException("the preflight needs at least one engine, for example vllm");
		}
		requiredGpuName = requiredGpuName.map(String::trim).filter(s -> !s.isEmpty());
		supportedGpus = List.copyOf(supportedGpus);
	}

	/** GLM-5.2, 753B, fp8, kv 0.15, vllm, no GPU-name guard: fak's committed preflight. */
	public static PreflightConfig defaults() {
		return new PreflightConfig(ConfigKeys.PREFLIGHT_MODEL.defaultValue().orElseThrow(),
				ConfigKeys.PREFLIGHT_MODEL_PARAMS_B.defaultValue().orElseThrow(), "fp8",
				ConfigKeys.PREFLIGHT_KV_OVERHEAD.defaultValue().orElseThrow(), QuantTable.defaults(), List.of("vllm"),
				Optional.empty(), SUPPORTED_GPUS);
	}

	/**
	 * The defaults overridden by the battery configuration: {@link HarnessConstants#QUANT},
	 * {@link HarnessConstants#ENGINE}, {@link HarnessConstants#GPU_NAME_REQUIRED} and the three
	 * preflight properties of this class.
	 */
	public static PreflightConfig from(HarnessConfig config) {
		PreflightConfig defaults = defaults();
		return new PreflightConfig(config.string(MODEL_PROPERTY, defaults.model()),
				number(config, PARAMS_PROPERTY, defaults.modelTotalParamsB()),
				config.string(HarnessConstants.QUANT, defaults.quant()),
				number(config, KV_OVERHEAD_PROPERTY, defaults.kvOverhead()), defaults.quants(),
				List.of(config.engine().id()), config.string(HarnessConstants.GPU_NAME_REQUIRED), SUPPORTED_GPUS);
	}

	public PreflightConfig withModel(String id, double paramsBillions) {
		return new PreflightConfig(id, paramsBillions, quant, kvOverhead, quants, engines, requiredGpuName, supportedGpus);
	}

	public PreflightConfig withQuant(String value) {
		return new PreflightConfig(model, modelTotalParamsB, value, kvOverhead, quants, engines, requiredGpuName,
				supportedGpus);
	}

	public PreflightConfig withKvOverhead(double value) {
		return new PreflightConfig(model, modelTotalParamsB, quant, value, quants, engines, requiredGpuName,
				supportedGpus);
	}

	public PreflightConfig withQuants(QuantTable value) {
		return new PreflightConfig(model, modelTotalParamsB, quant, kvOverhead, value, engines, requiredGpuName,
				supportedGpus);
	}

	public PreflightConfig withEngines(List<String> value) {
		return new PreflightConfig(model, modelTotalParamsB, quant, kvOverhead, quants, value, requiredGpuName,
				supportedGpus);
	}

	/** The anti-mislabel guard; a blank name disables it. */
	public PreflightConfig withRequiredGpuName(String value) {
		return new PreflightConfig(model, modelTotalParamsB, quant, kvOverhead, quants, engines,
				Optional.ofNullable(value), supportedGpus);
	}

	/** Weight-resident GB of the model at {@link #quant()}. */
	public double weightsGb() {
		return quants.require(quant).weightsGb(modelTotalParamsB);
	}

	private static double number(HarnessConfig config, String name, double defaultValue) {
		Optional<String> raw = config.string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		try {
			double value = Double.parseDouble(raw.get());
			if (value >= 0 && Double.isFinite(value)) {
				return value;
			}
		}
		catch (NumberFormatException ignored) {
			// reported below
		}
		throw new ConfigurationException(String.format(
				"Unable to parse %s value [%s]: expected a non-negative number. Fix: pass -D%s=%s or remove it to use the default.",
				name, raw.get(), name, defaultValue));
	}
}
