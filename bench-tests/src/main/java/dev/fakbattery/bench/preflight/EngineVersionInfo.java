package dev.fakbattery.bench.preflight;

import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

/**
 * The engine version an endpoint reports at {@code /version} (vLLM answers {@code {"version": "..."}}).
 *
 * @param httpStatus the HTTP status, 0 when there was no response
 * @param version the version, when the body carried one
 * @param bodyExcerpt the body (at most 2000 characters) or the transport error
 * @since 0.1
 */
public record EngineVersionInfo(int httpStatus, Optional<String> version, String bodyExcerpt) {

	public EngineVersionInfo {
		Objects.requireNonNull(version, "version");
		Objects.requireNonNull(bodyExcerpt, "bodyExcerpt");
	}

	/** Parses a {@code /version} reply; a non-200 or unparsable body reports no version. */
	public static EngineVersionInfo parse(HttpReply reply) {
		Optional<String> version = Optional.empty();
		if (reply.status() == 200) {
			try {
				JsonNode node = Json.MAPPER.readTree(reply.body()).path("version");
				version = node.isTextual() && !node.asText().isBlank() ? Optional.of(node.asText()) : Optional.empty();
			}
			catch (JsonProcessingException e) {
				version = Optional.empty();
			}
		}
		return new EngineVersionInfo(reply.status(), version, reply.excerpt());
	}
}
