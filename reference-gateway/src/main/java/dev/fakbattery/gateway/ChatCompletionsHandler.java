package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.StaleConnection;
import dev.fakbattery.wire.WireJson;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * {@code POST /v1/chat/completions}: validates the client request, quarantines flagged tool results (resetting the
 * engine's prefix cache before forwarding), forwards the body (the client's bytes as sent unless a result was
 * quarantined; {@code model} never touched) with {@code Authorization} and {@code X-Request-Id}, and relays the
 * answer: non-200 unchanged (status, body, {@code Content-Type}, {@code Retry-After}), 200 adjudicated as a stream or
 * a whole response. The adjudication record goes to the record log; on the wire only when the request carries
 * {@link GatewayUnderTest#RECORD_HEADER}{@code : include} or the gateway runs with {@code --record-on-wire}.
 */
final class ChatCompletionsHandler implements HttpHandler {

	static final String PATH = "/v1/chat/completions";

	private static final String RETRY_AFTER = "Retry-After";

	private final Upstream upstream;

	private final Policy policy;

	private final Dialect engine;

	private final GatewayMetrics metrics;

	private final boolean recordOnWire;

	private final Consumer<String> recordLog;

	private final Safeguards guards;

	ChatCompletionsHandler(Upstream upstream, Policy policy, Dialect engine, GatewayMetrics metrics, boolean recordOnWire,
			Consumer<String> recordLog, Safeguards guards) {
		this.upstream = upstream;
		this.policy = policy;
		this.engine = engine;
		this.metrics = metrics;
		this.recordOnWire = recordOnWire;
		this.recordLog = recordLog;
		this.guards = guards;
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!PATH.equals(exchange.getRequestURI().getPath())) {
				Exchanges.sendError(exchange, OpenAiError.of("no route " + exchange.getRequestURI().getPath(), "NotFoundError", null, 404));
			}
			else if (!"POST".equals(exchange.getRequestMethod())) {
				exchange.getResponseHeaders().set("Allow", "POST");
				Exchanges.sendError(exchange,
						OpenAiError.of("method " + exchange.getRequestMethod() + " not allowed, use POST", "MethodNotAllowed", null, 405));
			}
			else {
				metrics.request();
				byte[] body = guards.request().readBody(exchange);
				if (body != null) {
					guards.log().body(exchange, body);
					guarded(exchange, body);
				}
			}
		}
	}

	private void guarded(HttpExchange exchange, byte[] body) throws IOException {
		try {
			handleChat(exchange, body);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException e) {
			// a bug, not a wire condition: answer it while nothing was sent rather than reset the connection
			if (exchange.getResponseCode() < 0) {
				Exchanges.sendError(exchange, OpenAiError.of("gateway error: " + Upstream.describe(e), "InternalServerError", null, 500));
			}
		}
	}

	private void handleChat(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
		ObjectNode request = validated(exchange, body);
		if (request == null) {
			return;
		}
		AdjudicationRecord record = new AdjudicationRecord();
		byte[] forward = admitted(exchange, request, body, record);
		if (forward == null) {
			return;
		}
		StaleConnection.Sent<InputStream> sent;
		try {
			sent = upstream.chat(forward, exchange.getRequestHeaders(), metrics::upstreamRetried);
		}
		catch (HttpTimeoutException e) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, UpstreamFailure.of(UpstreamLimitException.notAnswered(
					guards.limits().upstreamTimeout().toMillis()), null).error());
			return;
		}
		catch (IOException e) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, OpenAiError.badGateway("upstream unreachable: " + Upstream.describe(e)));
			return;
		}
		try (sent) {
			answer(exchange, request, record, sent.response());
		}
	}

	private void answer(HttpExchange exchange, ObjectNode request, AdjudicationRecord record, HttpResponse<InputStream> response)
			throws IOException {
		String requestId = response.headers()
				.firstValue(Exchanges.REQUEST_ID)
				.orElse(exchange.getRequestHeaders().getFirst(Exchanges.REQUEST_ID));
		if (requestId != null) {
			exchange.getResponseHeaders().set(Exchanges.REQUEST_ID, requestId);
		}
		response.headers().firstValue("Server").ifPresent(server -> exchange.getResponseHeaders().set("Server", server));
		if (response.statusCode() != 200) {
			passThrough(exchange, response);
			return;
		}
		CallAdjudicator adjudicator = new CallAdjudicator(policy, record, metrics);
		boolean onWire = recordOnWire || GatewayUnderTest.RECORD_REQUESTED.equalsIgnoreCase(
				String.valueOf(exchange.getRequestHeaders().getFirst(GatewayUnderTest.RECORD_HEADER)));
		try {
			if (request.path("stream").booleanValue()) {
				new StreamRelay(exchange, response, adjudicator, record, onWire, metrics, guards.limits().maxEventBytes())
						.relay(guards.stream(response.body()));
			}
			else {
				NonStreamRelay.relay(exchange, guards.whole(response.body()), adjudicator, record, onWire, engine, metrics);
			}
		}
		finally {
			log(record, requestId);
		}
	}

	/** One line per chat completion that decided something: {@code adjudication {"request_id",...,"calls",...}}. */
	private void log(AdjudicationRecord record, String requestId) {
		if (record.isEmpty()) {
			return;
		}
		ObjectNode line = Json.MAPPER.createObjectNode();
		line.put("request_id", requestId);
		line.setAll(record.toJson());
		recordLog.accept(AdjudicationRecord.KEY + " " + WireJson.write(line));
	}

	/** The request as a JSON object with a non-empty {@code messages}, or null after answering 400. */
	private static ObjectNode validated(HttpExchange exchange, byte[] body) throws IOException {
		JsonNode json = WireJson.read(new String(body, StandardCharsets.UTF_8)).orElse(null);
		if (!(json instanceof ObjectNode request)) {
			Exchanges.sendError(exchange, OpenAiError.badRequest("request body is not a JSON object", null));
			return null;
		}
		JsonNode messages = request.get("messages");
		if (messages == null || !messages.isArray() || messages.isEmpty()) {
			Exchanges.sendError(exchange, OpenAiError.badRequest("'messages' must be a non-empty array", "messages"));
			return null;
		}
		return request;
	}

	/**
	 * The bytes to forward: the client's own when no tool result was quarantined, else the rewritten request, once
	 * the engine's prefix cache is reset; null after answering 502 when that reset failed.
	 */
	private byte[] admitted(HttpExchange exchange, ObjectNode request, byte[] body, AdjudicationRecord record)
			throws IOException {
		int quarantined = ResultQuarantine.apply(request, record);
		if (quarantined == 0) {
			return body;
		}
		metrics.quarantined(quarantined);
		String failure = upstream.resetCache();
		metrics.cacheReset(failure == null);
		if (failure != null) {
			Exchanges.sendError(exchange,
					OpenAiError.badGateway("engine prefix cache reset failed after a quarantine, request not forwarded: " + failure));
			return null;
		}
		return WireJson.write(request).getBytes(StandardCharsets.UTF_8);
	}

	/** A non-200 upstream answer goes to the client as it came: status, body, content type. */
	private void passThrough(HttpExchange exchange, HttpResponse<InputStream> response) throws IOException {
		metrics.upstreamError();
		byte[] body;
		try (InputStream in = guards.whole(response.body())) {
			body = in.readAllBytes();
		}
		catch (IOException e) {
			Exchanges.sendError(exchange, UpstreamFailure.of(e, "upstream error answer truncated: " + Upstream.describe(e)).error());
			return;
		}
		response.headers().firstValue(RETRY_AFTER).ifPresent(value -> exchange.getResponseHeaders().set(RETRY_AFTER, value));
		Exchanges.send(exchange, response.statusCode(), response.headers().firstValue("Content-Type").orElse(null), body);
	}
}
