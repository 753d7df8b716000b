package dev.fakbattery.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;

/**
 * Fixed-length responses.
 *
 * @since 0.1
 */
final class Http {

	static final String JSON = "application/json";

	static final String TEXT = "text/plain; charset=utf-8";

	private Http() {
	}

	static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		if (contentType != null) {
			exchange.getResponseHeaders().set("Content-Type", contentType);
		}
		exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
		if (bytes.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
		exchange.close();
	}
}
