package dev.fakbattery.bench.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import com.github.dockerjava.api.model.DeviceRequest;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

/**
 * What the engine container is, as a plain value: no Docker, no GPU needed to build or read it.
 *
 * <p>Built from the configuration by {@link #from(HarnessConfig)}; started by
 * {@link EngineContainers}. It holds the NAME of the variable with the Hugging Face token, never the
 * token: {@link #containerEnv(Function)} reads the value at start, and {@link #describe()} and
 * {@link #toString()} print {@code HF_TOKEN=<from $NAME>}.
 *
 * <h2>Example</h2>
 * <pre>
 * EngineContainerSpec spec = EngineContainerSpec.from(config);
 * spec.commandLine(); // [--model, Qwen/Qwen2.5-7B-Instruct, --served-model-name, qwen, --port, 8000, ...]
 * spec.describe();    // docker run --gpus all --shm-size 16g -p 8000 vllm/vllm-openai:v0.11.0 --model ...
 * </pre>
 *
 * @param image the pinned image reference
 * @param engine {@code vllm}, {@code sglang} or {@code llamacpp}
 * @param entrypoint the entrypoint to set; empty keeps the image's own (vLLM)
 * @param args the arguments after the entrypoint
 * @param port the container port the engine listens on, {@value #PORT}
 * @param gpus whether the container gets every GPU of the node ({@code --gpus all}); false for llama.cpp on the CPU
 * @param sharedMemoryBytes {@code /dev/shm} size, {@value #SHARED_MEMORY_BYTES} bytes (16 GiB, for tensor
 *        parallelism) with GPUs; 0 keeps Docker's default
 * @param healthPath the path that answers 200 once the model is loaded, {@value #HEALTH_PATH}
 * @param startupTimeout how long the health check may take after the container started
 * @param pullTimeout how long a pull may take when the image is not on the Docker engine
 * @param logDirectory where the container's output is written, a file per container
 * @param hfTokenEnv the NAME of the environment variable holding the Hugging Face token, if any
 * @param cpuset the CPUs the container may run on, a Docker cpuset ({@code --cpuset-cpus}); empty: every CPU
 * @since 0.1
 */
public record EngineContainerSpec(String image, String engine, List<String> entrypoint, List<String> args, int port,
		boolean gpus, long sharedMemoryBytes, String healthPath, Duration startupTimeout, Duration pullTimeout,
		java.nio.file.Path logDirectory, Optional<String> hfTokenEnv, Optional<String> cpuset) {

	/** Container port the engine listens on. */
	public static final int PORT = 8000;

	/** Shared memory of the container: 16 GiB, enough for NCCL between tensor-parallel ranks. */
	public static final long SHARED_MEMORY_BYTES = 16L * 1024 * 1024 * 1024;

	/** Health path of both engines. */
	public static final String HEALTH_PATH = "/health";

	/** Variable name the engines read the Hugging Face token from, inside the container. */
	public static final String HF_TOKEN = "HF_TOKEN";

	public EngineContainerSpec {
		Objects.requireNonNull(image);
		Objects.requireNonNull(engine);
		entrypoint = List.copyOf(entrypoint);
		args = List.copyOf(args);
		Objects.requireNonNull(healthPath);
		Objects.requireNonNull(startupTimeout);
		Objects.requireNonNull(pullTimeout);
		Objects.requireNonNull(logDirectory);
		Objects.requireNonNull(hfTokenEnv);
		Objects.requireNonNull(cpuset);
	}

	/**
	 * The container {@code engine.image} describes, from {@code engine}, {@code model},
	 * {@code checkpoint.model}, {@code engine.tool.parser}, {@code context.length} (only when set),
	 * {@code engine.tp}, {@code engine.startup.timeout.sec}, {@code engine.pull.timeout.sec},
	 * {@code experiments.dir} (the logs), {@code engine.hf.token.env} and {@code engine.cpuset}.
	 *
	 * @throws ConfigurationException when {@code engine.image} or {@code model} is unset or
	 *         a value is bad; the message names the parameter and the fix
	 */
	public static EngineContainerSpec from(HarnessConfig config) {
		EngineSettings settings = EngineSettings.from(config);
		ContainerRecipe dialect = settings.dialect();
		return new EngineContainerSpec(settings.image(), dialect.id(), dialect.entrypoint(), dialect.args(settings, PORT),
				PORT, dialect.gpus(), dialect.gpus() ? SHARED_MEMORY_BYTES : 0, HEALTH_PATH, settings.startupTimeout(),
				settings.pullTimeout(), settings.logDirectory(), settings.hfTokenEnv(), settings.cpuset());
	}

	/** The process the container runs: entrypoint (when set) then arguments. */
	public List<String> commandLine() {
		List<String> line = new ArrayList<>(entrypoint);
		line.addAll(args);
		return List.copyOf(line);
	}

	/** All GPUs of the node, like {@code docker run --gpus all}. */
	public DeviceRequest deviceRequest() {
		return new DeviceRequest().withCount(-1).withCapabilities(List.of(List.of("gpu")));
	}

	/**
	 * What the launcher hands the container: {@code HF_TOKEN} with the value of the variable named by
	 * {@code engine.hf.token.env}, or nothing when that is unset. The only place the token is read; the
	 * Testcontainers launcher copies it in as a file, never into the container's environment.
	 *
	 * @param environment the JVM's environment ({@code System::getenv}), a map in tests
	 * @throws ConfigurationException when the named variable is unset or empty
	 */
	public Map<String, String> containerEnv(Function<String, String> environment) {
		if (hfTokenEnv.isEmpty()) {
			return Map.of();
		}
		String name = hfTokenEnv.get();
		String token = environment.apply(name);
		if (token == null || token.isBlank()) {
			throw new ConfigurationException("engine.hf.token.env names the environment variable " + name
					+ ", which is not set (or empty) in this JVM's environment. Fix: export " + name
					+ "=<your Hugging Face token> before ./mvnw, or remove -Dengine.hf.token.env for a public checkpoint.");
		}
		return Map.of(HF_TOKEN, token);
	}

	/** An equivalent {@code docker run} command; the token shows as {@code HF_TOKEN=<from $NAME>}. */
	public String describe() {
		List<String> words = new ArrayList<>(List.of("docker", "run"));
		if (gpus) {
			words.addAll(List.of("--gpus", "all"));
		}
		if (sharedMemoryBytes > 0) {
			words.addAll(List.of("--shm-size",
					sharedMemoryBytes % (1L << 30) == 0 ? sharedMemoryBytes / (1L << 30) + "g" : String.valueOf(sharedMemoryBytes)));
		}
		cpuset.ifPresent(cpus -> words.addAll(List.of("--cpuset-cpus", cpus)));
		words.addAll(List.of("-p", String.valueOf(port)));
		hfTokenEnv.ifPresent(name -> words.addAll(List.of("-e", HF_TOKEN + "=<from $" + name + ">")));
		if (!entrypoint.isEmpty()) {
			words.addAll(List.of("--entrypoint", quoted(entrypoint.get(0))));
		}
		words.add(quoted(image));
		entrypoint.stream().skip(1).map(EngineContainerSpec::quoted).forEach(words::add);
		args.stream().map(EngineContainerSpec::quoted).forEach(words::add);
		return String.join(" ", words);
	}

	/** {@link #describe()} and the health wait; never the token. */
	@Override
	public String toString() {
		return describe() + " (ready when GET " + healthPath + " answers 200, within " + startupTimeout.toSeconds() + " s)";
	}

	private static String quoted(String word) {
		boolean plain = !word.isEmpty() && word.chars().noneMatch(c -> Character.isWhitespace(c) || c == '\'' || c == '"');
		return plain ? word : "'" + word.replace("'", "'\\''") + "'";
	}
}
