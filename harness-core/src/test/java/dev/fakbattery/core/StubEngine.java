package dev.fakbattery.core;

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
 * A loopback engine for the harness's own tests, on {@code 127.0.0.1}.
 *
 * <p>It answers the identity probe like vLLM: {@code /v1/models} (owned_by vllm), {@code /version} with the given
 * version (404 when null), {@code /metrics} with the given page (404 when null), and the given {@code Server} header
 * on every response ({@link #start(String, String, String)}).
 *
 * <p>{@code /v1/chat/completions} answers by the current mode ({@link #chat(String)}, {@link #mode(String)}):
 * {@code ok} streams a role chunk, three one-token chunks with continuous usage, a usage chunk and {@code [DONE]} (or
 * a JSON body when not streamed); {@code status=N} answers N; {@code no-done} stops before {@code [DONE]};
 * {@code hang} never answers; {@code delay=N} answers as {@code ok} after N ms; {@code stall} sends the role chunk, then nothing; {@code queue} answers as {@code ok}
 * after {@value #QUEUE_SERVICE_MS} ms of holding its one slot, so it serves at most 50 requests a second and a higher
 * rate queues.
 */
public final class StubEngine implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

	private final AtomicInteger requests = new AtomicInteger();

	private final String version;

	private final String serverHeader;

	private final String metrics;

	private volatile String mode;

	/** How long a {@code queue} request holds the stub's one slot. */
	public static final int QUEUE_SERVICE_MS = 20;

	private final java.util.concurrent.Semaphore slot = new java.util.concurrent.Semaphore(1, true);

	private StubEngine(String version, String serverHeader, String metrics, String mode) throws IOException {
		this(0, version, serverHeader, metrics, mode);
	}

	private StubEngine(int port, String version, String serverHeader, String metrics, String mode) throws IOException {
		this.version = version;
		this.serverHeader = serverHeader;
		this.metrics = metrics;
		this.mode = mode;
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
		server.createContext("/", this::identity);
		server.createContext("/v1/chat/completions", this::chat);
		server.setExecutor(executor);
		server.start();
	}

	/** An engine that answers the identity probe with {@code version} and {@code serverHeader} (each may be null). */
	public static StubEngine start(String version, String serverHeader) throws IOException {
		return start(version, serverHeader, null);
	}

	/** Like {@link #start(String, String)}, with {@code metrics} as its {@code /metrics} page (404 when null). */
	public static StubEngine start(String version, String serverHeader, String metrics) throws IOException {
		return new StubEngine(version, serverHeader, metrics, "ok");
	}

	/** Like {@link #start(String, String, String)}, on {@code port}: another server on a port freed by an earlier one. */
	public static StubEngine startOn(int port, String version, String serverHeader, String metrics) throws IOException {
		return new StubEngine(port, version, serverHeader, metrics, "ok");
	}

	/** An engine whose chat endpoint answers in {@code mode} (see the class comment). */
	public static StubEngine chat(String mode) throws IOException {
		return new StubEngine(null, null, null, mode);
	}

	/** {@code http://127.0.0.1:PORT/v1}. */
	public String baseUrl() {
		return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
	}

	/** {@link #baseUrl()} as a URI. */
	public URI uri() {
		return URI.create(baseUrl());
	}

	/** The chat requests received so far. */
	public int requests() {
		return requests.get();
	}

	/** Changes how the chat endpoint answers from the next request on. */
	public void mode(String value) {
		this.mode = value;
	}

	private void identity(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		if (path.equals("/v1/models")) {
			send(exchange, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"owned_by\":\"vllm\","
					+ "\"max_model_len\":4096}]}");
		}
		else if (path.equals("/version") && version != null) {
			send(exchange, 200, "{\"version\":\"" + version + "\"}");
		}
		else if (path.equals("/metrics") && metrics != null) {
			send(exchange, 200, metrics);
		}
		else {
			send(exchange, 404, "{\"detail\":\"Not Found\"}");
		}
	}

	private void send(HttpExchange exchange, int status, String body) throws IOException {
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

	private void chat(HttpExchange exchange) throws IOException {
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
			if (how.equals("queue")) {
				slot.acquire();
				try {
					Thread.sleep(QUEUE_SERVICE_MS);
				}
				finally {
					slot.release();
				}
			}
			if (how.startsWith("delay=")) {
				Thread.sleep(Long.parseLong(how.substring(6)));
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
			event(out,
					"{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":0}}");
			if (how.equals("stall")) {
				Thread.sleep(60_000);
			}
			for (int k = 1; k <= 3; k++) {
				Thread.sleep(1);
				event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t" + k
						+ " \"}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" + k + "}}");
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
