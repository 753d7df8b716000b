package dev.fakbattery.bench.swebench;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

/**
 * What a SWE-bench-20 compare run must have been run with: the run contract's shared config.
 *
 * @param checkpointModel the checkpoint the engine served, for example {@code zai-org/GLM-5.2-FP8}
 * @param servedModelName the served name, for example {@code glm-5.2}
 * @param engine the raw engine, {@code vllm}; the raw arm is {@code raw-<engine>}
 * @param verifiedCount the slice size, 20
 * @param rawBaseUrl the raw engine's {@code /v1} URL
 * @param requireGpuName the GPU name the compare preflight had to see, if any
 * @since 0.1
 */
public record CompareExpectation(String checkpointModel, String servedModelName, String engine, int verifiedCount,
		String rawBaseUrl, Optional<String> requireGpuName) {

	/** The gateway arm: {@value}. */
	public static final String GATEWAY_ARM = "fak-gateway";

	private static final Pattern SLICE = Pattern.compile("slice 0:(\\d{1,6})");

	public CompareExpectation {
		Objects.requireNonNull(checkpointModel, "checkpointModel");
		Objects.requireNonNull(servedModelName, "servedModelName");
		Objects.requireNonNull(engine, "engine");
		rawBaseUrl = stripSlash(Objects.requireNonNull(rawBaseUrl, "rawBaseUrl"));
		requireGpuName = requireGpuName.filter(s -> !s.isBlank());
		if (verifiedCount <= 0) {
			throw new IllegalArgumentException("verified count must be positive: " + verifiedCount);
		}
	}

	/** fak's run contract: GLM-5.2-FP8 as glm-5.2 on vLLM, 20 tasks, raw at :8000, H200. */
	public static CompareExpectation seed() {
		return new CompareExpectation("zai-org/GLM-5.2-FP8", "glm-5.2", "vllm", 20, "http://127.0.0.1:8000/v1",
				Optional.of("H200"));
	}

	/**
	 * The expectation of the battery configuration: {@link HarnessConstants#CHECKPOINT_MODEL}
	 * (default {@code zai-org/GLM-5.2-FP8}), {@link HarnessConstants#MODEL} (default
	 * {@code glm-5.2}), {@link HarnessConstants#ENGINE}, {@link HarnessConstants#SELECTION} (seed
	 * syntax {@code slice 0:N}, default {@code slice 0:20}) and
	 * {@link HarnessConstants#GPU_NAME_REQUIRED}; the raw URL comes from the rung, which records it
	 * as pending when unset.
	 */
	public static CompareExpectation from(HarnessConfig config, URI rawBaseUrl) {
		CompareExpectation seed = seed();
		String selection = config.string(HarnessConstants.SELECTION, seed.selection());
		Matcher slice = SLICE.matcher(selection);
		if (!slice.matches() || Integer.parseInt(slice.group(1)) <= 0) {
			throw new ConfigurationException("Unable to parse " + HarnessConstants.SELECTION + " value ["
					+ selection + "]: expected fak's slice 0:N. Fix: pass -D" + HarnessConstants.SELECTION
					+ "=\"slice 0:20\" or remove it to use the default.");
		}
		return new CompareExpectation(config.string(HarnessConstants.CHECKPOINT_MODEL, seed.checkpointModel()),
				config.string(HarnessConstants.MODEL, seed.servedModelName()), config.engine().id(),
				Integer.parseInt(slice.group(1)), rawBaseUrl.toString(), config.string(HarnessConstants.GPU_NAME_REQUIRED));
	}

	/** {@code raw-vllm} for engine vllm. */
	public String rawArm() {
		return "raw-" + engine;
	}

	/** The two arms, raw first. */
	public List<String> arms() {
		return List.of(rawArm(), GATEWAY_ARM);
	}

	/** fak's selection string: {@code slice 0:20}. */
	public String selection() {
		return "slice 0:" + verifiedCount;
	}

	static String stripSlash(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}
}
