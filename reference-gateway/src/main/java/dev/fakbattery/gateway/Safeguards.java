package dev.fakbattery.gateway;

import java.io.InputStream;

import dev.fakbattery.wire.spi.GatewayLimits;

/**
 * The gateway's limits at work on one request path: the client's body bound, the upstream watchdog, and the request
 * log (silent unless asked).
 *
 * @param limits the documented limits
 * @param request the client-side limits (the filter and the bounded body read)
 * @param watchdog the upstream stall bound
 * @param log where request bodies go when asked
 */
record Safeguards(GatewayLimits limits, RequestLimits request, UpstreamWatchdog watchdog, RequestLog log) {

	/** A stream's upstream body: stalls bounded; lines and events are bounded by the stream reader. */
	InputStream stream(InputStream body) {
		return watchdog.watch(body);
	}

	/** A whole answer's upstream body: stalls and size bounded. */
	InputStream whole(InputStream body) {
		return watchdog.watch(body, limits.maxEventBytes(), "upstream response is larger than " + limits.maxEventBytes()
				+ " bytes (the gateway's limit)");
	}
}
