package dev.fakbattery.gateway;

import java.util.Locale;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The engine behind the upstream URL: where its prefix cache is reset after a quarantine, and how its non-stream
 * message looks when it carries no tool call.
 *
 * @since 0.1
 */
public enum Engine {

	/** vLLM: {@code POST /reset_prefix_cache}; a message without calls has no {@code tool_calls} key. */
	VLLM("vllm", "/reset_prefix_cache"),

	/** SGLang: {@code POST /flush_cache}; a message without calls has {@code "tool_calls":null}. */
	SGLANG("sglang", "/flush_cache");

	private final String wireName;

	private final String cacheResetPath;

	Engine(String wireName, String cacheResetPath) {
		this.wireName = wireName;
		this.cacheResetPath = cacheResetPath;
	}

	/**
	 * The engine named {@code vllm} or {@code sglang} (any case).
	 *
	 * @throws IllegalArgumentException naming the value for anything else
	 */
	public static Engine parse(String name) {
		for (Engine engine : values()) {
			if (engine.wireName.equals(name == null ? null : name.toLowerCase(Locale.ROOT))) {
				return engine;
			}
		}
		throw new IllegalArgumentException("engine [" + name + "] must be vllm or sglang");
	}

	/** {@code vllm} or {@code sglang}, as in {@code /healthz} and on the command line. */
	public String wireName() {
		return wireName;
	}

	/** The path, under the server root (the upstream URL without {@code /v1}), that resets the prefix cache. */
	public String cacheResetPath() {
		return cacheResetPath;
	}

	/** Leaves {@code message} the way this engine writes a message that has no tool call. */
	void clearToolCalls(ObjectNode message) {
		if (this == SGLANG) {
			message.putNull("tool_calls");
		}
		else {
			message.remove("tool_calls");
		}
	}
}
