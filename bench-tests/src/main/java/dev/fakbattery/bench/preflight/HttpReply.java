package dev.fakbattery.bench.preflight;

import java.util.Objects;
import java.util.Optional;

/**
 * What an HTTP probe got: a status and a body, or the transport error when there was no response.
 *
 * @param status the HTTP status, 0 when there was no response
 * @param body the response body, {@code ""} when none
 * @param error why there was no response
 * @since 0.1
 */
public record HttpReply(int status, String body, Optional<String> error) {

	/** Longest body excerpt kept in a probe result: {@value} characters. */
	public static final int MAX_EXCERPT = 2000;

	public HttpReply {
		Objects.requireNonNull(body, "body");
		Objects.requireNonNull(error, "error");
	}

	public static HttpReply of(int status, String body) {
		return new HttpReply(status, body, Optional.empty());
	}

	public static HttpReply failed(String error) {
		return new HttpReply(0, "", Optional.of(error));
	}

	/** The body cut to {@value #MAX_EXCERPT} characters, or the transport error. */
	public String excerpt() {
		if (error.isPresent()) {
			return error.get();
		}
		return body.length() > MAX_EXCERPT ? body.substring(0, MAX_EXCERPT) : body;
	}
}
