package dev.fakbattery.bench.preflight;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.fakbattery.core.Check;

/**
 * The anti-mislabel guard: when a GPU name is required (for example {@code H200}), every GPU the
 * node reports must contain it, case-insensitively. A node that reports no GPU fails the guard:
 * the label cannot be confirmed.
 *
 * @since 0.1
 */
public final class GpuNameGuard {

	/** The check name: {@value}. */
	public static final String CHECK = "gpu_name_guard";

	private GpuNameGuard() {
	}

	/** The guard's check, or empty when no GPU name is required. */
	public static Optional<Check> check(Optional<String> required, NvidiaSmiReading smi) {
		return required.map(name -> check(name, smi));
	}

	static Check check(String required, NvidiaSmiReading smi) {
		String expected = "every GPU name contains \"" + required + "\"";
		if (smi.gpus().isEmpty()) {
			String why = smi.detail().isEmpty() ? "" : ": " + smi.detail();
			return new Check(CHECK, false, expected, "no GPU reported (nvidia-smi " + smi.status() + why + ")");
		}
		String needle = required.toLowerCase(Locale.ROOT);
		boolean all = smi.gpus().stream().allMatch(g -> g.name().toLowerCase(Locale.ROOT).contains(needle));
		return new Check(CHECK, all, expected, observed(smi));
	}

	/** {@code 8 x NVIDIA H200} or {@code 7 x NVIDIA H200, 1 x NVIDIA H100 80GB HBM3}. */
	static String observed(NvidiaSmiReading smi) {
		Map<String, Long> counts = smi.gpus()
				.stream()
				.collect(Collectors.groupingBy(GpuRow::name, LinkedHashMap::new, Collectors.counting()));
		return counts.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", "));
	}
}
