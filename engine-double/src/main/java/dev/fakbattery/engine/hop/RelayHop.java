package dev.fakbattery.engine.hop;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.StaleConnection;

/**
 * A loopback hop that forwards every request to {@code target} (with its headers, hop-by-hop ones
 * excepted) and streams the answer back event by event (with the upstream's headers), remembering the
 * request bodies it forwarded. By default it changes nothing; a
 * {@link Mangle} makes it deliberately wrong (the kit's broken gateways are the reference gateway
 * behind one such hop). The serving witness puts a faithful one between a gateway and the engine to
 * see what the engine received.
 *
 * @since 0.1
 */
public final class RelayHop implements AutoCloseable {

	/** How the hop changes traffic; the defaults change nothing. */
	public interface Mangle {
		default int status(int status) {
			return status;
		}

		default String body(String body) {
			return body;
		}

		/** One SSE event (without its blank-line terminator); null drops it. */
		default String event(String event) {
			return event;
		}

		/** Whether the whole stream is held back until the upstream ends. */
		default boolean buffers() {
			return false;
		}

		/**
		 * Milliseconds the stream is held in windows: events are collected and written together once per window
		 * (a proxy that buffers output and flushes on a timer); 0 writes each event as it arrives.
		 *
		 * @since 0.2
		 */
		default long holdMillis() {
			return 0;
		}

		/**
		 * Milliseconds of upstream silence after which the hop cuts the stream (an idle read timeout); 0 never cuts.
		 *
		 * @since 0.2
		 */
		default long idleTimeoutMillis() {
			return 0;
		}

		/** The request body sent on. */
		default String request(String body) {
			return body;
		}

		/** Whether a request header (name as the client sent it, compare ignoring case) is sent on. */
		default boolean forwards(String header) {
			return true;
		}

		/**
		 * Whether a response header (name as the upstream sent it, compare ignoring case) is sent back.
		 *
		 * @since 0.2
		 */
		default boolean returns(String header) {
			return true;
		}

		/** Whether a request to this path is answered 200 here instead of being sent on. */
		default boolean swallows(String path) {
			return false;
		}

		/**
		 * The JSON body of a 400 answered here instead of sending the request on, given the request's headers (a gateway that
		 * routes by request headers and finds none, as Portkey does); null sends it on.
		 *
		 * @since 0.10
		 */
		default String refusal(Map<String, List<String>> requestHeaders) {
			return null;
		}
	}

	/** Headers the JDK client sets itself, or that describe one hop's connection only. */
	private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "transfer-encoding", "expect",
			"upgrade", "keep-alive", "te", "trailer", "proxy-connection", "date");

	private final URI target;
	private final Mangle mangle;
	private final HttpServer server;
	private final HttpClient client = HttpClients.http11();
	private final List<String> forwarded = new java.util.concurrent.CopyOnWriteArrayList<>();
	private final java.util.concurrent.atomic.AtomicInteger retries = new java.util.concurrent.atomic.AtomicInteger();

	/** A faithful hop on a free port. */
	public RelayHop(URI target) {
		this(target, new Mangle() {
		}, 0);
	}

	/** A faithful hop on {@code port} (0 for a free one). */
	public RelayHop(URI target, int port) {
		this(target, new Mangle() {
		}, port);
	}

	public RelayHop(URI target, Mangle mangle) {
		this(target, mangle, 0);
	}

	public RelayHop(URI target, Mangle mangle, int port) {
		this.target = target;
		this.mangle = mangle;
		System.setProperty("sun.net.httpserver.nodelay", "true");
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
		server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		server.createContext("/", this::forward);
		server.start();
	}

	/** This hop's URL for {@code target}'s path (for example .../v1). */
	public URI url() {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + target.getPath());
	}

	private void forward(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (mangle.swallows(exchange.getRequestURI().getPath())) {
				exchange.sendResponseHeaders(200, -1);
				return;
			}
			String refusal = mangle.refusal(exchange.getRequestHeaders());
			if (refusal != null) {
				exchange.getRequestBody().readAllBytes();
				byte[] body = refusal.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(400, body.length);
				exchange.getResponseBody().write(body);
				return;
			}
			String root = target.getScheme() + "://" + target.getAuthority();
			String requestBody = mangle.request(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			forwarded.add(requestBody);
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + exchange.getRequestURI()))
					.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofString(requestBody));
			exchange.getRequestHeaders().forEach((header, values) -> {
				if (!HOP_BY_HOP.contains(header.toLowerCase(java.util.Locale.ROOT)) && mangle.forwards(header)) {
					values.forEach(value -> request.header(header, value));
				}
			});
			try (StaleConnection.Sent<InputStream> sent = StaleConnection.send(client, request.build(),
					HttpResponse.BodyHandlers.ofInputStream(), nanos -> retries.incrementAndGet());
					InputStream in = sent.response().body()) {
				HttpResponse<InputStream> response = sent.response();
				response.headers().map().forEach((header, values) -> {
					if (!HOP_BY_HOP.contains(header.toLowerCase(java.util.Locale.ROOT)) && !header.startsWith(":")
							&& mangle.returns(header)) {
						exchange.getResponseHeaders().put(header, values);
					}
				});
				String type = response.headers().firstValue("Content-Type").orElse("application/json");
				exchange.getResponseHeaders().set("Content-Type", type);
				if (type.startsWith("text/event-stream")) {
					exchange.sendResponseHeaders(mangle.status(response.statusCode()), 0);
					new HopStream(mangle, in, exchange.getResponseBody()).pump();
				}
				else {
					byte[] body = mangle.body(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
					exchange.sendResponseHeaders(mangle.status(response.statusCode()), body.length == 0 ? -1 : body.length);
					exchange.getResponseBody().write(body);
				}
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Requests this hop sent on once more, on a new connection, because the target had closed the kept-alive one
	 * before answering ({@link StaleConnection}; llama.cpp does after every stream).
	 */
	public int retries() {
		return retries.get();
	}

	/** Every request body this hop sent on, in order. */
	public List<String> forwardedBodies() {
		return List.copyOf(forwarded);
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
