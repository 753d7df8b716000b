package dev.fakbattery.bench.serving;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * The serving witness's HTTP calls, each written as fak's sample row
 * ({@code name, status, http_status, body_excerpt, response_excerpt, perf{...}}).
 */
final class ChatProbe {

	record Reply(int status, String body, double seconds, Optional<String> error) {
		Optional<JsonNode> json() {
			return WireJson.read(body);
		}
	}

	private final HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
	private final Optional<String> apiKey;

	ChatProbe(Optional<String> apiKey) {
		this.apiKey = apiKey;
	}

	Reply get(URI url) {
		return send(HttpRequest.newBuilder(url).GET());
	}

	Reply post(URI url, JsonNode body) {
		return send(HttpRequest.newBuilder(url)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body.toString())));
	}

	/** A POST with one more request header, for example the one that asks a gateway for its adjudication record. */
	Reply post(URI url, JsonNode body, String header, String value) {
		return send(HttpRequest.newBuilder(url)
				.header("Content-Type", "application/json")
				.header(header, value)
				.POST(HttpRequest.BodyPublishers.ofString(body.toString())));
	}

	private Reply send(HttpRequest.Builder request) {
		apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
		long started = System.nanoTime();
		try {
			HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(120)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Reply(response.statusCode(), response.body(), (System.nanoTime() - started) / 1e9, Optional.empty());
		}
		catch (IOException e) {
			return new Reply(0, "", (System.nanoTime() - started) / 1e9, Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage()));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return new Reply(0, "", 0, Optional.of("interrupted"));
		}
	}

	static ObjectNode chat(String model, String text) {
		ObjectNode body = Json.MAPPER.createObjectNode().put("model", model);
		body.putArray("messages").addObject().put("role", "user").put("content", text);
		return body.put("max_tokens", 32).put("temperature", 0);
	}

	/** A chat answer is good when it is HTTP 200 with at least one choice. */
	static boolean ok(Reply reply) {
		return reply.status() == 200 && reply.json().map(j -> j.path("choices").size() > 0).orElse(false);
	}

	/** fak's sample row for one chat. */
	static ObjectNode sample(String name, Reply reply) {
		ObjectNode row = Json.MAPPER.createObjectNode()
				.put("name", name)
				.put("status", ok(reply) ? "PASS" : "FAIL")
				.put("http_status", reply.status())
				.put("body_excerpt", excerpt(reply.error().orElse(reply.body()), 2000));
		JsonNode json = reply.json().orElse(Json.MAPPER.missingNode());
		row.put("response_excerpt", excerpt(json.path("choices").path(0).path("message").path("content").asText(""), 500));
		ObjectNode perf = row.putObject("perf").put("duration_s", Math.round(reply.seconds() * 1e6) / 1e6);
		JsonNode usage = json.path("usage");
		if (usage.isObject()) {
			for (String field : new String[]{ "prompt_tokens", "completion_tokens", "total_tokens" }) {
				if (usage.path(field).canConvertToLong() && usage.path(field).isIntegralNumber()) {
					perf.put(field, usage.path(field).asLong());
				}
			}
			perf.put("decode_tps", perSecond(perf.path("completion_tokens"), reply.seconds()));
			perf.put("e2e_total_tps", perSecond(perf.path("total_tokens"), reply.seconds()));
		}
		return row;
	}

	/** {@code tokens / seconds}; null when the engine reported no such count, never 0. */
	private static Double perSecond(JsonNode tokens, double seconds) {
		return tokens.isIntegralNumber() && seconds > 0 ? tokens.asLong() / seconds : null;
	}

	static String excerpt(String text, int max) {
		return text.length() <= max ? text : text.substring(0, max);
	}
}
