package dev.fakbattery.bench.container;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.wire.Dialect;

/**
 * How the engine image of each {@link Dialect} is started: its entrypoint, its flag names and its default tool-call
 * parser. The flag names are the engines' own (vLLM {@code --model}, {@code --max-model-len},
 * {@code --tensor-parallel-size}; SGLang {@code --model-path}, {@code --context-length},
 * {@code --tp-size}); parser names are not portable between the two.
 */
enum ContainerRecipe {

	/** {@code vllm/vllm-openai}: the image's own entrypoint serves, the flags are its arguments. */
	VLLM(Dialect.VLLM, "hermes", List.of()) {
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
	SGLANG(Dialect.SGLANG, "qwen25", List.of("python3", "-m", "sglang.launch_server")) {
		@Override
		List<String> args(EngineSettings settings, int port) {
			List<String> args = new ArrayList<>(List.of("--model-path", settings.checkpoint(), "--served-model-name",
					settings.model(), "--port", String.valueOf(port), "--host", "0.0.0.0", "--tool-call-parser",
					settings.toolParser()));
			settings.contextLength().ifPresent(length -> args.addAll(List.of("--context-length", String.valueOf(length))));
			args.addAll(List.of("--tp-size", String.valueOf(settings.tensorParallel())));
			return List.copyOf(args);
		}
	};

	private final Dialect dialect;
	private final String defaultToolParser;
	private final List<String> entrypoint;

	ContainerRecipe(Dialect dialect, String defaultToolParser, List<String> entrypoint) {
		this.dialect = dialect;
		this.defaultToolParser = defaultToolParser;
		this.entrypoint = entrypoint;
	}

	/** The recipe of {@code dialect}. */
	static ContainerRecipe of(Dialect dialect) {
		for (ContainerRecipe recipe : values()) {
			if (recipe.dialect == dialect) {
				return recipe;
			}
		}
		throw new ConfigurationException("engine " + dialect + " has no container recipe (engine.image starts vllm or sglang). "
				+ "Fix: start the engine with -Dengine.cmd=\"... --port {port} ...\" or pass -Dbase.url of one you started.");
	}

	String id() {
		return dialect.id();
	}

	String defaultToolParser() {
		return defaultToolParser;
	}

	/** The entrypoint to set; empty keeps the image's own. */
	List<String> entrypoint() {
		return entrypoint;
	}

	/** The arguments after the entrypoint. */
	abstract List<String> args(EngineSettings settings, int port);
}
