package dev.fakbattery.wire;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The OpenAI-compatible wire dialect of an engine: the one type every module uses for "which engine speaks
 * here" (configuration name {@code engine}, the double's {@code --dialect}, the gateway's {@code --engine}).
 * Differences between the dialects are listed in {@code fixtures/wire/NOTES.md}.
 *
 * @since 0.2
 */
public enum Dialect {

	/** vLLM: nested error bodies, {@code chatcmpl-} ids, {@code vllm:} metrics, {@code POST /reset_prefix_cache}; a message without calls has no {@code tool_calls} key. */
	VLLM("/reset_prefix_cache", false),

	/** SGLang: flat error bodies, bare 32-hex ids, {@code sglang:} metrics, {@code POST /flush_cache}; a message without calls has {@code "tool_calls":null}. */
	SGLANG("/flush_cache", true),

	/**
	 * llama.cpp's {@code llama-server}: {@code chatcmpl-} ids with 32 random letters, {@code system_fingerprint}
	 * {@code b<build>-<commit>}, {@code timings} on the last chunk, tool-call ids of 32 random letters, nested error
	 * bodies; a message without calls has no {@code tool_calls} key. It has no prefix-cache reset endpoint: the
	 * closest is erasing every slot's KV cache, {@code POST /slots/<id>?action=erase} for each id of
	 * {@code GET /slots} ({@link #resetsPerSlot()}), which llama-server allows only when started with
	 * {@code --slot-save-path DIR}, and which leaves its host-memory prompt cache alone, so a complete reset also needs
	 * {@code --cache-ram 0}.
	 */
	LLAMACPP("/slots/{id}?action=erase", false);

	private final String cacheResetPath;

	private final boolean nullToolCalls;

	Dialect(String cacheResetPath, boolean nullToolCalls) {
		this.cacheResetPath = cacheResetPath;
		this.nullToolCalls = nullToolCalls;
	}

	/**
	 * The dialect named {@code text}, any case, surrounding blanks ignored.
	 *
	 * @throws IllegalArgumentException naming the value and the accepted names
	 */
	public static Dialect parse(String text) {
		if (text != null) {
			for (Dialect dialect : values()) {
				if (dialect.id().equals(text.strip().toLowerCase(Locale.ROOT))) {
					return dialect;
				}
			}
		}
		throw new IllegalArgumentException("Unable to parse engine dialect [" + text + "]: use one of " + ids());
	}

	/** The accepted names, comma separated. */
	public static String ids() {
		return Arrays.stream(values()).map(Dialect::id).collect(Collectors.joining(", "));
	}

	/** The lower-case name used on command lines, in configuration and in metric prefixes. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** {@link #id()}, so a dialect reads as it is written on the wire and in fixture paths. */
	@Override
	public String toString() {
		return id();
	}

	/**
	 * The path under the server root (the base URL without {@code /v1}) that resets the engine's prefix cache; POSTed
	 * once, or, when {@link #resetsPerSlot()}, once per slot with {@code {id}} replaced by the slot's id.
	 */
	public String cacheResetPath() {
		return cacheResetPath;
	}

	/** Whether the cache is reset slot by slot: the ids come from {@code GET /slots} (llama.cpp). */
	public boolean resetsPerSlot() {
		return cacheResetPath.contains("{id}");
	}

	/** Whether a non-stream message without tool calls carries {@code "tool_calls":null} (else no key). */
	public boolean writesNullToolCalls() {
		return nullToolCalls;
	}
}
