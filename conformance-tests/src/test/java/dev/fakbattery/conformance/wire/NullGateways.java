package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Gateways that carry no wire at all, for the kits' evidence self-test ({@link NullGatewayTests}): none of them may pass
 * a rule. One answers 500 to every request, one answers a canned 200 (a body, or a stream of chunks) without calling its
 * upstream (and refuses what is over its declared limits, 413 or 431, as a gateway holding them would), one never answers;
 * and a relay that carries bodies but answers 500 to every stream (what a plain install of one real gateway did), whose
 * stream rules must pass none either. Each declares {@link #LIMITS}, so the fault rules that hold a gateway to its limits
 * run. Started to relay the kit's probe (the first request it gets) to its upstream, it gets past the probe's gate, and
 * each rule's own evidence must keep it from passing.
 */
final class NullGateways {

	/** The JUnit configuration parameter that names the {@link Kind} a self-test's kit starts. */
	static final String KIND = "null.gateway.kind";

	/** The JUnit configuration parameter that, {@code true}, makes the gateway relay the kit's probe to its upstream. */
	static final String RELAYS_PROBE = "null.gateway.relays.probe";

	/** How long the kits wait for a null gateway's answer to their probe: 1 s. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * How long the fault kit waits for its upstream's record of a request a null gateway answered: 250 ms. A null gateway
	 * never calls its upstream (but for the probe it relays), so the kit's 2 s would only wait out a record that cannot come,
	 * once per rule run.
	 */
	static final Duration EVIDENCE_WAIT = Duration.ofMillis(250);

	/** The limits every null gateway declares: a 1 s upstream timeout, 64 KiB bodies and events, 8 KiB of headers. */
	static final GatewayLimits LIMITS = new GatewayLimits(Duration.ofSeconds(1), 64 * 1024, 8 * 1024, 64 * 1024);

	private NullGateways() {
	}

	/** The null gateway that {@code config} names ({@link #KIND}, {@link #RELAYS_PROBE}), in front of {@code upstream}. */
	static GatewayUnderTest start(HarnessConfig config, URI upstream) {
		return new Http(Kind.valueOf(config.string(KIND).orElseThrow()), upstream, config.bool(RELAYS_PROBE, false));
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
			return new Http(this, upstream, false);
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

	/** A null gateway on loopback. */
	private static final class Http implements GatewayUnderTest {

		private final Kind kind;

		private final URI upstream;

		private final HttpServer server;

		private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

		/** Whether the next request is relayed: the kit's probe, when the gateway relays it. */
		private final AtomicBoolean relayNext;

		/** Holds a gateway that never answers until it is closed. */
		private final CountDownLatch closed = new CountDownLatch(1);

		Http(Kind kind, URI upstream, boolean relaysProbe) {
			this.kind = kind;
			this.upstream = upstream;
			this.relayNext = new AtomicBoolean(relaysProbe);
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
				if (relayNext.getAndSet(false)) {
					relay(exchange, request);
					return;
				}
				switch (kind) {
					case CANNED_200 -> canned(exchange, request.length, stream);
					case NEVER_ANSWERS -> awaitClose();
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

		/** A canned 200, or the 413 or 431 a gateway holding {@link #LIMITS} gives a request over them. */
		private static void canned(HttpExchange exchange, int bodyBytes, boolean stream) throws IOException {
			long headerBytes = exchange.getRequestHeaders()
					.entrySet()
					.stream()
					.mapToLong(h -> h.getValue().stream().mapToLong(v -> h.getKey().length() + 2 + v.length() + 2).sum())
					.sum();
			if (bodyBytes > LIMITS.maxBodyBytes() || headerBytes > LIMITS.maxHeaderBytes()) {
				answer(exchange, bodyBytes > LIMITS.maxBodyBytes() ? 413 : 431, "application/json",
						"{\"error\":{\"message\":\"null gateway: over its limits\",\"type\":\"invalid_request_error\"}}");
				return;
			}
			answer(exchange, 200, stream ? "text/event-stream" : "application/json", stream ? CANNED_STREAM : CANNED_BODY);
		}

		private void awaitClose() {
			try {
				closed.await();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
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
		public Optional<GatewayLimits> limits() {
			return Optional.of(LIMITS);
		}

		@Override
		public void close() {
			closed.countDown();
			server.stop(0);
			client.shutdownNow();
		}
	}
}
