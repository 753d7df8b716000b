package dev.fakbattery.bench.preflight;

import java.util.Objects;

/**
 * One weight precision: how many bytes a parameter takes and the lowest compute capability whose
 * kernels run it.
 *
 * @param name the quant id, for example {@code fp8}
 * @param bytesPerParam weight bytes per parameter, for example 1.0 for fp8
 * @param minComputeCap the architecture floor, for example 10.0 for nvfp4 (Blackwell FP4 cores)
 * @since 0.1
 */
public record QuantSpec(String name, double bytesPerParam, double minComputeCap) {

	public QuantSpec {
		Objects.requireNonNull(name, "name");
		if (!(bytesPerParam > 0) || !Double.isFinite(bytesPerParam)) {
			throw new IllegalArgumentException("quant " + name + " bytes per param must be positive: " + bytesPerParam);
		}
	}

	/** Weight-resident GB of a model of {@code paramsBillions} at this precision. */
	public double weightsGb(double paramsBillions) {
		return paramsBillions * bytesPerParam;
	}

	/** Whether a GPU of capability {@code cc} runs this quant; an unknown capability never does. */
	public boolean runsOn(Double cc) {
		return cc != null && cc >= minComputeCap;
	}
}
