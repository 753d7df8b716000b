package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The weight precisions the preflight knows, in preference order (highest fidelity first, the
 * order the recommended quant is picked in).
 *
 * <p>The default table sizes weights as parameters times bytes per parameter: bf16 and f16 2, fp8 1, and
 * 0.5 for the 4-bit formats (nvfp4, w4afp8, int4). For fp8 and bf16 this equals fak's
 * published GLM-5.2 footprints (753 GB, 1506 GB); for the 4-bit formats fak used published
 * checkpoint sizes instead (nvfp4 459 GB, w4afp8 368 GB, int4 376 GB), which a custom table can
 * reproduce with {@link #with(QuantSpec)}. Every quant inherits the DSA floor cc 9.0; nvfp4 needs
 * Blackwell, cc 10.0.
 *
 * @since 0.1
 */
public final class QuantTable {

	private final Map<String, QuantSpec> byName;

	private QuantTable(Map<String, QuantSpec> byName) {
		this.byName = byName;
	}

	/**
	 * fak's preference order fp8, nvfp4, w4afp8, int4, then bf16 (which is never recommended:
	 * wherever bf16 fits, fp8 fits first), and f16 (GGUF's half precision, as llama.cpp runs it; never recommended either).
	 */
	public static QuantTable defaults() {
		return of(List.of(
				new QuantSpec("fp8", 1.0, 9.0),
				new QuantSpec("nvfp4", 0.5, 10.0),
				new QuantSpec("w4afp8", 0.5, 9.0),
				new QuantSpec("int4", 0.5, 9.0),
				new QuantSpec("bf16", 2.0, 9.0),
				new QuantSpec("f16", 2.0, 9.0)));
	}

	/** A table over {@code specs}; their order is the preference order. */
	public static QuantTable of(List<QuantSpec> specs) {
		Map<String, QuantSpec> map = new LinkedHashMap<>();
		for (QuantSpec spec : specs) {
			map.put(spec.name(), spec);
		}
		return new QuantTable(map);
	}

	/** This table with {@code spec} added or replaced, keeping its preference position. */
	public QuantTable with(QuantSpec spec) {
		List<QuantSpec> specs = new ArrayList<>(byName.values());
		specs.replaceAll(s -> s.name().equals(spec.name()) ? spec : s);
		if (!byName.containsKey(spec.name())) {
			specs.add(spec);
		}
		return of(specs);
	}

	/** The spec of {@code quant}, failing with the known names when it is unknown. */
	public QuantSpec require(String quant) {
		QuantSpec spec = byName.get(quant);
		if (spec == null) {
			throw new IllegalArgumentException("Unknown quant [" + quant + "]: expected one of "
					+ String.join(", ", byName.keySet()) + ".");
		}
		return spec;
	}

	/**
	 * The first quant, in preference order, whose total requirement fits {@code totalVramGb} and
	 * whose floor {@code cc} clears; with an unknown {@code cc} the floor is not applied (the
	 * fak's rule, so a planner still sees what would fit).
	 */
	public Optional<String> recommended(double paramsBillions, double kvOverhead, double totalVramGb, Double cc) {
		for (QuantSpec spec : byName.values()) {
			if (cc != null && !spec.runsOn(cc)) {
				continue;
			}
			if (totalVramGb >= VramMath.requiredTotalGb(spec.weightsGb(paramsBillions), kvOverhead)) {
				return Optional.of(spec.name());
			}
		}
		return Optional.empty();
	}
}
