package dev.fakbattery.bench.swebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Compare expectation from the battery configuration")
class CompareExpectationTests {

	private static final URI RAW = URI.create("http://10.0.0.5:8000/v1");

	@Test
	@DisplayName("defaults to fak's contract, with the configured raw URL")
	void defaultsToTheSeed() {
		CompareExpectation expect = CompareExpectation.from(HarnessConfig.of(name -> Optional.empty()), RAW);

		assertThat(expect).isEqualTo(new CompareExpectation("zai-org/GLM-5.2-FP8", "glm-5.2", "vllm", 20,
				"http://10.0.0.5:8000/v1", Optional.empty()));
		assertThat(expect.arms()).containsExactly("raw-vllm", "fak-gateway");
	}

	@Test
	@DisplayName("reads models, engine, selection size and GPU name")
	void readsTheConfiguration() {
		Map<String, String> values = Map.of("checkpoint.model", "Qwen/Qwen3.6-27B", "model", "qwen36-27b",
				"engine", "sglang", "selection", "slice 0:5", "gpu.name.required", "B200");

		CompareExpectation expect = CompareExpectation.from(HarnessConfig.of(n -> Optional.ofNullable(values.get(n))), RAW);

		assertThat(expect).isEqualTo(new CompareExpectation("Qwen/Qwen3.6-27B", "qwen36-27b", "sglang", 5,
				"http://10.0.0.5:8000/v1", Optional.of("B200")));
		assertThat(expect.rawArm()).isEqualTo("raw-sglang");
		assertThat(expect.selection()).isEqualTo("slice 0:5");
	}

	@Test
	@DisplayName("a selection fak's driver cannot express fails with the fix")
	void unsupportedSelectionFails() {
		HarnessConfig config = HarnessConfig.of(n -> n.equals("selection") ? Optional.of("slice 10:30") : Optional.empty());

		assertThatThrownBy(() -> CompareExpectation.from(config, RAW)).isInstanceOf(ConfigurationException.class)
				.hasMessage("Unable to parse selection value [slice 10:30]: expected fak's slice 0:N. "
						+ "Fix: pass -Dselection=\"slice 0:20\" or remove it to use the default.");
	}
}
