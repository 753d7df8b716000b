package dev.fakbattery.bench.container;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;

/** Configurations over a map, for the container tests. */
final class Configs {

	static final String VLLM_IMAGE = "vllm/vllm-openai:v0.11.0";
	static final String SGLANG_IMAGE = "lmsysorg/sglang:v0.5.4";

	private Configs() {
	}

	/** {@code name=value} pairs. */
	static HarnessConfig of(String... pairs) {
		Map<String, String> values = new HashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			values.put(pairs[i], pairs[i + 1]);
		}
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	/** A vLLM container config with {@code extra} pairs added (later pairs win). */
	static HarnessConfig vllm(String... extra) {
		return of(concat(new String[]{ "engine.image", VLLM_IMAGE, "model", "qwen" }, extra));
	}

	static String[] concat(String[] first, String[] second) {
		String[] all = new String[first.length + second.length];
		System.arraycopy(first, 0, all, 0, first.length);
		System.arraycopy(second, 0, all, first.length, second.length);
		return all;
	}
}
