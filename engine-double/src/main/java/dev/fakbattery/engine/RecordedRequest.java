package dev.fakbattery.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request as the double received it: what a gateway actually sent upstream.
 *
 * @param method HTTP method
 * @param path request path without the query
 * @param query raw query string, empty when none
 * @param headers header names in lower case, values in arrival order
 * @param body the body exactly as received, decoded as UTF-8
 * @param receivedAt wall-clock arrival time
 * @since 0.1
 */
public record RecordedRequest(String method, String path, String query, Map<String, List<String>> headers,
		String body, Instant receivedAt) {

	/** The first value of a header, looked up case-insensitively. */
	public Optional<String> header(String name) {
		List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
		return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
	}
}
