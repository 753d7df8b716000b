package dev.fakbattery.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * The gateway's own errors, in the OpenAI shape vLLM &ge; 0.10.1 uses:
 * {@code {"error":{"message","type","param","code"}}}.
 */
final class OpenAiError {

	static final String BAD_REQUEST = "BadRequestError";

	static final String BAD_GATEWAY = "BadGatewayError";

	static final String GATEWAY_TIMEOUT = "GatewayTimeoutError";

	/** The in-stream frame sent when the upstream stream breaks after the client got its first event. */
	static final String TRUNCATED_FRAME = "{\"error\":{\"message\":\"upstream stream truncated\",\"type\":\"BadGatewayError\",\"code\":502}}";

	private OpenAiError() {
	}

	static ObjectNode of(String message, String type, String param, int code) {
		ObjectNode body = Json.MAPPER.createObjectNode();
		ObjectNode error = body.putObject("error");
		error.put("message", message);
		error.put("type", type);
		error.put("param", param);
		error.put("code", code);
		return body;
	}

	static ObjectNode badRequest(String message, String param) {
		return of(message, BAD_REQUEST, param, 400);
	}

	static ObjectNode badGateway(String message) {
		return of(message, BAD_GATEWAY, null, 502);
	}
}
