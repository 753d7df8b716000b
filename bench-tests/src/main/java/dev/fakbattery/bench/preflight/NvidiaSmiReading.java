package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code nvidia_smi} section of the preflight: status, detail and the GPU rows.
 *
 * @param status what reading nvidia-smi found
 * @param detail why it is not {@link SmiStatus#OK}, {@code ""} otherwise
 * @param gpus the parsed rows, in nvidia-smi order
 * @since 0.1
 */
public record NvidiaSmiReading(SmiStatus status, String detail, List<GpuRow> gpus) {

	/** fak's {@code nvidia_smi.source}: {@value}. */
	public static final String SOURCE = "nvidia-smi";

	/** Longest error detail kept, like fak: {@value} characters. */
	static final int MAX_DETAIL = 500;

	public NvidiaSmiReading {
		Objects.requireNonNull(status, "status");
		Objects.requireNonNull(detail, "detail");
		gpus = List.copyOf(gpus);
	}

	/** nvidia-smi is absent; fak's detail is {@code nvidia-smi not found}. */
	public static NvidiaSmiReading unavailable(String detail) {
		return new NvidiaSmiReading(SmiStatus.UNAVAILABLE, detail, List.of());
	}

	/** nvidia-smi ran and failed; {@code stderr} is trimmed and cut to 500 characters. */
	public static NvidiaSmiReading error(String stderr) {
		String trimmed = stderr.strip();
		return new NvidiaSmiReading(SmiStatus.ERROR,
				trimmed.length() > MAX_DETAIL ? trimmed.substring(0, MAX_DETAIL) : trimmed, List.of());
	}

	/**
	 * Parses {@code csv,noheader,nounits} output of {@link NvidiaSmi#QUERY_COMMAND} (four columns)
	 * or of {@link NvidiaSmi#FALLBACK_COMMAND} (three columns, no compute capability). Lines with
	 * fewer columns are skipped; a {@code N/A} compute capability becomes {@code ""}.
	 */
	public static NvidiaSmiReading parse(String stdout, boolean withComputeCap) {
		List<GpuRow> rows = new ArrayList<>();
		for (String line : stdout.split("\\R")) {
			String[] parts = line.split(",", -1);
			if (parts.length < 3 || line.isBlank()) {
				continue;
			}
			String cc = withComputeCap && parts.length >= 4 ? parts[3].trim() : "";
			if (cc.toUpperCase(Locale.ROOT).contains("N/A")) {
				cc = "";
			}
			rows.add(new GpuRow(parts[0].trim(), parts[1].trim(), mebibytes(parts[2]), cc));
		}
		return new NvidiaSmiReading(rows.isEmpty() ? SmiStatus.EMPTY : SmiStatus.OK,
				rows.isEmpty() ? "nvidia-smi printed no GPU row" : "", rows);
	}

	private static Double mebibytes(String raw) {
		try {
			return Double.parseDouble(raw.trim());
		}
		catch (NumberFormatException e) {
			return null;
		}
	}
}
