package dev.fakbattery.core.target;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback server that answers exactly the paths it is given (status, body, {@code Server} header each) and 404
 * without a {@code Server} header elsewhere; it records the {@code Authorization} header of every request and the body of
 * every POST.
 */
final class ProbedEngine implements AutoCloseable {

	private final HttpServer server;

	private final Map<String, Answer> answers = new HashMap<>();

	final List<String> authorizations = new CopyOnWriteArrayList<>();

	final List<String> posted = new CopyOnWriteArrayList<>();

	private record Answer(int status, String body, String serverHeader) {
	}

	private ProbedEngine() throws IOException {
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", this::answer);
		server.start();
	}

	static ProbedEngine start() throws IOException {
		return new ProbedEngine();
	}

	/** Answers {@code path} with {@code status} and {@code body}, and {@code serverHeader} when not null. */
	ProbedEngine on(String path, int status, String body, String serverHeader) {
		answers.put(path, new Answer(status, body, serverHeader));
		return this;
	}

	ProbedEngine on(String path, String body) {
		return on(path, 200, body, null);
	}

	/** {@code /v1/models} with one model card {@code m} carrying {@code cardFields} (JSON members, may be empty). */
	ProbedEngine models(String cardFields) {
		return on("/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"m\"" + (cardFields.isEmpty() ? "" : "," + cardFields) + "}]}");
	}

	private void answer(HttpExchange exchange) throws IOException {
		String auth = exchange.getRequestHeaders().getFirst("Authorization");
		authorizations.add(auth == null ? "none" : auth);
		if (exchange.getRequestMethod().equals("POST")) {
			posted.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
		}
		Answer answer = answers.getOrDefault(exchange.getRequestURI().getPath(), new Answer(404, "{\"detail\":\"Not Found\"}", null));
		byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
		if (answer.serverHeader() != null) {
			exchange.getResponseHeaders().set("Server", answer.serverHeader());
		}
		exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	URI baseUrl() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
