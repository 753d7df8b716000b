package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Compute capability, quant table and VRAM arithmetic")
class CapacityMathTests {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({
		"NVIDIA H100 80GB HBM3, 9.0", "NVIDIA H200, 9.0", "NVIDIA B200, 10.0", "NVIDIA GB200, 10.0",
		"NVIDIA B300, 10.0", "NVIDIA GB300, 10.0", "NVIDIA A100-SXM4-80GB, 8.0", "NVIDIA A10, 8.6",
		"NVIDIA L40S, 8.9", "NVIDIA L4, 8.9", "NVIDIA GeForce RTX 4090, 8.9", "Tesla V100-SXM2-32GB, 7.0"
	})
	@DisplayName("maps GPU names to their compute capability")
	void mapsNames(String name, double cc) {
		assertThat(ComputeCapability.fromName(name)).contains(cc);
	}

	@Test
	@DisplayName("an unknown name has no capability")
	void unknownNameHasNone() {
		assertThat(ComputeCapability.fromName("Mystery Accelerator")).isEmpty();
	}

	@Test
	@DisplayName("fp8 753B needs 865.9 GB (865.95 recorded half-even like fak)")
	void fp8RequirementMatchesTheSeed() {
		double weights = QuantTable.defaults().require("fp8").weightsGb(753);

		assertThat(weights).isEqualTo(753.0);
		assertThat(VramMath.requiredTotalGb(weights, 0.15)).isEqualTo(865.9);
	}

	@Test
	@DisplayName("the per-GPU need is weights / n x 1.15 + 7 GB, the total with one GPU or none")
	void perGpuNeed() {
		assertThat(VramMath.requiredPerGpuGb(753, 0.15, 8)).isEqualTo(115.2);
		assertThat(VramMath.requiredPerGpuGb(753, 0.15, 1)).isEqualTo(865.9);
		assertThat(VramMath.requiredPerGpuGb(753, 0.15, 0)).isEqualTo(865.9);
	}

	@Test
	@DisplayName("bytes per param: bf16 2, fp8 1, int4 and nvfp4 0.5; nvfp4 needs cc 10")
	void defaultQuantTable() {
		QuantTable table = QuantTable.defaults();

		assertThat(table.require("bf16").weightsGb(753)).isEqualTo(1506.0);
		assertThat(table.require("int4").weightsGb(753)).isEqualTo(376.5);
		assertThat(table.require("nvfp4").runsOn(9.0)).isFalse();
		assertThat(table.require("nvfp4").runsOn(10.0)).isTrue();
		assertThat(table.require("fp8").runsOn(null)).isFalse();
	}

	@Test
	@DisplayName("a custom table carries fak's published nvfp4 footprint: 459 GB needs 527.8 GB")
	void customTable() {
		QuantTable table = QuantTable.defaults().with(new QuantSpec("nvfp4", 459.0 / 753.0, 10.0));

		assertThat(VramMath.requiredTotalGb(table.require("nvfp4").weightsGb(753), 0.15)).isEqualTo(527.8);
	}

	@Test
	@DisplayName("an unknown quant fails with the known names")
	void unknownQuantFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> QuantTable.defaults().require("fp4"))
				.withMessage("Unknown quant [fp4]: expected one of fp8, nvfp4, w4afp8, int4, bf16, f16.");
	}

	@Test
	@DisplayName("the recommended quant is the first that fits and runs")
	void recommendedQuant() {
		QuantTable table = QuantTable.defaults();

		assertThat(table.recommended(753, 0.15, 1123.2, 9.0)).contains("fp8");
		assertThat(table.recommended(753, 0.15, 640.0, 9.0)).contains("w4afp8");
		assertThat(table.recommended(753, 0.15, 640.0, 10.0)).contains("nvfp4");
		assertThat(table.recommended(753, 0.15, 159.3, 9.0)).isEmpty();
	}
}
