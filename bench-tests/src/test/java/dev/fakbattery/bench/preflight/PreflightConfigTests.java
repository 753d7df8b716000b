package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Preflight configuration")
class PreflightConfigTests {

	@Test
	@DisplayName("defaults to fak's: GLM-5.2, 753B, fp8, kv 0.15, vllm, no guard")
	void defaults() {
		PreflightConfig config = PreflightConfig.from(HarnessConfig.of(name -> Optional.empty()));

		assertThat(config.model()).isEqualTo("zai-org/GLM-5.2");
		assertThat(config.modelTotalParamsB()).isEqualTo(753.0);
		assertThat(config.quant()).isEqualTo("fp8");
		assertThat(config.kvOverhead()).isEqualTo(0.15);
		assertThat(config.engines()).containsExactly("vllm");
		assertThat(config.requiredGpuName()).isEmpty();
	}

	@Test
	@DisplayName("reads quant, engine, GPU name and model size from the battery configuration")
	void readsTheBatteryConfiguration() {
		Map<String, String> values = Map.of("quant", "int4", "engine", "sglang", "gpu.name.required", "B200",
				"preflight.model.params.b", "355", "preflight.kv.overhead", "0.2");
		PreflightConfig config = PreflightConfig.from(HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));

		assertThat(config.quant()).isEqualTo("int4");
		assertThat(config.engines()).containsExactly("sglang");
		assertThat(config.requiredGpuName()).contains("B200");
		assertThat(config.modelTotalParamsB()).isEqualTo(355.0);
		assertThat(config.kvOverhead()).isEqualTo(0.2);
	}

	@Test
	@DisplayName("a bad model size fails closed with the name, the value and the fix")
	void badModelSizeFails() {
		HarnessConfig config = HarnessConfig.of(name -> name.equals("preflight.model.params.b") ? Optional.of("big") : Optional.empty());

		assertThatThrownBy(() -> PreflightConfig.from(config)).isInstanceOf(ConfigurationException.class)
				.hasMessage("Unable to parse preflight.model.params.b value [big]: expected a non-negative number. "
						+ "Fix: pass -Dpreflight.model.params.b=753.0 or remove it to use the default.");
	}

	@Test
	@DisplayName("an unknown quant fails when the configuration is built")
	void unknownQuantFails() {
		assertThatThrownBy(() -> PreflightConfig.defaults().withQuant("fp4"))
				.hasMessage("Unknown quant [fp4]: expected one of fp8, nvfp4, w4afp8, int4, bf16, f16.");
	}

	@Test
	@DisplayName("a blank GPU name disables the guard")
	void blankGuardIsDisabled() {
		assertThat(PreflightConfig.defaults().withRequiredGpuName("  ").requiredGpuName()).isEmpty();
	}
}
