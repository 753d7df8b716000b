package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Gateways that carry no wire at all, for the kit's evidence self-test ({@link NullGatewayTests}): none of them may pass
 * a rule. One answers 500 to every request, one answers a canned 200 (a body, or a stream of chunks) without calling its
 * upstream, one accepts connections and never answers; and a relay that carries bodies but answers 500 to every stream
 * (what a plain install of one real gateway did), whose stream rules must pass none either.
 */
final class NullGateways {

	private NullGateways() {
	}

	/** The kinds of null gateway, each started in front of an upstream it may ignore. */
	enum Kind {
		ANSWERS_500("answers 500 to every request"),
		CANNED_200("answers a canned 200 without calling its upstream"),
		NEVER_ANSWERS("accepts connections and never answers"),
		STREAMS_500("relays bodies, answers 500 to every stream");

		final String what;

		Kind(String what) {
			this.what = what;
		}

		GatewayUnderTest start(URI upstream) {
			return this == NEVER_ANSWERS ? new Silent(this) : new Http(this, upstream);
		}
	}

	static final String CANNED_BODY = "{\"id\":\"chatcmpl-canned\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"canned\","
			+ "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"canned\"},\"finish_reason\":\"stop\"}],"
			+ "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";

	static final String CANNED_STREAM = "data: {\"id\":\"chatcmpl-canned\",\"object\":\"chat.completion.chunk\",\"created\":1,"
			+ "\"model\":\"canned\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"canned\"},"
			+ "\"finish_reason\":null}]}\n\n"
			+ "data: {\"id\":\"chatcmpl-canned\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"canned\","
			+ "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

	/** An HTTP null gateway on loopback. */
	private static final class Http implements GatewayUnderTest {

		private final Kind kind;

		private final URI upstream;

		private final HttpServer server;

		private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

		Http(Kind kind, URI upstream) {
			this.kind = kind;
			this.upstream = upstream;
			try {
				server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
			server.createContext("/", this::handle);
			server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
			server.start();
		}

		private void handle(HttpExchange exchange) throws IOException {
			try (exchange) {
				byte[] request = exchange.getRequestBody().readAllBytes();
				boolean stream = new String(request, StandardCharsets.UTF_8).replace(" ", "").contains("\"stream\":true");
				switch (kind) {
					case CANNED_200 -> answer(exchange, 200, stream ? "text/event-stream" : "application/json",
							stream ? CANNED_STREAM : CANNED_BODY);
					case STREAMS_500 -> {
						if (stream) {
							answer500(exchange);
						}
						else {
							relay(exchange, request);
						}
					}
					default -> answer500(exchange);
				}
			}
		}

		private void relay(HttpExchange exchange, byte[] request) throws IOException {
			String path = exchange.getRequestURI().getPath().replaceFirst("^/v1", "");
			HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(upstream + path))
					.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(request));
			exchange.getRequestHeaders()
					.forEach((name, values) -> {
						if (List.of("content-type", "x-request-id").contains(name.toLowerCase(java.util.Locale.ROOT))) {
							values.forEach(v -> forward.header(name, v));
						}
					});
			try {
				HttpResponse<byte[]> answer = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
				answer.headers().firstValue("Content-Type").ifPresent(t -> exchange.getResponseHeaders().set("Content-Type", t));
				exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
				exchange.getResponseBody().write(answer.body());
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				answer500(exchange);
			}
		}

		private static void answer500(HttpExchange exchange) throws IOException {
			answer(exchange, 500, "application/json", "{\"error\":{\"message\":\"null gateway\",\"type\":\"server_error\"}}");
		}

		private static void answer(HttpExchange exchange, int status, String type, String body) throws IOException {
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", type);
			exchange.sendResponseHeaders(status, bytes.length);
			exchange.getResponseBody().write(bytes);
		}

		@Override
		public URI baseUrl() {
			return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
		}

		@Override
		public String description() {
			return "null gateway: " + kind.what;
		}

		@Override
		public boolean declaresAdjudicationRecord() {
			return false;
		}

		@Override
		public void close() {
			server.stop(0);
			client.close();
		}
	}

	/** A null gateway that accepts every connection, reads what comes, and never writes a byte. */
	private static final class Silent implements GatewayUnderTest {

		private final Kind kind;

		private final ServerSocket server;

		private final List<Socket> open = new CopyOnWriteArrayList<>();

		Silent(Kind kind) {
			this.kind = kind;
			try {
				server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
			Thread.ofVirtual().name("null-gateway-silent").start(this::acceptAll);
		}

		private void acceptAll() {
			while (!server.isClosed()) {
				try {
					Socket socket = server.accept();
					open.add(socket);
					Thread.ofVirtual().start(() -> drain(socket));
				}
				catch (IOException e) {
					return;
				}
			}
		}

		private static void drain(Socket socket) {
			try (InputStream in = socket.getInputStream(); OutputStream ignored = socket.getOutputStream()) {
				in.transferTo(OutputStream.nullOutputStream());
			}
			catch (IOException e) {
				// the client left or the gateway closed
			}
		}

		@Override
		public URI baseUrl() {
			return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
		}

		@Override
		public String description() {
			return "null gateway: " + kind.what;
		}

		@Override
		public boolean declaresAdjudicationRecord() {
			return false;
		}

		@Override
		public void close() {
			try {
				server.close();
			}
			catch (IOException e) {
				// closing anyway
			}
			open.forEach(socket -> {
				try {
					socket.close();
				}
				catch (IOException e) {
					// closing anyway
				}
			});
		}
	}
}
