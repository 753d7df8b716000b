package dev.fakbattery.bench.container;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.wire.Dialect;

/**
 * How the engine image of each {@link Dialect} is started: its entrypoint, its flag names, its default tool-call
 * parser and whether it needs the GPUs. The flag names are the engines' own (vLLM {@code --model},
 * {@code --max-model-len}, {@code --tensor-parallel-size}; SGLang {@code --model-path}, {@code --context-length},
 * {@code --tp-size}; llama.cpp {@code -m}, {@code -c}); parser names are not portable between them.
 */
enum ContainerRecipe {

	/** {@code vllm/vllm-openai}: the image's own entrypoint serves, the flags are its arguments. */
	VLLM(Dialect.VLLM, "hermes", List.of(), true) {
		@Override
		List<String> args(EngineSettings settings, int port) {
			List<String> args = new ArrayList<>(List.of("--model", settings.checkpoint(), "--served-model-name",
					settings.model(), "--port", String.valueOf(port), "--host", "0.0.0.0", "--enable-auto-tool-choice",
					"--tool-call-parser", settings.toolParser()));
			settings.contextLength().ifPresent(length -> args.addAll(List.of("--max-model-len", String.valueOf(length))));
			args.addAll(List.of("--tensor-parallel-size", String.valueOf(settings.tensorParallel())));
			return List.copyOf(args);
		}
	},

	/** {@code lmsysorg/sglang}: the image does not serve by itself, so the launcher is the entrypoint. */
	SGLANG(Dialect.SGLANG, "qwen25", List.of("python3", "-m", "sglang.launch_server"), true) {
		@Override
		List<String> args(EngineSettings settings, int port) {
			List<String> args = new ArrayList<>(List.of("--model-path", settings.checkpoint(), "--served-model-name",
					settings.model(), "--port", String.valueOf(port), "--host", "0.0.0.0", "--tool-call-parser",
					settings.toolParser()));
			settings.contextLength().ifPresent(length -> args.addAll(List.of("--context-length", String.valueOf(length))));
			args.addAll(List.of("--tp-size", String.valueOf(settings.tensorParallel())));
			return List.copyOf(args);
		}
	},

	/**
	 * llama.cpp's {@code llama-server} on the CPU, as {@code -Pcontainer} builds it ({@link LlamaCppImage}): the
	 * image's entrypoint is the server, the model is under {@value #MODELS} unless {@code checkpoint.model} is an
	 * absolute path; no GPU, Docker's default shared memory. The flags are {@code -Pllamacpp}'s {@code engine.cmd}: 4
	 * slots of {@code context.length} tokens each, one compute thread per CPU of {@code engine.cpuset} (one when it is unset:
	 * the 2-core machines this profile was made for), Prometheus metrics, slot erase allowed and no
	 * host prompt cache. There is no tool-call parser to name ({@code --jinja} reads calls through the model's chat
	 * template) and no tensor parallelism.
	 */
	LLAMACPP(Dialect.LLAMACPP, "jinja", List.of(), false) {
		@Override
		List<String> args(EngineSettings settings, int port) {
			String checkpoint = settings.checkpoint();
			List<String> args = new ArrayList<>(List.of("-m", checkpoint.startsWith("/") ? checkpoint : MODELS + "/" + checkpoint,
					"--host", "0.0.0.0", "--port", String.valueOf(port), "-a", settings.model()));
			settings.contextLength().ifPresent(length -> args.addAll(List.of("-c", String.valueOf(SLOTS * length))));
			args.addAll(List.of("-np", String.valueOf(SLOTS), "-t", String.valueOf(settings.cpus(1)), "--jinja", "--no-webui", "--metrics",
					"--slot-save-path",
					SLOT_DIR, "--cache-ram", "0"));
			return List.copyOf(args);
		}
	};

	/** Where a llama.cpp image keeps its models. */
	static final String MODELS = "/models";

	/** The llama.cpp image's folder for {@code --slot-save-path}. */
	static final String SLOT_DIR = "/slots";

	/** llama.cpp's parallel slots ({@code -np}); the context is {@code -c} = slots x {@code context.length}. */
	static final int SLOTS = 4;

	private final Dialect dialect;
	private final String defaultToolParser;
	private final List<String> entrypoint;
	private final boolean gpus;

	ContainerRecipe(Dialect dialect, String defaultToolParser, List<String> entrypoint, boolean gpus) {
		this.dialect = dialect;
		this.defaultToolParser = defaultToolParser;
		this.entrypoint = entrypoint;
		this.gpus = gpus;
	}

	/** The recipe of {@code dialect}: every dialect has one. */
	static ContainerRecipe of(Dialect dialect) {
		return switch (dialect) {
			case VLLM -> VLLM;
			case SGLANG -> SGLANG;
			case LLAMACPP -> LLAMACPP;
		};
	}

	String id() {
		return dialect.id();
	}

	String defaultToolParser() {
		return defaultToolParser;
	}

	/** Whether the container gets every GPU of the node and 16 GiB of shared memory (vLLM, SGLang) or neither (llama.cpp). */
	boolean gpus() {
		return gpus;
	}

	/** The entrypoint to set; empty keeps the image's own. */
	List<String> entrypoint() {
		return entrypoint;
	}

	/** The arguments after the entrypoint. */
	abstract List<String> args(EngineSettings settings, int port);
}
