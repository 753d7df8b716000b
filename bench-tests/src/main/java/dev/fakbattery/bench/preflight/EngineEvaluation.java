package dev.fakbattery.bench.preflight;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of {@code engines}: the verdict for one engine and the facts it was computed from.
 *
 * @param engine the engine, for example {@code vllm}
 * @param verdict the verdict
 * @param archOk whether the compute capability clears the DSA floor
 * @param memoryOk whether both the total and the per-GPU requirement fit
 * @param enginePresent whether the engine imports
 * @param engineVersion its version, {@code ""} when absent
 * @param quant the evaluated quant
 * @param requiredVramGb total requirement, GB
 * @param totalVramGb total VRAM, GB
 * @param requiredPerGpuVramGb per-GPU requirement, GB
 * @param perGpuVramGb the smallest card, GB, or null when unknown
 * @param gpuCount number of GPUs
 * @param recommendedQuant the best quant that fits, if any
 * @param notes why, in words
 * @since 0.1
 */
public record EngineEvaluation(String engine, EngineVerdict verdict, boolean archOk, boolean memoryOk,
		boolean enginePresent, String engineVersion, String quant, double requiredVramGb, double totalVramGb,
		double requiredPerGpuVramGb, Double perGpuVramGb, int gpuCount, Optional<String> recommendedQuant,
		List<String> notes) {

	public EngineEvaluation {
		Objects.requireNonNull(engine, "engine");
		Objects.requireNonNull(verdict, "verdict");
		Objects.requireNonNull(recommendedQuant, "recommendedQuant");
		notes = List.copyOf(notes);
	}

	/** Whether the battery accepts this row: READY or READY_PENDING_INSTALL. */
	public boolean ready() {
		return verdict.ready();
	}
}
