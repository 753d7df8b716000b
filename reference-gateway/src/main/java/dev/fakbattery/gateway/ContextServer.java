package dev.fakbattery.gateway;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * What every front that is not the JDK's own server needs to serve the gateway's {@code com.sun.net.httpserver}
 * handlers: the registered contexts, matched as the JDK server matches them (the longest registered path that prefixes
 * the request path), and running a context's filters, then its handler, on an exchange.
 */
abstract class ContextServer extends HttpServer {

	private final List<Context> contexts = new CopyOnWriteArrayList<>();

	/** The context that serves {@code path}, or null when none does (404). */
	final HttpContext context(String path) {
		return contexts.stream()
				.filter(c -> path.startsWith(c.path) && c.handler != null)
				.max(Comparator.comparingInt(c -> c.path.length()))
				.orElse(null);
	}

	/** Runs {@code context}'s filters, then its handler, on {@code exchange}. */
	static void handle(HttpContext context, HttpExchange exchange) throws java.io.IOException {
		new Filter.Chain(context.getFilters(), context.getHandler()).doFilter(exchange);
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

	/** One registered path, its handler and filters. */
	private final class Context extends HttpContext {

		private final String path;

		private final List<Filter> filters = new ArrayList<>();

		private final Map<String, Object> attributes = new HashMap<>();

		private volatile HttpHandler handler;

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
			return ContextServer.this;
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
