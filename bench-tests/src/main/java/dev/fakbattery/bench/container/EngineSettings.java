package dev.fakbattery.bench.container;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

/**
 * The configuration names of the engine container, read and validated in one place. A bad value
 * is a misconfiguration ({@link ConfigurationException}) that names the parameter and the
 * fix; the Hugging Face token variable's value is never echoed.
 *
 * @param image the pinned image reference ({@code engine.image})
 * @param dialect the engine ({@code engine})
 * @param model the served model name ({@code model})
 * @param checkpoint the checkpoint the engine loads ({@code checkpoint.model}, default {@code model})
 * @param toolParser the tool-call parser ({@code engine.tool.parser})
 * @param tensorParallel the tensor-parallel size ({@code engine.tp})
 * @param contextLength the context length, only when {@code context.length} is set
 * @param startupTimeout how long {@code /health} may take ({@code engine.startup.timeout.sec})
 * @param pullTimeout how long a pull of an image that is not on the Docker engine may take ({@code engine.pull.timeout.sec})
 * @param logDirectory where the container's output is written, a file per container ({@code experiments.dir/logs})
 * @param hfTokenEnv the NAME of the variable holding the Hugging Face token ({@code engine.hf.token.env})
 * @param cpuset the CPUs the container may run on, a Docker cpuset ({@code engine.cpuset}); empty: every CPU
 */
record EngineSettings(String image, ContainerRecipe dialect, String model, String checkpoint, String toolParser,
		int tensorParallel, OptionalInt contextLength, Duration startupTimeout, Duration pullTimeout, java.nio.file.Path logDirectory,
		Optional<String> hfTokenEnv, Optional<String> cpuset) {

	private static final Pattern CPUSET = Pattern.compile("(\\d{1,4})(?:-(\\d{1,4}))?");

	private static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@+-]*");
	private static final Pattern PARSER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
	private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	static EngineSettings from(HarnessConfig config) {
		String image = image(config);
		ContainerRecipe dialect = ContainerRecipe.of(config.engine());
		String model = model(config);
		String checkpoint = modelLike(config, HarnessConstants.CHECKPOINT_MODEL).orElse(model);
		String parser = toolParser(config, dialect);
		int tp = config.get(ConfigKeys.ENGINE_TP);
		OptionalInt context = config.find(ConfigKeys.CONTEXT_LENGTH).map(OptionalInt::of).orElse(OptionalInt.empty());
		Duration timeout = Duration.ofSeconds(
				config.get(ConfigKeys.ENGINE_STARTUP_TIMEOUT_SEC));
		Duration pull = Duration.ofSeconds(config.get(ConfigKeys.ENGINE_PULL_TIMEOUT_SEC));
		return new EngineSettings(image, dialect, model, checkpoint, parser, tp, context, timeout, pull,
				config.experimentsDir().resolve("logs"), hfTokenEnv(config), cpuset(config));
	}

	/** How many CPUs the container may use: those of {@code engine.cpuset}, else {@code ifUnset}. */
	int cpus(int ifUnset) {
		return cpuset.map(set -> cpus(set).size()).orElse(ifUnset);
	}

	/**
	 * The CPUs a Docker cpuset names ({@code 0-2,5} is 0, 1, 2, 5), or a {@link ConfigurationException} naming
	 * {@code engine.cpuset} and the fix when it is not one.
	 */
	static java.util.SortedSet<Integer> cpus(String cpuset) {
		java.util.SortedSet<Integer> cpus = new java.util.TreeSet<>();
		for (String part : cpuset.split(",", -1)) {
			java.util.regex.Matcher range = CPUSET.matcher(part);
			int first = range.matches() ? Integer.parseInt(range.group(1)) : -1;
			int last = first < 0 ? -1 : range.group(2) == null ? first : Integer.parseInt(range.group(2));
			if (first < 0 || last < first) {
				throw new ConfigurationException("Unable to parse engine.cpuset value [" + cpuset
						+ "]: expected a Docker cpuset, CPU numbers and ascending ranges separated by commas (1, 2-7, 0,2). "
						+ "Fix: pass -Dengine.cpuset=1 (one core for the engine) or remove it to let the engine use every CPU.");
			}
			for (int cpu = first; cpu <= last; cpu++) {
				cpus.add(cpu);
			}
		}
		return cpus;
	}

	private static Optional<String> cpuset(HarnessConfig config) {
		Optional<String> cpuset = config.string(HarnessConstants.ENGINE_CPUSET);
		cpuset.ifPresent(EngineSettings::cpus);
		return cpuset;
	}

	private static String image(HarnessConfig config) {
		String image = config.string(HarnessConstants.ENGINE_IMAGE)
				.orElseThrow(() -> new ConfigurationException(
						"engine.image is not set: there is no engine container to start. Fix: pass "
								+ "-Dengine.image=vllm/vllm-openai:v0.11.0 (or an lmsysorg/sglang:<tag> image with -Dengine=sglang)."));
		if (!IMAGE.matcher(image).matches()) {
			throw new ConfigurationException("Unable to parse engine.image value [" + image
					+ "]: expected a Docker image reference. Fix: pass -Dengine.image=vllm/vllm-openai:v0.11.0 "
					+ "or remove it and pass -Dbase.url of an engine you started.");
		}
		String name = image.substring(image.lastIndexOf('/') + 1);
		if (!image.contains("@") && (!name.contains(":") || name.endsWith(":latest"))) {
			throw new ConfigurationException("engine.image value [" + image
					+ "] is not pinned: an artifact must name the engine build it measured. Fix: pass a version tag or "
					+ "digest, for example -Dengine.image=vllm/vllm-openai:v0.11.0 (not :latest).");
		}
		return image;
	}

	private static String model(HarnessConfig config) {
		return modelLike(config, HarnessConstants.MODEL).orElseThrow(() -> new ConfigurationException(
				"engine.image is set but model is not: the container needs the served model name. Fix: pass "
						+ "-Dmodel=<served name> and, when the checkpoint differs, -Dcheckpoint.model=<Hugging Face id or path>."));
	}

	private static Optional<String> modelLike(HarnessConfig config, String name) {
		Optional<String> value = config.string(name);
		if (value.isPresent() && value.get().startsWith("-")) {
			throw new ConfigurationException("Unable to parse " + name + " value [" + value.get()
					+ "]: expected a model name or path, not a flag. Fix: pass -D" + name + "=Qwen/Qwen2.5-7B-Instruct.");
		}
		return value;
	}

	private static String toolParser(HarnessConfig config, ContainerRecipe dialect) {
		String parser = config.string(HarnessConstants.ENGINE_TOOL_PARSER, dialect.defaultToolParser());
		if (!PARSER.matcher(parser).matches()) {
			throw new ConfigurationException("Unable to parse engine.tool.parser value [" + parser
					+ "]: expected one parser name (letters, digits, '.', '_', '-'). Fix: pass -Dengine.tool.parser="
					+ dialect.defaultToolParser()
					+ " or remove it to use the default (hermes for vllm, qwen25 for sglang; llama.cpp has none).");
		}
		return parser;
	}

	private static Optional<String> hfTokenEnv(HarnessConfig config) {
		Optional<String> name = config.string(HarnessConstants.ENGINE_HF_TOKEN_ENV);
		if (name.isPresent() && (!ENV_NAME.matcher(name.get()).matches() || name.get().startsWith("hf_"))) {
			throw new ConfigurationException("engine.hf.token.env must be the NAME of an environment variable "
					+ "(letters, digits and '_'), not the token; its value is not printed. Fix: export HF_TOKEN=<token> "
					+ "and pass -Dengine.hf.token.env=HF_TOKEN.");
		}
		return name;
	}
}
