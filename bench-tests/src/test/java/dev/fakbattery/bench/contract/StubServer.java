package dev.fakbattery.bench.contract;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback server for the contract rung's self-tests: fixed JSON answers by path (404 elsewhere), or a proxy that
 * relays only the {@code /v1} paths of another server, without its {@code Server} header (a gateway that hides who
 * serves it).
 */
final class StubServer implements AutoCloseable {

	private final HttpServer server;

	private StubServer(HttpServer server) {
		this.server = server;
	}

	/** Answers each path of {@code answers} with 200 and its JSON body, everything else 404. */
	static StubServer answering(Map<String, String> answers) throws IOException {
		return start(exchange -> {
			String body = answers.get(exchange.getRequestURI().getPath());
			send(exchange, body == null ? 404 : 200, body == null ? "{\"detail\":\"Not Found\"}" : body);
		});
	}

	/** An engine that identifies itself as vLLM {@code 0.11.0} serving {@code model} with {@code maxModelLen}. */
	static StubServer vllm(String model, int maxModelLen) throws IOException {
		return answering(Map.of("/v1/models", models(model, maxModelLen), "/version", "{\"version\":\"0.11.0\"}"));
	}

	/**
	 * llama-server as it answered in {@code fixtures/wire/llamacpp} (its committed real answers: {@code /v1/models},
	 * {@code /props}), found above the working directory.
	 */
	static StubServer llamaCpp() throws IOException {
		java.nio.file.Path dir = java.nio.file.Path.of("").toAbsolutePath();
		while (dir != null && !java.nio.file.Files.isDirectory(dir.resolve("fixtures/wire/llamacpp"))) {
			dir = dir.getParent();
		}
		if (dir == null) {
			throw new IllegalStateException("fixtures/wire/llamacpp not found above " + java.nio.file.Path.of("").toAbsolutePath());
		}
		java.nio.file.Path fixtures = dir.resolve("fixtures/wire/llamacpp");
		return answering(Map.of("/v1/models", body(fixtures.resolve("v1-models.http")), "/props", body(fixtures.resolve("props.http"))));
	}

	/** The body of a captured HTTP response: what follows the first blank line. */
	private static String body(java.nio.file.Path http) throws IOException {
		String text = java.nio.file.Files.readString(http).replace("\r\n", "\n");
		return text.substring(text.indexOf("\n\n") + 2);
	}

	/** The {@code /v1/models} answer of vLLM serving {@code model}. */
	static String models(String model, int maxModelLen) {
		return "{\"object\":\"list\",\"data\":[{\"id\":\"" + model + "\",\"object\":\"model\",\"owned_by\":\"vllm\",\"max_model_len\":"
				+ maxModelLen + "}]}";
	}

	/**
	 * Relays every {@code /v1} request of {@code upstream} (a {@code /v1} URL), method and body, and its {@code /metrics} when
	 * {@code relayMetrics}, without its Server header; 404 elsewhere.
	 */
	static StubServer strippingProxy(String upstream, boolean relayMetrics) throws IOException {
		HttpClient http = HttpClient.newHttpClient();
		String root = upstream.substring(0, upstream.length() - "/v1".length());
		return start(exchange -> {
			String path = exchange.getRequestURI().getPath();
			if (!path.startsWith("/v1/") && !(relayMetrics && path.equals("/metrics"))) {
				send(exchange, 404, "{\"detail\":\"Not Found\"}");
				return;
			}
			byte[] body = exchange.getRequestBody().readAllBytes();
			try {
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(root + path))
						.header("Content-Type", "application/json")
						.method(exchange.getRequestMethod(), body.length == 0
								? HttpRequest.BodyPublishers.noBody()
								: HttpRequest.BodyPublishers.ofByteArray(body))
						.build(), HttpResponse.BodyHandlers.ofString());
				send(exchange, response.statusCode(), response.body());
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				send(exchange, 502, "{}");
			}
		});
	}

	private interface Handler {
		void handle(HttpExchange exchange) throws IOException;
	}

	private static StubServer start(Handler handler) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", exchange -> {
			try (exchange) {
				handler.handle(exchange);
			}
		});
		server.start();
		return new StubServer(server);
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	String baseUrl() {
		return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
