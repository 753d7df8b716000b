package dev.fakbattery.engine;

import java.util.Map;

/**
 * An error answer: HTTP status, message, and the {@code type}/{@code param} of the dialect's error body.
 * Thrown while a request is checked, rendered by the dialect's {@link Wire#errorBody(ApiError)}.
 *
 * @since 0.1
 */
final class ApiError extends Exception {

	/** Request-schema failures; SGLang reports them with type {@code "Bad Request"}, vLLM as {@code BadRequestError}. */
	static final String VALIDATION = "validation";

	private static final Map<Integer, String> PHRASES = Map.ofEntries(
			Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
			Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"),
			Map.entry(409, "Conflict"), Map.entry(413, "Request Entity Too Large"), Map.entry(422, "Unprocessable Entity"),
			Map.entry(429, "Too Many Requests"), Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"),
			Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

	private final int status;

	private final String kind;

	private final String param;

	ApiError(int status, String message, String kind, String param) {
		super(message, null, false, false);
		this.status = status;
		this.kind = kind;
		this.param = param;
	}

	static ApiError badRequest(String message) {
		return new ApiError(400, message, null, null);
	}

	static ApiError validation(String message) {
		return new ApiError(400, message, VALIDATION, null);
	}

	int status() {
		return status;
	}

	/** {@link #VALIDATION}, or null for an ordinary error of this status. */
	String kind() {
		return kind;
	}

	/** The {@code param} field, or null. */
	String param() {
		return param;
	}

	/** The HTTP reason phrase, as Python's {@code HTTPStatus} spells it. */
	static String phrase(int status) {
		return PHRASES.getOrDefault(status, "Error");
	}
}
