package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.WireFixtures;
import dev.fakbattery.wire.WireJson;

/**
 * A stand-in engine on loopback (JDK HttpServer): {@code /v1/chat/completions} answers with a {@link Reply} the test
 * sets (by default the fixture its request asks for), {@code /v1/models} with a models fixture, and the cache reset
 * endpoints of the three engines with a settable status (llama.cpp: {@code GET /slots} lists two slots, each erased
 * with {@code POST /slots/<id>?action=erase}; recorded paths carry their query). Every request is recorded with a global sequence number, so a
 * test can tell what reached it first.
 */
final class UpstreamDouble implements AutoCloseable {

	static {
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	/** One request as it reached the double. */
	record Received(long sequence, String method, String path, Headers headers, byte[] body) {

		String text() {
			return new String(body, StandardCharsets.UTF_8);
		}

		ObjectNode json() {
			return WireJson.readObject(text());
		}
	}

	/** What the double answers to one chat request. */
	@FunctionalInterface
	interface Reply {
		void send(HttpExchange exchange, Received request) throws IOException;
	}

	/** llama-server's {@code GET /slots} with {@code -np 2}. */
	static final String LLAMACPP_SLOTS = "[{\"id\":0,\"n_ctx\":2048,\"speculative\":false,\"is_processing\":false},"
			+ "{\"id\":1,\"n_ctx\":2048,\"speculative\":false,\"is_processing\":false}]";

	/** llama-server's answer to a slot action when it was started without {@code --slot-save-path}. */
	static final String LLAMACPP_NO_SLOT_ACTIONS = "{\"error\":{\"code\":501,\"message\":\"This server does not support slots "
			+ "action. Start it with `--slot-save-path`\",\"type\":\"not_supported_error\"}}";

	private final HttpServer server;

	private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final AtomicLong sequence = new AtomicLong();

	private volatile Reply chat = (exchange, request) -> send(exchange, 500, "text/plain", "no reply set");

	private volatile Reply models = fixture("vllm/models");

	private volatile int cacheResetStatus = 200;

	private final java.util.Map<String, Reply> others = new java.util.concurrent.ConcurrentHashMap<>();

	private UpstreamDouble() throws IOException {
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
		server.setExecutor(executor);
		server.createContext("/", this::handle);
		server.start();
	}

	static UpstreamDouble start() {
		try {
			return new UpstreamDouble();
		}
		catch (IOException e) {
			throw new IllegalStateException("upstream double cannot listen: " + e.getMessage(), e);
		}
	}

	/** {@code http://127.0.0.1:PORT/v1}. */
	URI v1() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
	}

	UpstreamDouble chat(Reply reply) {
		this.chat = reply;
		return this;
	}

	UpstreamDouble models(Reply reply) {
		this.models = reply;
		return this;
	}

	/** What the double answers on {@code path} (an engine's identity endpoint such as {@code /version}); else 404. */
	UpstreamDouble route(String path, Reply reply) {
		others.put(path, reply);
		return this;
	}

	UpstreamDouble cacheResetStatus(int status) {
		this.cacheResetStatus = status;
		return this;
	}

	/** Requests received on {@code path}, in arrival order. */
	List<Received> received(String path) {
		return received.stream().filter(request -> request.path().equals(path)).toList();
	}

	/** The only chat request received; fails when there was not exactly one. */
	Received chatRequest() {
		List<Received> chats = received("/v1/chat/completions");
		if (chats.size() != 1) {
			throw new AssertionError("expected exactly one chat request upstream, got " + chats.size());
		}
		return chats.getFirst();
	}

	@Override
	public void close() {
		server.stop(0);
		executor.shutdownNow();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String query = exchange.getRequestURI().getQuery();
			Received request = new Received(sequence.incrementAndGet(), exchange.getRequestMethod(),
					exchange.getRequestURI().getPath() + (query == null ? "" : "?" + query), exchange.getRequestHeaders(),
					exchange.getRequestBody().readAllBytes());
			received.add(request);
			switch (request.path()) {
				case "/v1/chat/completions" -> chat.send(exchange, request);
				case "/v1/models" -> models.send(exchange, request);
				case "/reset_prefix_cache", "/flush_cache" -> send(exchange, cacheResetStatus, "application/json", "{}");
				case "/slots" -> send(exchange, 200, "application/json", LLAMACPP_SLOTS);
				case "/slots/0?action=erase", "/slots/1?action=erase" -> send(exchange, cacheResetStatus, "application/json",
						cacheResetStatus == 501 ? LLAMACPP_NO_SLOT_ACTIONS : "{\"id_slot\":0,\"n_erased\":12}");
				default -> {
					Reply other = others.get(request.path());
					if (other == null) {
						send(exchange, 404, "text/plain", "no route " + request.path());
					}
					else {
						other.send(exchange, request);
					}
				}
			}
		}
	}

	// ---- replies

	/** {@code NAME.sse} for a stream request, {@code NAME.json} otherwise, with status 200. */
	static Reply fixture(String name) {
		return (exchange, request) -> {
			boolean stream = request.json().path("stream").booleanValue();
			if (stream) {
				send(exchange, 200, "text/event-stream; charset=utf-8", WireFixtures.bytes(name + ".sse"));
			}
			else {
				send(exchange, 200, "application/json", WireFixtures.bytes(name + ".json"));
			}
		};
	}

	/** A fixed status, content type and body, whatever was asked. */
	static Reply status(int status, String contentType, byte[] body) {
		return (exchange, request) -> send(exchange, status, contentType, body);
	}

	/** An SSE body written as given (possibly cut short or malformed), then the connection ends. */
	static Reply rawStream(String body) {
		return status(200, "text/event-stream; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
	}

	static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
		send(exchange, status, contentType, body.getBytes(StandardCharsets.UTF_8));
	}

	static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", contentType);
		exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	/** Starts a chunked SSE response; write frames with {@link #frame(OutputStream, String)}. */
	static OutputStream startStream(HttpExchange exchange) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
		exchange.sendResponseHeaders(200, 0);
		return exchange.getResponseBody();
	}

	static void frame(OutputStream out, String data) throws IOException {
		out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
		out.flush();
	}
}
