package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code node} section of the preflight: what the GPUs add up to.
 *
 * <p>The compute capability is taken per GPU (nvidia-smi's value, else the name map) and the node's
 * is the smallest; one GPU of unknown capability makes the node's unknown, which blocks it. The
 * per-GPU VRAM is the smallest card's, since the smallest card decides whether a tensor-parallel
 * shard fits.
 *
 * @param gpuName the first GPU's name, {@code ""} when none
 * @param gpuCount number of GPU rows
 * @param computeCap the node's compute capability, or null when unknown
 * @param computeCapSource {@code nvidia-smi}, {@code name-map}, {@code mixed} or {@code ""}
 * @param arch the architecture label of {@code computeCap}
 * @param totalVramGb the sum of all cards, GB (MiB / 1024)
 * @param totalVramSource {@code nvidia-smi} or {@code ""}
 * @param perGpuVramGb the smallest card, GB, or null when no card reported memory
 * @param perGpuVramSource {@code min-card} or {@code ""}
 * @since 0.1
 */
public record NodeShape(String gpuName, int gpuCount, Double computeCap, String computeCapSource, String arch,
		double totalVramGb, String totalVramSource, Double perGpuVramGb, String perGpuVramSource) {

	/** Folds the GPU rows of {@code smi} into one node shape. */
	public static NodeShape of(NvidiaSmiReading smi) {
		List<GpuRow> gpus = smi.gpus();
		if (gpus.isEmpty()) {
			return new NodeShape("", 0, null, "", ComputeCapability.archLabel(null), 0.0, "", null, "");
		}
		Capability capability = capability(gpus);
		double totalMib = gpus.stream().mapToDouble(g -> g.memoryTotalMib() == null ? 0 : g.memoryTotalMib()).sum();
		Optional<Double> minMib = gpus.stream()
				.map(GpuRow::memoryTotalMib)
				.filter(m -> m != null && m > 0)
				.min(Double::compare);
		return new NodeShape(gpus.get(0).name(), gpus.size(), capability.cc(), capability.source(),
				ComputeCapability.archLabel(capability.cc()), VramMath.gbFromMib(totalMib), "nvidia-smi",
				minMib.map(VramMath::gbFromMib).orElse(null), minMib.isPresent() ? "min-card" : "");
	}

	private record Capability(Double cc, String source) {
	}

	private static Capability capability(List<GpuRow> gpus) {
		List<String> sources = new ArrayList<>();
		Double min = null;
		for (GpuRow gpu : gpus) {
			Optional<Double> reported = gpu.reportedComputeCap();
			Optional<Double> cc = reported.or(() -> ComputeCapability.fromName(gpu.name()));
			if (cc.isEmpty()) {
				return new Capability(null, "");
			}
			sources.add(reported.isPresent() ? "nvidia-smi" : "name-map");
			min = min == null ? cc.get() : Math.min(min, cc.get());
		}
		boolean oneSource = sources.stream().distinct().count() == 1;
		return new Capability(min, oneSource ? sources.get(0) : "mixed");
	}
}
