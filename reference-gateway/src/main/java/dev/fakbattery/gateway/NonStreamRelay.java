package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireError;
import dev.fakbattery.wire.WireFormatException;
import dev.fakbattery.wire.WireJson;

/**
 * Relays one non-stream upstream answer (HTTP 200): adjudicates it ({@link ResponseAdjudicator}) and, when the
 * request asked for it (or the gateway runs with {@code --record-on-wire}), adds the record as
 * {@code "adjudication"}. A body that is not a JSON object, or whose tool calls are malformed, is
 * answered 502; an error-shaped body passes through unchanged.
 */
final class NonStreamRelay {

	private NonStreamRelay() {
	}

	static void relay(HttpExchange exchange, InputStream upstreamBody, CallAdjudicator adjudicator,
			AdjudicationRecord record, boolean recordOnWire, Dialect engine, GatewayMetrics metrics) throws IOException {
		byte[] body;
		try (upstreamBody) {
			body = upstreamBody.readAllBytes();
		}
		catch (IOException e) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, UpstreamFailure.of(e, "upstream response truncated: " + Upstream.describe(e)).error());
			return;
		}
		JsonNode json = WireJson.read(new String(body, StandardCharsets.UTF_8)).orElse(null);
		if (!(json instanceof ObjectNode response)) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, OpenAiError.badGateway("upstream response is not a JSON object"));
			return;
		}
		if (WireError.of(response).isPresent()) {
			metrics.upstreamError();
			Exchanges.send(exchange, 200, Exchanges.JSON, body);
			return;
		}
		try {
			ResponseAdjudicator.adjudicate(response, adjudicator, engine);
		}
		catch (WireFormatException e) {
			metrics.upstreamError();
			Exchanges.sendError(exchange, OpenAiError.badGateway("upstream response is malformed: " + e.getMessage()));
			return;
		}
		if (recordOnWire) {
			response.set(AdjudicationRecord.KEY, record.toJson());
		}
		Exchanges.sendJson(exchange, 200, response);
	}
}
