package dev.fakbattery.bench.preflight;

import java.util.Objects;
import java.util.Optional;

/**
 * One GPU as nvidia-smi reported it, in fak's field shapes: {@code index} and
 * {@code compute_cap} stay strings ({@code ""} when nvidia-smi printed nothing or {@code N/A}),
 * {@code memory_total_mib} is a number or null when it did not parse.
 *
 * @param index the GPU index as printed
 * @param name the GPU name, for example {@code NVIDIA H200}
 * @param memoryTotalMib total memory in MiB, or null
 * @param computeCap compute capability as printed, for example {@code 9.0}, or {@code ""}
 * @since 0.1
 */
public record GpuRow(String index, String name, Double memoryTotalMib, String computeCap) {

	public GpuRow {
		Objects.requireNonNull(index, "index");
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(computeCap, "computeCap");
	}

	/** The printed compute capability as a number, when there is one that parses. */
	public Optional<Double> reportedComputeCap() {
		if (computeCap.isBlank()) {
			return Optional.empty();
		}
		try {
			return Optional.of(Double.parseDouble(computeCap.trim()));
		}
		catch (NumberFormatException e) {
			return Optional.empty();
		}
	}
}
