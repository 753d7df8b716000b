package dev.fakbattery.wire;

import java.io.IOException;

/**
 * An SSE line, or the data of one event, is longer than the {@link SseReader}'s bound: the stream is cut there rather
 * than read into memory without end. An {@link IOException}, so whoever handles a broken stream handles this too; the
 * message names the limit.
 *
 * @since 0.3
 */
public final class SseLimitException extends IOException {

	private static final long serialVersionUID = 1L;

	public SseLimitException(String message) {
		super(message);
	}
}
