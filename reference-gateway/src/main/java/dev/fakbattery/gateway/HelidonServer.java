package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.sun.net.httpserver.HttpContext;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;

/**
 * The gateway's {@code com.sun.net.httpserver} handlers and filters served by the Helidon SE 4 WebServer
 * ({@link HttpFront#HELIDON}): each connection is read by its own virtual thread, which runs the handler too, so a
 * request reaches the handler without a hand-off between threads. Contexts are matched as the JDK server does
 * ({@link ContextServer}), then the context's filters run, then its handler, on a {@link HelidonExchange}. Helidon's
 * own header limit is set above the gateway's so that an oversized header section still reaches {@link RequestLimits}
 * and gets the gateway's OpenAI-shaped 431 (past Helidon's own limit, Helidon answers 400).
 */
final class HelidonServer extends ContextServer {

	/** Helidon logs its start at INFO on stderr; the gateway announces itself. Held so the setting is not collected. */
	private static final Logger HELIDON_LOG = Logger.getLogger("io.helidon");

	static {
		HELIDON_LOG.setLevel(Level.WARNING);
	}

	private final InetSocketAddress requested;

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
		HttpContext context = context(request.path().rawPath());
		if (context == null) {
			response.status(404).send();
			return;
		}
		HelidonExchange exchange = new HelidonExchange(context, request, response);
		try {
			handle(context, exchange);
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
	public InetSocketAddress getAddress() {
		return new InetSocketAddress(requested.getAddress(), server.port());
	}
}
