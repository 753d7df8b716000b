package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;

/**
 * The gateway's {@code com.sun.net.httpserver} handlers and filters served by the Helidon SE 4 WebServer
 * ({@link HttpFront#HELIDON}): each connection is read by its own virtual thread, which runs the handler too, so a
 * request reaches the handler without a hand-off between threads. Contexts are matched as the JDK server does (the
 * longest registered path that prefixes the request path), then the context's filters run, then its handler, on a
 * {@link HelidonExchange}. Helidon's own header limit is set above the gateway's so that an oversized header section
 * still reaches {@link RequestLimits} and gets the gateway's OpenAI-shaped 431.
 */
final class HelidonServer extends HttpServer {

	/** Helidon logs its start at INFO on stderr; the gateway announces itself. Held so the setting is not collected. */
	private static final Logger HELIDON_LOG = Logger.getLogger("io.helidon");

	static {
		HELIDON_LOG.setLevel(Level.WARNING);
	}

	private final InetSocketAddress requested;

	private final List<Context> contexts = new CopyOnWriteArrayList<>();

	private final WebServer server;

	/** Binds {@code address} at once, as the JDK's {@code HttpServer.create} does; requests wait for their contexts. */
	HelidonServer(InetSocketAddress address, int backlog, int maxHeaderBytes) throws IOException {
		this.requested = Objects.requireNonNull(address, "address");
		int headroom = (int) Math.min(Integer.MAX_VALUE - 1, 2L * maxHeaderBytes + 16 * 1024);
		try {
			server = WebServer.builder()
				.host(address.getAddress().getHostAddress())
				.port(address.getPort())
				.backlog(backlog)
				.shutdownHook(false)
				.connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
				.addProtocol(Http1Config.builder().maxHeadersSize(headroom).maxPrologueLength(headroom).build())
				.routing(routing -> routing.any(this::dispatch))
				.build()
				.start();
		}
		catch (RuntimeException e) {
			throw new IOException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
		}
		if (!server.isRunning()) {
			// Helidon logs a failed bind and returns a server that is not running
			server.stop();
			throw new IOException("the Helidon server is not running (address in use?)");
		}
	}

	@Override
	public void bind(InetSocketAddress address, int backlog) {
		throw new UnsupportedOperationException("the Helidon front binds the address it was created with");
	}

	/** Nothing left to do: the server listens from its creation. */
	@Override
	public void start() {
		// bound and serving since the constructor
	}

	private void dispatch(ServerRequest request, ServerResponse response) throws Exception {
		String path = request.path().rawPath();
		Context context = contexts.stream().filter(c -> path.startsWith(c.path)).max(Comparator.comparingInt(c -> c.path.length()))
			.orElse(null);
		if (context == null || context.handler == null) {
			response.status(404).send();
			return;
		}
		HelidonExchange exchange = new HelidonExchange(context, request, response);
		try {
			new Filter.Chain(context.filters, context.handler).doFilter(exchange);
		}
		finally {
			exchange.finish();
		}
	}

	/** Ignored: each connection has its own virtual thread, which runs its handlers. */
	@Override
	public void setExecutor(Executor executor) {
		// the handlers run on the connection's virtual thread
	}

	@Override
	public Executor getExecutor() {
		return null;
	}

	@Override
	public void stop(int delay) {
		server.stop();
	}

	@Override
	public HttpContext createContext(String path, HttpHandler handler) {
		if (contexts.stream().anyMatch(c -> c.path.equals(path))) {
			throw new IllegalArgumentException("context " + path + " already exists");
		}
		Context context = new Context(path, handler);
		contexts.add(context);
		return context;
	}

	@Override
	public HttpContext createContext(String path) {
		return createContext(path, null);
	}

	@Override
	public void removeContext(String path) {
		if (!contexts.removeIf(c -> c.path.equals(path))) {
			throw new IllegalArgumentException("no context " + path);
		}
	}

	@Override
	public void removeContext(HttpContext context) {
		removeContext(context.getPath());
	}

	@Override
	public InetSocketAddress getAddress() {
		return new InetSocketAddress(requested.getAddress(), server.port());
	}

	/** One registered path, its handler and filters. */
	private final class Context extends HttpContext {

		private final String path;

		private final List<Filter> filters = new ArrayList<>();

		private final Map<String, Object> attributes = new HashMap<>();

		private HttpHandler handler;

		private Authenticator authenticator;

		Context(String path, HttpHandler handler) {
			this.path = path;
			this.handler = handler;
		}

		@Override
		public HttpHandler getHandler() {
			return handler;
		}

		@Override
		public void setHandler(HttpHandler handler) {
			this.handler = handler;
		}

		@Override
		public String getPath() {
			return path;
		}

		@Override
		public HttpServer getServer() {
			return HelidonServer.this;
		}

		@Override
		public Map<String, Object> getAttributes() {
			return attributes;
		}

		@Override
		public List<Filter> getFilters() {
			return filters;
		}

		@Override
		public Authenticator setAuthenticator(Authenticator authenticator) {
			Authenticator previous = this.authenticator;
			this.authenticator = authenticator;
			return previous;
		}

		@Override
		public Authenticator getAuthenticator() {
			return authenticator;
		}
	}
}
