package dev.fakbattery.engine;

import java.util.Locale;

/**
 * The OpenAI-compatible wire dialect the double speaks: byte shapes, ids, error bodies, metric names and
 * admin endpoints follow the engine named here (see {@code /work/shared/wire/NOTES.md}).
 *
 * @since 0.1
 */
public enum Dialect {

	/** vLLM main (2026): nested error bodies, {@code chatcmpl-} ids, {@code vllm:} metrics, {@code /reset_prefix_cache}. */
	VLLM,

	/** SGLang main (2026): flat error bodies, bare 32-hex ids, {@code sglang:} metrics, {@code /flush_cache}. */
	SGLANG;

	/**
	 * Parses {@code vllm} or {@code sglang}, case-insensitively.
	 *
	 * @throws IllegalArgumentException naming the accepted values when {@code text} is neither
	 */
	public static Dialect parse(String text) {
		if (text != null) {
			for (Dialect dialect : values()) {
				if (dialect.name().equalsIgnoreCase(text.strip())) {
					return dialect;
				}
			}
		}
		throw new IllegalArgumentException("Unable to parse dialect [" + text + "]: use vllm or sglang");
	}

	/** The lower-case name used on the command line and in metric prefixes. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}
}
