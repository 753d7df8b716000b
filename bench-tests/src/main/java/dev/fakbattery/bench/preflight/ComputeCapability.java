package dev.fakbattery.bench.preflight;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * CUDA compute capability of a GPU by name, for drivers whose nvidia-smi does not report
 * {@code compute_cap}, and the architecture label of a capability.
 *
 * <p>Names are matched by case-insensitive substring, first hit wins, so the more specific names
 * come first ({@code gb200} before {@code b200}, {@code a100} before {@code a10}, {@code l40s}
 * before {@code l40} before {@code l4}).
 *
 * @since 0.1
 */
public final class ComputeCapability {

	/** The DSA kernel floor of the stock engines (Hopper sm_90): {@value}. */
	public static final double DSA_STOCK_FLOOR_CC = 9.0;

	/** The only sub-floor architecture with a (community, not stock) DSA port, Ada: {@value}. */
	public static final double ADA_CC = 8.9;

	private record Entry(String needle, double cc) {
	}

	private static final List<Entry> BY_NAME = List.of(
			new Entry("gb300", 10.0), new Entry("gb200", 10.0), new Entry("b300", 10.0),
			new Entry("b200", 10.0), new Entry("b100", 10.0),
			new Entry("gh200", 9.0), new Entry("h200", 9.0), new Entry("h100", 9.0), new Entry("h800", 9.0),
			new Entry("a100", 8.0), new Entry("a800", 8.0), new Entry("a40", 8.6), new Entry("a30", 8.0),
			new Entry("a10", 8.6),
			new Entry("l40s", 8.9), new Entry("l40", 8.9), new Entry("l4", 8.9),
			new Entry("rtx 4090", 8.9), new Entry("rtx 4080", 8.9), new Entry("4090", 8.9), new Entry("ada", 8.9),
			new Entry("rtx 3090", 8.6), new Entry("rtx 3080", 8.6), new Entry("3090", 8.6),
			new Entry("v100", 7.0), new Entry("t4", 7.5));

	private ComputeCapability() {
	}

	/** The compute capability of a GPU named {@code name}, or empty when the name is unknown. */
	public static Optional<Double> fromName(String name) {
		String text = name == null ? "" : name.toLowerCase(Locale.ROOT);
		return BY_NAME.stream().filter(e -> text.contains(e.needle())).map(Entry::cc).findFirst();
	}

	/** fak's architecture label: {@code unknown}, {@code Hopper (sm_90)}, {@code Blackwell (sm_100)} ... */
	public static String archLabel(Double cc) {
		if (cc == null) {
			return "unknown";
		}
		if (cc >= 10.0) {
			return "Blackwell (sm_100)";
		}
		if (cc >= 9.0) {
			return "Hopper (sm_90)";
		}
		if (cc == ADA_CC) {
			return "Ada (sm_89)";
		}
		if (cc >= 8.0) {
			return "Ampere (sm_80/86)";
		}
		if (cc >= 7.0) {
			return "Volta/Turing (sm_70/75)";
		}
		return "sm_" + (int) Math.round(cc * 10);
	}
}
