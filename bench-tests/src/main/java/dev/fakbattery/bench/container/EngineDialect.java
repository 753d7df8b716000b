package dev.fakbattery.bench.container;

import java.util.ArrayList;
import java.util.List;

/**
 * How each engine image is started: its entrypoint, its flag names and its default tool-call
 * parser. The flag names are the engines' own (vLLM {@code --model}, {@code --max-model-len},
 * {@code --tensor-parallel-size}; SGLang {@code --model-path}, {@code --context-length},
 * {@code --tp-size}); parser names are not portable between the two.
 */
enum EngineDialect {

	/** {@code vllm/vllm-openai}: the image's own entrypoint serves, the flags are its arguments. */
	VLLM("vllm", "hermes", List.of()) {
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
	SGLANG("sglang", "qwen25", List.of("python3", "-m", "sglang.launch_server")) {
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

	private final String id;
	private final String defaultToolParser;
	private final List<String> entrypoint;

	EngineDialect(String id, String defaultToolParser, List<String> entrypoint) {
		this.id = id;
		this.defaultToolParser = defaultToolParser;
		this.entrypoint = entrypoint;
	}

	/** The dialect named by {@code engine} ({@code vllm} or {@code sglang}, already validated). */
	static EngineDialect of(String id) {
		for (EngineDialect dialect : values()) {
			if (dialect.id.equals(id)) {
				return dialect;
			}
		}
		throw new IllegalArgumentException("unknown engine " + id);
	}

	String id() {
		return id;
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
