package dev.fakbattery.core.target;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.process.PortListeners;
import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;

/**
 * Asks the engine at a base URL who it is, the one way every rung does, and reads the content of each answer, never
 * just which path answered: {@code GET /models} (served models, {@code owned_by}, context length, {@code Server}
 * header), SGLang's {@code /get_server_info} and vLLM's {@code /version} (each a {@code version} that reads as a version:
 * digits, a dot, digits, as {@link #VERSION}), llama.cpp's {@code /props} ({@code build_info}), and {@code /metrics}
 * (engine metric families: {@code vllm:}, {@code sglang:}, {@code llamacpp:}). A {@code /version} of that shape names vLLM
 * only where no engine's own info endpoint answered ({@code /get_server_info}, {@code /props}), as any server may serve
 * one. When none of these names an engine (a proxy that serves only {@code /v1}), one chat request of one token asks the
 * first served model, and its {@code system_fingerprint} ({@code vllm-<version>[-tpN]-<hash8>}, llama.cpp's
 * {@code b<build>-<commit>}), {@code model} and {@code id} are read (an id carrying the engine double's id mark names the
 * dialect the double answered in by its shape, {@link EngineDoubleMarker#answerIdDialect}). The engine is identified only when every piece of evidence
 * names the same engine ({@link TargetIdentity#identifiedBy}); evidence naming two engines identifies none
 * ({@link TargetIdentity#conflict}). {@code owned_by} is recorded, never trusted. Every request and its answer is
 * recorded ({@link TargetIdentity#probed}). The engine double is recognised here and nowhere else, by its marks
 * wherever they appear: a version, the {@code Server} header, the {@code /metrics} comment, the
 * {@code system_fingerprint}, the id mark of the chat answer's {@code id} (in either dialect; SGLang sends no
 * {@code system_fingerprint}) ({@link EngineDoubleMarker#evidence}). One probe per base URL, origin and listening server
 * per JVM: the answer is cached, and on a loopback URL the cache is keyed by the sockets listening on its port too
 * ({@link PortListeners#sockets}), so a server started since on a port handed out again (a rung's engine double stopped,
 * another server on the freed port) is asked again, never answered for by its predecessor.
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

	/**
	 * What a version looks like: digits, a dot, digits, then anything a release or build adds ({@code 0.11.0},
	 * {@code 0.23.1rc1.dev1029+ga601a9d99}, {@code 0.29.0+engine-double}); a {@code version} field that is not one
	 * identifies nothing.
	 */
	static final Pattern VERSION = Pattern.compile("v?\\d+\\.\\d+[0-9A-Za-z.+_-]*");

	/** vLLM's {@code system_fingerprint}: {@code vllm-<version>[-tpN...]-<hash8>}. */
	private static final Pattern VLLM_FINGERPRINT = Pattern.compile("vllm-(.+?)(?:-tp\\d+\\S*?)?-[0-9a-f]{8}");

	/** llama.cpp's {@code system_fingerprint}: {@code b<build number>-<commit>}, as its {@code /props} {@code build_info}. */
	private static final Pattern LLAMA_CPP_FINGERPRINT = Pattern.compile("b\\d+-[0-9a-f]+");

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
		List<Evidence> evidence = new ArrayList<>();
		Reply models = get(http, baseUrl + "/models", apiKey);
		JsonNode list = models.json();
		List<String> served = new ArrayList<>();
		list.path("data").forEach(card -> served.add(card.path("id").asText()));
		JsonNode card = list.path("data").path(0);
		String ownedBy = card.path("owned_by").isTextual() ? card.path("owned_by").asText() : null;
		probed.add("GET /v1/models: " + models.describe() + (ownedBy == null ? "" : ", owned_by " + ownedBy));
		Integer context = number(card.path("max_model_len")).or(() -> number(card.path("meta").path("n_ctx"))).orElse(null);
		String toolParser = null;
		String server = models.server().orElse(null);
		List<String> versions = new ArrayList<>();
		Map<Evidence, JsonNode> answers = new LinkedHashMap<>();
		for (String[] endpoint : VERSION_ENDPOINTS) {
			Reply reply = get(http, root + endpoint[0], apiKey);
			String reported = reply.json().path(endpoint[1]).asText("");
			boolean answered = reply.status() == 200 && !reported.isBlank();
			boolean shaped = answered
					&& (!endpoint[2].equals("vllm") && !endpoint[2].equals("sglang") || VERSION.matcher(reported).matches());
			probed.add("GET " + endpoint[0] + ": " + reply.describe() + (answered ? ", " + endpoint[1] + " " + reported : "")
					+ (answered && !shaped ? " (not a version)" : ""));
			versions.add(answered ? reported : null);
			if (server == null) {
				server = reply.server().orElse(null);
			}
			if (shaped) {
				answers.put(new Evidence(endpoint[2], reported, "GET " + endpoint[0] + ": " + endpoint[1] + " " + reported), reply.json());
			}
		}
		if (answers.size() > 1) {
			// an engine's own info endpoint answered: the /version of the same shape any server may serve names nothing
			answers.keySet().removeIf(found -> found.line().startsWith("GET /version:"));
		}
		for (JsonNode answer : answers.values()) {
			if (toolParser == null && answer.path("tool_call_parser").isTextual()) {
				toolParser = answer.path("tool_call_parser").asText();
			}
			if (context == null) {
				context = number(answer.path("context_length"))
						.or(() -> number(answer.path("default_generation_settings").path("n_ctx")))
						.orElse(null);
			}
		}
		evidence.addAll(answers.keySet());
		Reply metrics = get(http, root + "/metrics", apiKey);
		List<String> families = new ArrayList<>();
		String gatewayEvidence = null;
		for (String[] prefix : metrics.status() == 200 ? METRIC_PREFIXES : new String[0][]) {
			long count = familyCount(metrics.body(), prefix[0], families);
			if (count > 0) {
				evidence.add(new Evidence(prefix[1], null, "GET /metrics: " + count + " metric families named " + prefix[0] + "*"));
			}
		}
		for (String[] prefix : metrics.status() == 200 ? GATEWAY_METRIC_PREFIXES : new String[0][]) {
			long count = familyCount(metrics.body(), prefix[0], families);
			if (count > 0 && gatewayEvidence == null) {
				gatewayEvidence = "GET /metrics: " + count + " metric families named " + prefix[0] + "* (" + prefix[1] + "'s)";
			}
		}
		probed.add("GET /metrics: " + metrics.describe() + (families.isEmpty() ? "" : ", " + String.join(", ", families)));
		String doubleVersion = versions.stream().filter(v -> v != null && v.contains("engine-double")).findFirst().orElse(null);
		String metricsPage = metrics.status() == 200 ? metrics.body() : null;
		String fingerprint = null;
		String answerId = null;
		if (evidence.isEmpty() && gatewayEvidence == null && !served.isEmpty()
				&& EngineDoubleMarker.evidence(doubleVersion, server, metricsPage).isEmpty()) {
			Reply chat = post(http, baseUrl + "/chat/completions", tinyChat(served.getFirst()), apiKey);
			JsonNode answer = chat.json();
			fingerprint = chat.status() == 200 && answer.path("system_fingerprint").isTextual()
					? answer.path("system_fingerprint").asText()
					: null;
			answerId = chat.status() == 200 && answer.path("id").isTextual() ? answer.path("id").asText() : null;
			String model = answer.path("model").isTextual() ? answer.path("model").asText() : null;
			probed.add("POST /v1/chat/completions (max_tokens 1): " + chat.describe() + (answerId == null ? "" : ", id " + answerId)
					+ (model == null ? "" : ", model " + model) + (fingerprint == null ? "" : ", system_fingerprint " + fingerprint));
			fingerprintEvidence(fingerprint, model).ifPresent(evidence::add);
			idEvidence(answerId, model).ifPresent(evidence::add);
			if (server == null) {
				server = chat.server().orElse(null);
			}
		}
		if (server != null) {
			probed.add("Server header: " + server);
		}
		List<String> kinds = evidence.stream().map(Evidence::kind).distinct().toList();
		String kind = kinds.size() == 1 ? kinds.getFirst() : null;
		String conflict = kinds.size() > 1
				? evidence.stream().map(e -> e.line() + " says " + e.kind()).collect(Collectors.joining("; "))
				: null;
		String version = kind == null ? null : evidence.stream().map(Evidence::version).filter(v -> v != null).findFirst().orElse(null);
		List<String> identifiedBy = kind == null ? List.of() : evidence.stream().map(Evidence::line).toList();
		String doubled = EngineDoubleMarker.evidence(doubleVersion, server, metricsPage, fingerprint, answerId).orElse(null);
		if (doubled == null && TargetIdentity.EMBEDDED.equals(origin)) {
			doubled = "it was started in this JVM as the embedded engine double";
		}
		String problem = models.status() == 0
				? "GET " + baseUrl + "/models got no response: " + models.body()
				: models.status() != 200
						? "GET " + baseUrl + "/models answered HTTP " + models.status()
						: served.isEmpty() ? "GET " + baseUrl + "/models answered no data[].id" : null;
		return new TargetIdentity(origin, baseUrl, kind, version, served, context, server, doubled, problem, ownedBy, toolParser,
				identifiedBy, probed, null, gatewayEvidence, conflict);
	}

	/**
	 * What the {@code system_fingerprint} of a {@code /v1} answer says: vLLM's {@code vllm-<version>[-tpN]-<hash8>}, llama.cpp's
	 * {@code b<build>-<commit>}; nothing for any other (SGLang sends none).
	 */
	static Optional<Evidence> fingerprintEvidence(String fingerprint, String model) {
		if (fingerprint == null) {
			return Optional.empty();
		}
		String line = "POST /v1/chat/completions" + (model == null ? "" : " (model " + model + ")") + ": system_fingerprint "
				+ fingerprint;
		Matcher vllm = VLLM_FINGERPRINT.matcher(fingerprint);
		if (vllm.matches() && VERSION.matcher(vllm.group(1)).matches()) {
			return Optional.of(new Evidence("vllm", vllm.group(1), line));
		}
		return LLAMA_CPP_FINGERPRINT.matcher(fingerprint).matches()
				? Optional.of(new Evidence("llama.cpp", fingerprint, line))
				: Optional.empty();
	}

	/**
	 * What the {@code id} of a {@code /v1} answer says: the dialect the engine double answered in, where the id carries the
	 * double's id mark in that dialect's id shape ({@link EngineDoubleMarker#answerIdDialect}); nothing for any other id (an
	 * engine's own ids are random).
	 */
	static Optional<Evidence> idEvidence(String answerId, String model) {
		return EngineDoubleMarker.answerIdDialect(answerId)
				.map(dialect -> new Evidence(dialect.id(), null,
						"POST /v1/chat/completions" + (model == null ? "" : " (model " + model + ")")
								+ ": id " + answerId + ", the engine double's id mark in " + dialect + "'s id shape"));
	}

	/** The smallest chat request: one token of the first served model, asked only of a server nothing else identified. */
	private static String tinyChat(String model) {
		ObjectNode request = Json.MAPPER.createObjectNode().put("model", model);
		request.putArray("messages").addObject().put("role", "user").put("content", "hi");
		return request.put("max_tokens", 1).put("stream", false).toString();
	}

	/** One piece of evidence of the engine's kind: the kind, the version it names (null when none) and where it was read. */
	record Evidence(String kind, String version, String line) {
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
		return send(http, HttpRequest.newBuilder(URI.create(url)).GET(), apiKey);
	}

	private static Reply post(HttpClient http, String url, String json, Optional<String> apiKey) {
		return send(http, HttpRequest.newBuilder(URI.create(url))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(json)), apiKey);
	}

	private static Reply send(HttpClient http, HttpRequest.Builder request, Optional<String> apiKey) {
		request.timeout(TIMEOUT);
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
