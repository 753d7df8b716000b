package dev.fakbattery.bench.preflight;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The preflight's memory arithmetic, rounded like fak (one decimal, half-even over the exact
 * binary value, so fp8 753 GB x 1.15 = 865.9499... records as 865.9).
 *
 * @since 0.1
 */
public final class VramMath {

	/** Per-rank reserve that does not shard with tensor parallelism (NCCL, CUDA context, graphs): {@value} GB. */
	public static final double PER_RANK_RESERVE_GB = 7.0;

	/** MiB per reported "GB": fak divides nvidia-smi MiB by {@value}. */
	public static final double MIB_PER_GB = 1024.0;

	private VramMath() {
	}

	/** {@code weights x (1 + kvOverhead)}, rounded. */
	public static double requiredTotalGb(double weightsGb, double kvOverhead) {
		return round1(weightsGb * (1.0 + kvOverhead));
	}

	/**
	 * Per-GPU need of a tensor-parallel shard: {@code weights / n x (1 + kvOverhead) + 7 GB}; with
	 * one GPU or none it is the whole requirement.
	 */
	public static double requiredPerGpuGb(double weightsGb, double kvOverhead, int gpuCount) {
		if (gpuCount <= 1) {
			return requiredTotalGb(weightsGb, kvOverhead);
		}
		return round1(weightsGb / gpuCount * (1.0 + kvOverhead) + PER_RANK_RESERVE_GB);
	}

	/** {@code mib / 1024}, rounded. */
	public static double gbFromMib(double mib) {
		return round1(mib / MIB_PER_GB);
	}

	/** One decimal, half-even over the exact binary value (Python's {@code round(x, 1)}). */
	public static double round1(double value) {
		return new BigDecimal(value).setScale(1, RoundingMode.HALF_EVEN).doubleValue();
	}
}
