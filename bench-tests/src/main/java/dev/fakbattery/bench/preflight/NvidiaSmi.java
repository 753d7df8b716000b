package dev.fakbattery.bench.preflight;

import java.util.List;

import dev.fakbattery.core.process.CommandResult;
import dev.fakbattery.core.process.CommandRunner;

/**
 * Reads the node's GPUs with nvidia-smi, the way fak's preflight does: the four-column query
 * first, the three-column query when the driver does not know {@code compute_cap}.
 *
 * @since 0.1
 */
public final class NvidiaSmi {

	/** The query the preflight runs: {@code nvidia-smi --query-gpu=index,name,memory.total,compute_cap --format=csv,noheader,nounits}. */
	public static final List<String> QUERY_COMMAND = List.of("nvidia-smi",
			"--query-gpu=index,name,memory.total,compute_cap", "--format=csv,noheader,nounits");

	/** The query for drivers without {@code compute_cap}; the name map then supplies it. */
	public static final List<String> FALLBACK_COMMAND = List.of("nvidia-smi",
			"--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits");

	/** Detail of {@link SmiStatus#UNAVAILABLE}, fak's text: {@value}. */
	public static final String NOT_FOUND = "nvidia-smi not found";

	private NvidiaSmi() {
	}

	/** Runs the query through {@code runner} and parses what it printed. */
	public static NvidiaSmiReading read(CommandRunner runner) {
		CommandResult result = runner.run(QUERY_COMMAND);
		if (result.exitCode() == CommandResult.NOT_STARTED) {
			return NvidiaSmiReading.unavailable(NOT_FOUND);
		}
		if (result.succeeded()) {
			return NvidiaSmiReading.parse(result.stdout(), true);
		}
		CommandResult fallback = runner.run(FALLBACK_COMMAND);
		if (fallback.succeeded()) {
			return NvidiaSmiReading.parse(fallback.stdout(), false);
		}
		return NvidiaSmiReading.error(fallback.stderr().isBlank() ? result.stderr() : fallback.stderr());
	}
}
