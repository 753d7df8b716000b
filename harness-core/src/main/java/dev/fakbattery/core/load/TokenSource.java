package dev.fakbattery.core.load;

import org.apiguardian.api.API;

/**
 * Where a request's output-token count came from. Only {@link #CHUNK_COUNT} is a re-count by the
 * client, and it is flagged in every summary: it assumes one token per chunk, which reasoning and
 * tool parsers, speculative decoding and detokenizer hold-back all break.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public enum TokenSource {
	/** {@code usage.completion_tokens} of the final usage chunk or of a non-stream body. */
	USAGE,
	/** The last {@code continuous_usage_stats} value of the stream (no final usage chunk came). */
	CONTINUOUS_USAGE,
	/** No usage at all: the token-carrying chunks were counted. Flagged. */
	CHUNK_COUNT,
	/** Nothing to count: the request failed before any token. */
	NONE;

	/** Whether the count was re-counted on the client rather than reported by the server. */
	public boolean recounted() {
		return this == CHUNK_COUNT;
	}
}
