package dev.fakbattery.wire.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * The documented limits and timeout of a gateway, which the kit's fault rules hold it to.
 *
 * @param upstreamTimeout the longest the gateway waits on a silent upstream (no response headers yet, or no byte of
 *        the body) before it answers 504 (nothing sent yet) or an in-stream error frame then {@code [DONE]}
 * @param maxBodyBytes the largest request body accepted; a larger one gets 413
 * @param maxHeaderBytes the largest request header section accepted, counted as name, {@code ": "}, value and CRLF per
 *        header line; a larger one gets 431
 * @param maxEventBytes the largest upstream unit held in memory at once: one SSE line or the data of one event, or a
 *        whole non-stream answer; a larger one ends the answer with a clear error
 * @since 0.3
 */
public record GatewayLimits(Duration upstreamTimeout, long maxBodyBytes, int maxHeaderBytes, int maxEventBytes) {

	public GatewayLimits {
		Objects.requireNonNull(upstreamTimeout, "upstreamTimeout");
		if (upstreamTimeout.isNegative() || upstreamTimeout.isZero()) {
			throw new IllegalArgumentException("upstreamTimeout [" + upstreamTimeout + "] must be positive");
		}
		positive("maxBodyBytes", maxBodyBytes);
		positive("maxHeaderBytes", maxHeaderBytes);
		positive("maxEventBytes", maxEventBytes);
	}

	/** These limits with another upstream timeout. */
	public GatewayLimits withUpstreamTimeout(Duration timeout) {
		return new GatewayLimits(timeout, maxBodyBytes, maxHeaderBytes, maxEventBytes);
	}

	/** These limits with another body limit. */
	public GatewayLimits withMaxBodyBytes(long bytes) {
		return new GatewayLimits(upstreamTimeout, bytes, maxHeaderBytes, maxEventBytes);
	}

	/** These limits with another header limit. */
	public GatewayLimits withMaxHeaderBytes(int bytes) {
		return new GatewayLimits(upstreamTimeout, maxBodyBytes, bytes, maxEventBytes);
	}

	/** These limits with another event limit. */
	public GatewayLimits withMaxEventBytes(int bytes) {
		return new GatewayLimits(upstreamTimeout, maxBodyBytes, maxHeaderBytes, bytes);
	}

	private static void positive(String name, long value) {
		if (value < 1) {
			throw new IllegalArgumentException(name + " [" + value + "] must be positive");
		}
	}
}
