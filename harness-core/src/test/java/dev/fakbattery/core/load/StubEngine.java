package dev.fakbattery.core.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A loopback chat endpoint for the load engine's tests: answers by the {@code X-Stub} header or its
 * default mode. {@code ok} streams a role chunk, three one-token chunks with continuous usage, a
 * usage chunk and {@code [DONE]} (or a JSON body when not streamed); {@code status=N} answers N;
 * {@code no-done} stops before {@code [DONE]}; {@code hang} never answers; {@code stall} sends the
 * role chunk, then nothing.
 */
final class StubEngine implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

	private final AtomicInteger requests = new AtomicInteger();

	private volatile String mode;

	StubEngine(String mode) throws IOException {
		this.mode = mode;
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
		server.createContext("/v1/chat/completions", this::handle);
		server.setExecutor(executor);
		server.start();
	}

	URI baseUrl() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
	}

	int requests() {
		return requests.get();
	}

	void mode(String value) {
		this.mode = value;
	}

	private void handle(HttpExchange exchange) throws IOException {
		requests.incrementAndGet();
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		String how = mode;
		try (exchange) {
			if (how.startsWith("status=")) {
				byte[] error = "{\"error\":{\"message\":\"overloaded\"}}".getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(Integer.parseInt(how.substring(7)), error.length);
				exchange.getResponseBody().write(error);
				return;
			}
			if (how.equals("hang")) {
				Thread.sleep(60_000);
				return;
			}
			if (!body.contains("\"stream\":true")) {
				byte[] json = ("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"a b c\"}}],"
						+ "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}").getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(200, json.length);
				exchange.getResponseBody().write(json);
				return;
			}
			exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			OutputStream out = exchange.getResponseBody();
			event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":0}}");
			if (how.equals("stall")) {
				Thread.sleep(60_000);
			}
			for (int k = 1; k <= 3; k++) {
				Thread.sleep(1);
				event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t" + k + " \"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" + k + "}}");
			}
			event(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}");
			if (!how.equals("no-done")) {
				event(out, "[DONE]");
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static void event(OutputStream out, String data) throws IOException {
		out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	@Override
	public void close() {
		server.stop(0);
		executor.shutdownNow();
	}
}
