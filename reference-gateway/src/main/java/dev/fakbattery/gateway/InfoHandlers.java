package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;

/**
 * The routes besides chat: {@code /v1/models} and the engines' identity endpoints ({@link #IDENTITY_PATHS}) passed
 * through as a faithful proxy would (status, body, content type and the engine's {@code Server} header), the gateway's
 * own {@code /healthz} and {@code /metrics}, and 404s.
 */
final class InfoHandlers {

	/**
	 * The engines' identity endpoints under the server root, relayed so that whoever asks the gateway who serves it
	 * hears the engine: vLLM's {@code /version}, SGLang's {@code /get_server_info}, llama.cpp's {@code /props}.
	 */
	static final List<String> IDENTITY_PATHS = List.of("/version", "/get_server_info", "/props");

	private InfoHandlers() {
	}

	/** {@code GET /v1/models}: the upstream's answer unchanged (status, body, content type, {@code Server}). */
	static HttpHandler models(Upstream upstream, GatewayMetrics metrics) {
		return relay("/v1/models", upstream, metrics);
	}

	/** {@code GET path} (one of {@link #IDENTITY_PATHS}): the upstream's answer at its root, unchanged. */
	static HttpHandler identity(String path, Upstream upstream, GatewayMetrics metrics) {
		return relay(path, upstream, metrics);
	}

	private static HttpHandler relay(String path, Upstream upstream, GatewayMetrics metrics) {
		return exchange -> {
			try (exchange) {
				if (exactGet(exchange, path)) {
					relay(exchange, path, upstream, metrics);
				}
			}
		};
	}

	private static void relay(HttpExchange exchange, String path, Upstream upstream, GatewayMetrics metrics) throws IOException {
		HttpResponse<byte[]> response;
		try {
			response = path.equals("/v1/models")
					? upstream.models(exchange.getRequestHeaders())
					: upstream.rootGet(path, exchange.getRequestHeaders());
		}
		catch (IOException e) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, OpenAiError.badGateway("upstream unreachable: " + Upstream.describe(e)));
			return;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return;
		}
		if (response.statusCode() != 200 && path.equals("/v1/models")) {
			metrics.upstreamError();
		}
		response.headers().firstValue("Server").ifPresent(server -> exchange.getResponseHeaders().set("Server", server));
		Exchanges.send(exchange, response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
				response.body());
	}

	/** {@code GET /healthz}: {@code {"ok":true,"engine":"vllm","upstream":"http://.../v1"}}. */
	static HttpHandler health(Dialect engine, Upstream upstream) {
		return exchange -> {
			try (exchange) {
				if (exactGet(exchange, "/healthz")) {
					ObjectNode health = Json.MAPPER.createObjectNode();
					health.put("ok", true);
					health.put("engine", engine.id());
					health.put("upstream", upstream.base().toString());
					Exchanges.sendJson(exchange, 200, health);
				}
			}
		};
	}

	/** {@code GET /metrics}: {@link GatewayMetrics} as Prometheus text. */
	static HttpHandler metrics(GatewayMetrics metrics) {
		return exchange -> {
			try (exchange) {
				if (exactGet(exchange, "/metrics")) {
					Exchanges.send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8",
							metrics.prometheusText().getBytes(StandardCharsets.UTF_8));
				}
			}
		};
	}

	/** Any other path: an OpenAI-shaped 404. */
	static HttpHandler notFound() {
		return exchange -> {
			try (exchange) {
				sendNotFound(exchange);
			}
		};
	}

	/** Whether this is a GET of exactly {@code path}; otherwise answers 404 or 405 and returns false. */
	private static boolean exactGet(HttpExchange exchange, String path) throws IOException {
		if (!path.equals(exchange.getRequestURI().getPath())) {
			sendNotFound(exchange);
			return false;
		}
		if (!"GET".equals(exchange.getRequestMethod())) {
			exchange.getResponseHeaders().set("Allow", "GET");
			Exchanges.sendError(exchange,
					OpenAiError.of("method " + exchange.getRequestMethod() + " not allowed, use GET", "MethodNotAllowed", null, 405));
			return false;
		}
		return true;
	}

	private static void sendNotFound(HttpExchange exchange) throws IOException {
		Exchanges.sendError(exchange, OpenAiError.of("no route " + exchange.getRequestURI().getPath(), "NotFoundError", null, 404));
	}
}
