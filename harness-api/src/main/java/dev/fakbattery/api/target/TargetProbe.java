package dev.fakbattery.api.target;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * Asks the engine at a base URL who it is, the one way every rung does: {@code GET /models} (served models,
 * {@code owned_by}, context length, {@code Server} header), then the first of SGLang's
 * {@code /get_server_info}, vLLM's {@code /version} and llama.cpp's {@code /props} that answers with a version.
 * The engine double is recognised here and nowhere else ({@link EngineDoubleMarker#evidence}). One probe per
 * base URL and origin per JVM: the answer is cached.
 *
 * @since 0.2
 */
public final class TargetProbe {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Map<String, TargetIdentity> CACHE = new ConcurrentHashMap<>();

	private TargetProbe() {
	}

	/**
	 * The identity of the engine at {@code baseUrl}, reached through {@code origin}.
	 *
	 * @param apiKey sent as a bearer token when present (an engine started with {@code --api-key} asks for it)
	 */
	public static TargetIdentity identify(URI baseUrl, String origin, Optional<String> apiKey) {
		return CACHE.computeIfAbsent(origin + " " + baseUrl, key -> probe(baseUrl, origin, apiKey));
	}

	static TargetIdentity probe(URI baseUrl, String origin, Optional<String> apiKey) {
		try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build()) {
			return probe(http, baseUrl, origin, apiKey);
		}
	}

	private static TargetIdentity probe(HttpClient http, URI baseUrl, String origin, Optional<String> apiKey) {
		String root = baseUrl.toString().substring(0, baseUrl.toString().length() - "/v1".length());
		Reply models = get(http, baseUrl + "/models", apiKey);
		JsonNode list = models.json();
		List<String> served = new ArrayList<>();
		list.path("data").forEach(card -> served.add(card.path("id").asText()));
		JsonNode card = list.path("data").path(0);
		String ownedBy = card.path("owned_by").asText("");
		Integer context = number(card.path("max_model_len")).or(() -> number(card.path("meta").path("n_ctx"))).orElse(null);
		String version = null;
		String kind = kindOwnedBy(ownedBy);
		for (String[] endpoint : new String[][] { { "/get_server_info", "version", "sglang" }, { "/version", "version", "vllm" },
				{ "/props", "build_info", "llama.cpp" } }) {
			Reply reply = get(http, root + endpoint[0], apiKey);
			String reported = reply.json().path(endpoint[1]).asText("");
			if (reply.status() == 200 && !reported.isBlank()) {
				version = reported;
				kind = kind.equals("unknown") ? endpoint[2] : kind;
				if (context == null) {
					context = number(reply.json().path("context_length"))
						.or(() -> number(reply.json().path("default_generation_settings").path("n_ctx"))).orElse(null);
				}
				break;
			}
		}
		String server = models.server().orElse(null);
		String evidence = EngineDoubleMarker.evidence(version, server).orElse(null);
		if (evidence == null && TargetIdentity.EMBEDDED.equals(origin)) {
			evidence = "it was started in this JVM as the embedded engine double";
		}
		String problem = models.status() == 0 ? "GET " + baseUrl + "/models got no response: " + models.body()
				: models.status() != 200 ? "GET " + baseUrl + "/models answered HTTP " + models.status()
						: served.isEmpty() ? "GET " + baseUrl + "/models answered no data[].id" : null;
		return new TargetIdentity(origin, baseUrl, kind, version, served, context, server, evidence, problem);
	}

	private static String kindOwnedBy(String ownedBy) {
		return switch (ownedBy) {
			case "vllm" -> "vllm";
			case "sglang" -> "sglang";
			case "llamacpp" -> "llama.cpp";
			default -> "unknown";
		};
	}

	private static Optional<Integer> number(JsonNode node) {
		return node.canConvertToInt() && node.isNumber() ? Optional.of(node.asInt()) : Optional.empty();
	}

	private record Reply(int status, String body, Optional<String> server) {
		JsonNode json() {
			return WireJson.read(body).orElse(Json.MAPPER.createObjectNode());
		}
	}

	private static Reply get(HttpClient http, String url, Optional<String> apiKey) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET();
		apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
		try {
			HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Reply(response.statusCode(), response.body(), response.headers().firstValue("server"));
		}
		catch (IOException e) {
			return new Reply(0, e.getClass().getSimpleName() + ": " + e.getMessage(), Optional.empty());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return new Reply(0, "interrupted", Optional.empty());
		}
	}
}
