package dev.fakbattery.gateway;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;

/** The routes besides chat: {@code /v1/models} (passed through), {@code /healthz}, {@code /metrics}, and 404s. */
final class InfoHandlers {

	private InfoHandlers() {
	}

	/** {@code GET /v1/models}: the upstream's answer unchanged (status, body, content type). */
	static HttpHandler models(Upstream upstream, GatewayMetrics metrics) {
		return exchange -> {
			try (exchange) {
				if (exactGet(exchange, "/v1/models")) {
					relayModels(exchange, upstream, metrics);
				}
			}
		};
	}

	private static void relayModels(HttpExchange exchange, Upstream upstream, GatewayMetrics metrics) throws IOException {
		HttpResponse<byte[]> response;
		try {
			response = upstream.models(exchange.getRequestHeaders());
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
		if (response.statusCode() != 200) {
			metrics.upstreamError();
		}
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
			Exchanges.sendError(exchange, OpenAiError.of("method " + exchange.getRequestMethod() + " not allowed, use GET", "MethodNotAllowed", null, 405));
			return false;
		}
		return true;
	}

	private static void sendNotFound(HttpExchange exchange) throws IOException {
		Exchanges.sendError(exchange, OpenAiError.of("no route " + exchange.getRequestURI().getPath(), "NotFoundError", null, 404));
	}
}
