package dev.fakbattery.core.target;

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

import dev.fakbattery.core.process.PortListeners;
import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;

/**
 * Asks the engine at a base URL who it is, the one way every rung does: {@code GET /models} (served models,
 * {@code owned_by}, context length, {@code Server} header), then SGLang's {@code /get_server_info}, vLLM's
 * {@code /version} and llama.cpp's {@code /props} (the first that answers with a version names the engine and its
 * version), and {@code /metrics} (engine metric families: {@code vllm:}, {@code sglang:}, {@code llamacpp:}). Only a
 * version from an engine's own endpoint or its metric families identify it ({@link TargetIdentity#identifiedBy});
 * {@code owned_by} is recorded, never trusted. Every request and its answer is recorded
 * ({@link TargetIdentity#probed}). The engine double is recognised here and nowhere else
 * ({@link EngineDoubleMarker#evidence}). One probe per base URL, origin and listening server per JVM: the answer is
 * cached, and on a loopback URL the cache is keyed by the sockets listening on its port too ({@link PortListeners#sockets}),
 * so a server started since on a port handed out again (a rung's engine double stopped, another server on the freed
 * port) is asked again, never answered for by its predecessor.
 *
 * @since 0.2
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class TargetProbe {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Map<String, TargetIdentity> CACHE = new ConcurrentHashMap<>();

	/** The version endpoints, in the order asked: path, version field, engine kind. */
	private static final String[][] VERSION_ENDPOINTS = { { "/get_server_info", "version", "sglang" }, { "/version", "version", "vllm" },
		{ "/props", "build_info", "llama.cpp" } };

	/** Metric family prefixes and the engine they name. */
	private static final String[][] METRIC_PREFIXES = { { "vllm:", "vllm" }, { "sglang:", "sglang" }, { "llamacpp:", "llama.cpp" } };

	/**
	 * Metric family prefixes a gateway, never an engine, serves on its {@code /metrics}, and the gateway they name: the
	 * reference gateway's and fak's {@code fak_gateway_}, LiteLLM's proxy {@code litellm_}.
	 */
	private static final String[][] GATEWAY_METRIC_PREFIXES = { { "fak_gateway_", "the fak reference gateway" },
		{ "litellm_", "the LiteLLM proxy" } };

	private TargetProbe() {
	}

	/**
	 * The identity of the engine at {@code baseUrl}, reached through {@code origin}.
	 *
	 * @param apiKey sent as a bearer token when present (an engine started with {@code --api-key} asks for it)
	 */
	public static TargetIdentity identify(URI baseUrl, String origin, Optional<String> apiKey) {
		return CACHE.computeIfAbsent(origin + " " + baseUrl + listeners(baseUrl), key -> probe(baseUrl, origin, apiKey));
	}

	/** The sockets listening on a loopback URL's port now ({@code " [socket:[N]]"}); empty for any other URL, or off Linux. */
	static String listeners(URI baseUrl) {
		String host = baseUrl.getHost();
		boolean loopback = host != null
				&& (host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]") || host.equals("::1"));
		int port = baseUrl.getPort();
		return loopback && port > 0 ? PortListeners.sockets(port).map(sockets -> " " + sockets).orElse("") : "";
	}

	static TargetIdentity probe(URI baseUrl, String origin, Optional<String> apiKey) {
		try (HttpClient http = HttpClients.http11(TIMEOUT)) {
			return probe(http, baseUrl, origin, apiKey);
		}
	}

	private static TargetIdentity probe(HttpClient http, URI baseUrl, String origin, Optional<String> apiKey) {
		String root = baseUrl.toString().substring(0, baseUrl.toString().length() - "/v1".length());
		List<String> probed = new ArrayList<>();
		List<String> identifiedBy = new ArrayList<>();
		Reply models = get(http, baseUrl + "/models", apiKey);
		JsonNode list = models.json();
		List<String> served = new ArrayList<>();
		list.path("data").forEach(card -> served.add(card.path("id").asText()));
		JsonNode card = list.path("data").path(0);
		String ownedBy = card.path("owned_by").isTextual() ? card.path("owned_by").asText() : null;
		probed.add("GET /v1/models: " + models.describe() + (ownedBy == null ? "" : ", owned_by " + ownedBy));
		Integer context = number(card.path("max_model_len")).or(() -> number(card.path("meta").path("n_ctx"))).orElse(null);
		String version = null;
		String kind = null;
		String toolParser = null;
		String server = models.server().orElse(null);
		for (String[] endpoint : VERSION_ENDPOINTS) {
			Reply reply = get(http, root + endpoint[0], apiKey);
			String reported = reply.json().path(endpoint[1]).asText("");
			boolean answered = reply.status() == 200 && !reported.isBlank();
			probed.add("GET " + endpoint[0] + ": " + reply.describe() + (answered ? ", " + endpoint[1] + " " + reported : ""));
			if (server == null) {
				server = reply.server().orElse(null);
			}
			if (!answered || kind != null) {
				continue;
			}
			version = reported;
			kind = endpoint[2];
			identifiedBy.add("GET " + endpoint[0] + ": " + endpoint[1] + " " + reported);
			if (reply.json().path("tool_call_parser").isTextual()) {
				toolParser = reply.json().path("tool_call_parser").asText();
			}
			if (context == null) {
				context = number(reply.json().path("context_length"))
						.or(() -> number(reply.json().path("default_generation_settings").path("n_ctx")))
						.orElse(null);
			}
		}
		Reply metrics = get(http, root + "/metrics", apiKey);
		List<String> families = new ArrayList<>();
		String metricsKind = null;
		String gatewayEvidence = null;
		for (String[] prefix : metrics.status() == 200 ? METRIC_PREFIXES : new String[0][]) {
			long count = familyCount(metrics.body(), prefix[0], families);
			if (count > 0) {
				metricsKind = metricsKind == null ? prefix[1] : metricsKind;
				identifiedBy.add("GET /metrics: " + count + " metric families named " + prefix[0] + "*");
			}
		}
		for (String[] prefix : metrics.status() == 200 ? GATEWAY_METRIC_PREFIXES : new String[0][]) {
			long count = familyCount(metrics.body(), prefix[0], families);
			if (count > 0 && gatewayEvidence == null) {
				gatewayEvidence = "GET /metrics: " + count + " metric families named " + prefix[0] + "* (" + prefix[1] + "'s)";
			}
		}
		probed.add("GET /metrics: " + metrics.describe() + (families.isEmpty() ? "" : ", " + String.join(", ", families)));
		kind = kind != null ? kind : metricsKind;
		if (server != null) {
			probed.add("Server header: " + server);
		}
		String evidence = EngineDoubleMarker.evidence(version, server, metrics.status() == 200 ? metrics.body() : null).orElse(null);
		if (evidence == null && TargetIdentity.EMBEDDED.equals(origin)) {
			evidence = "it was started in this JVM as the embedded engine double";
		}
		String problem = models.status() == 0
				? "GET " + baseUrl + "/models got no response: " + models.body()
				: models.status() != 200
						? "GET " + baseUrl + "/models answered HTTP " + models.status()
						: served.isEmpty() ? "GET " + baseUrl + "/models answered no data[].id" : null;
		return new TargetIdentity(origin, baseUrl, kind, version, served, context, server, evidence, problem, ownedBy, toolParser,
				identifiedBy, probed, null, gatewayEvidence);
	}

	/** How many metric families of {@code page} are named {@code prefix}*, listed in {@code families} when any. */
	private static long familyCount(String page, String prefix, List<String> families) {
		long count = page.lines().filter(line -> line.startsWith(prefix)).map(TargetProbe::family).distinct().count();
		if (count > 0) {
			families.add(count + " " + prefix + " families");
		}
		return count;
	}

	/** The metric name of a sample line, without labels and the histogram/summary suffixes. */
	private static String family(String line) {
		int end = line.length();
		for (char stop : new char[]{ '{', ' ' }) {
			int at = line.indexOf(stop);
			end = at >= 0 ? Math.min(end, at) : end;
		}
		return line.substring(0, end).replaceAll("_(bucket|sum|count|total|created)$", "");
	}

	private static Optional<Integer> number(JsonNode node) {
		return node.canConvertToInt() && node.isNumber() ? Optional.of(node.asInt()) : Optional.empty();
	}

	private record Reply(int status, String body, Optional<String> server) {
		JsonNode json() {
			return WireJson.read(body).orElse(Json.MAPPER.createObjectNode());
		}

		String describe() {
			return status == 0 ? "no response (" + body + ")" : "HTTP " + status;
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
