package dev.fakbattery.bench.preflight;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.fakbattery.core.process.CommandResult;

/**
 * Whether a serving engine imports in the node's Python, and its version: one entry of
 * {@code engine_probes}.
 *
 * @param present whether {@code import <engine>} succeeded
 * @param version the engine's {@code __version__}, {@code ""} when absent
 * @param detail why the import failed (stderr, at most 200 characters), {@code ""} when present
 * @since 0.1
 */
public record EngineProbe(boolean present, String version, String detail) {

	/** Longest failure detail kept, like fak: {@value} characters. */
	static final int MAX_DETAIL = 200;

	private static final Pattern MODULE = Pattern.compile("[a-z_][a-z0-9_]*");

	public EngineProbe {
		Objects.requireNonNull(version, "version");
		Objects.requireNonNull(detail, "detail");
	}

	/**
	 * The import probe: {@code <python> -c "import vllm,sys; print(vllm.__version__)"}.
	 *
	 * @param engine a Python module name such as {@code vllm} or {@code sglang}
	 */
	public static List<String> command(String python, String engine) {
		if (!MODULE.matcher(engine).matches()) {
			throw new IllegalArgumentException("Engine [" + engine + "] is not a Python module name: expected "
					+ MODULE.pattern() + ", for example vllm.");
		}
		return List.of(python, "-c", "import " + engine + ",sys; print(" + engine + ".__version__)");
	}

	/** The probe's outcome from the result of {@link #command(String, String)}. */
	public static EngineProbe fromImport(CommandResult result) {
		if (result.succeeded()) {
			String out = result.stdout().strip();
			return new EngineProbe(true, out.isEmpty() ? "" : out.lines().findFirst().orElse(""), "");
		}
		String err = result.stderr().strip();
		return new EngineProbe(false, "", err.length() > MAX_DETAIL ? err.substring(0, MAX_DETAIL) : err);
	}
}
