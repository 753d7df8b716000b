package dev.fakbattery.engine;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import dev.fakbattery.wire.EngineDoubleMarker;

/**
 * Exact-path routing for the one context the double registers; records every request first. Unknown paths and
 * methods get FastAPI's {@code {"detail":...}} bodies, as both engines send them.
 *
 * @since 0.1
 */
final class Router implements HttpHandler {

	/** A route target; {@code arrival} is {@link System#nanoTime()} when the handler started. */
	interface Endpoint {
		void handle(HttpExchange exchange, byte[] body, long arrival) throws IOException;
	}

	private record Route(Set<String> methods, Endpoint endpoint) {
	}

	private final Map<String, Route> routes = new HashMap<>();

	private final RequestLog log;

	Router(RequestLog log) {
		this.log = log;
	}

	Router route(String path, Set<String> methods, Endpoint endpoint) {
		routes.put(path, new Route(Set.copyOf(methods), endpoint));
		return this;
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		long arrival = System.nanoTime();
		byte[] body = exchange.getRequestBody().readAllBytes();
		log.record(exchange, body);
		exchange.getResponseHeaders().set("Server", EngineDoubleMarker.SERVER);
		Route route = routes.get(exchange.getRequestURI().getPath());
		if (route == null) {
			Http.send(exchange, 404, Http.JSON, "{\"detail\":\"Not Found\"}");
		}
		else if (!route.methods().contains(exchange.getRequestMethod())) {
			Http.send(exchange, 405, Http.JSON, "{\"detail\":\"Method Not Allowed\"}");
		}
		else {
			route.endpoint().handle(exchange, body, arrival);
		}
	}
}
