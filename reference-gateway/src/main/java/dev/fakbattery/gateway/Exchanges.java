package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;

import dev.fakbattery.wire.WireJson;

/** Writing whole (non-stream) responses to the client. */
final class Exchanges {

	static final String JSON = "application/json";

	static final String REQUEST_ID = "X-Request-Id";

	private Exchanges() {
	}

	static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
		send(exchange, status, JSON, WireJson.write(body).getBytes(StandardCharsets.UTF_8));
	}

	static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
		if (contentType != null) {
			exchange.getResponseHeaders().set("Content-Type", contentType);
		}
		exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	/** Answers with the gateway's own OpenAI-shaped error. */
	static void sendError(HttpExchange exchange, JsonNode error) throws IOException {
		sendJson(exchange, error.path("error").path("code").asInt(500), error);
	}
}
