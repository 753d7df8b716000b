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
	SGLANG("/flush_cache", true);

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

	/** The path under the server root (the base URL without {@code /v1}) that resets the engine's prefix cache. */
	public String cacheResetPath() {
		return cacheResetPath;
	}

	/** Whether a non-stream message without tool calls carries {@code "tool_calls":null} (else no key). */
	public boolean writesNullToolCalls() {
		return nullToolCalls;
	}
}
