package dev.fakbattery.core;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback server that answers the identity probe like vLLM: {@code /v1/models} (owned_by vllm),
 * {@code /version} with the given version (404 when null), {@code /metrics} with the given page (404 when null), and
 * the given {@code Server} header on every response.
 */
public final class StubEngine implements AutoCloseable {

	private final HttpServer server;

	private StubEngine(HttpServer server) {
		this.server = server;
	}

	public static StubEngine start(String version, String serverHeader) throws IOException {
		return start(version, serverHeader, null);
	}

	public static StubEngine start(String version, String serverHeader, String metrics) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", exchange -> {
			String path = exchange.getRequestURI().getPath();
			if (path.equals("/v1/models")) {
				send(exchange, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"owned_by\":\"vllm\","
						+ "\"max_model_len\":4096}]}", serverHeader);
			}
			else if (path.equals("/version") && version != null) {
				send(exchange, 200, "{\"version\":\"" + version + "\"}", serverHeader);
			}
			else if (path.equals("/metrics") && metrics != null) {
				send(exchange, 200, metrics, serverHeader);
			}
			else {
				send(exchange, 404, "{\"detail\":\"Not Found\"}", serverHeader);
			}
		});
		server.start();
		return new StubEngine(server);
	}

	private static void send(HttpExchange exchange, int status, String body, String serverHeader) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		if (serverHeader != null) {
			exchange.getResponseHeaders().set("Server", serverHeader);
		}
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
