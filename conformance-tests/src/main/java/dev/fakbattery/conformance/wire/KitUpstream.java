package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * The kit's upstream: a replay of one engine's recorded wire (fixtures/wire) for each {@link Scenario} (and for each
 * captured answer the kit was given), remembering what it received, served by {@link KitFront}, which also plays the
 * timed streams. A request gets the answer of the first stub that matches it, lowest priority first and, within a
 * priority, the one added last (WireMock's order, which the kit used until its relay hop cost a fifth of a kit run's
 * CPU, issue [14]); a chat request the engine could not read (not JSON, not an object, no {@code messages}) gets the
 * engine's own 400 in its dialect, so a gateway that relays bad input is judged on the engine's answer; a request no
 * stub matches gets a 404 naming it.
 */
final class KitUpstream implements AutoCloseable {

	static final String CHAT = "/v1/chat/completions";

	/** Retry-After sent with the 429 fixtures. */
	static final String RETRY_AFTER = "7";

	/**
	 * A request as the upstream received it.
	 *
	 * @param method the HTTP method
	 * @param uri the request URI, path and query
	 * @param headers the headers, names case-insensitive
	 * @param body the body, UTF-8
	 */
	record Received(String method, String uri, com.sun.net.httpserver.Headers headers, String body) {

		/** The first value of header {@code name}, any case; {@code null} when absent. */
		String header(String name) {
			return headers.getFirst(name);
		}
	}

	/**
	 * A canned answer.
	 *
	 * @param status the HTTP status
	 * @param contentType the Content-Type, {@code null} for none
	 * @param body the body
	 * @param headers further headers
	 */
	record Answer(int status, String contentType, String body, Map<String, String> headers) {

		static Answer json(int status, String body) {
			return new Answer(status, "application/json", body, Map.of());
		}

		static Answer sse(String body) {
			return new Answer(200, "text/event-stream", body, Map.of());
		}

		Answer withHeader(String name, String value) {
			return new Answer(status, contentType, body, Map.of(name, value));
		}
	}

	/** When a stub answers: method and URI equal, the body holds {@code marker + " "}, and the JSON conditions hold. */
	private record Stub(int priority, long order, String method, String uri, String marker, boolean streaming, boolean noMessages,
			Answer answer) {

		boolean matches(Received request, JsonNode json) {
			return method.equals(request.method()) && uri.equals(request.uri())
					&& (marker == null || request.body().contains(marker + " "))
					&& (!streaming || json.path("stream").asText().equals("true"))
					&& (!noMessages || json.path("messages").isArray() && json.path("messages").isEmpty());
		}
	}

	private static final Comparator<Stub> ORDER = Comparator.comparingInt(Stub::priority)
			.thenComparing(Stub::order, Comparator.reverseOrder());

	private final Dialect engine;

	private final AtomicLong added = new AtomicLong();

	private volatile List<Stub> stubs = List.of();

	private final List<Received> journal = new CopyOnWriteArrayList<>();

	/** What each received request was answered with (by identity: two requests may be equal). */
	private final Map<Received, Answer> answered = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

	private final KitFront front;

	/** An upstream for {@code engine}; with {@code scenarios}, replaying the kit's own fixtures too (the dialects of {@link WireConformanceKit#KIT_DIALECTS}). */
	KitUpstream(Dialect engine, int port, boolean scenarios) {
		this.engine = engine;
		stubAll(scenarios);
		this.front = new KitFront(engine, this::answer, port);
	}

	private void stubAll(boolean scenarios) {
		String errorFixture = engine + "/error-400";
		stub(5, "GET", "/v1/models", null, false, false, Answer.json(200, KitFixtures.read(engine + "/models.json")));
		stub(5, "POST", "/reset_prefix_cache", null, false, false, new Answer(200, null, "", Map.of()));
		stub(5, "POST", "/flush_cache", null, false, false, new Answer(200, null, "", Map.of()));
		stub(9, "POST", CHAT, null, false, true, Answer.json(400, KitFixtures.read(errorFixture + ".json")));
		if (!scenarios) {
			return;
		}
		for (Scenario scenario : Scenario.values()) {
			stub(2, "POST", CHAT, scenario.marker(), false, false, nonStream(scenario));
			stub(1, "POST", CHAT, scenario.marker(), true, false, stream(scenario));
		}
		stub(1, "POST", CHAT, "kit:error500", false, false, Answer.json(500, error500()));
		for (String error : errorFixtures()) {
			Answer answer = Answer.json(status(error), KitFixtures.read(error + ".json"));
			stub(1, "POST", CHAT, errorMarker(error), false, false,
					status(error) == 429 ? answer.withHeader("Retry-After", RETRY_AFTER) : answer);
		}
	}

	private synchronized void stub(int priority, String method, String uri, String marker, boolean streaming, boolean noMessages,
			Answer answer) {
		stubs = Stream.concat(stubs.stream(),
				Stream.of(new Stub(priority, added.incrementAndGet(), method, uri, marker, streaming, noMessages, answer)))
				.sorted(ORDER)
				.toList();
	}

	/**
	 * Replays a captured answer for requests carrying {@code marker}: {@code sse} when streaming, else {@code json}; an
	 * answer whose status is not 200 (the engine's error) as a JSON body with that status.
	 */
	void stubCapture(String marker, String sse, int sseStatus, String json, int jsonStatus) {
		if (json != null) {
			stub(2, "POST", CHAT, marker, false, false, Answer.json(jsonStatus, json));
		}
		if (sse != null) {
			stub(1, "POST", CHAT, marker, true, false, sseStatus == 200 ? Answer.sse(sse) : Answer.json(sseStatus, sse));
		}
	}

	/**
	 * Records {@code request} and answers it: a chat request whose body is not JSON, not an object or has no
	 * {@code messages} list with the engine's own 400 ({@link #invalid}), else the first stub that matches, else a 404
	 * naming the request.
	 */
	private Answer answer(Received request) {
		journal.add(request);
		Optional<JsonNode> parsed = WireJson.read(request.body());
		JsonNode json = parsed.orElse(MissingNode.getInstance());
		Answer answer = invalid(request, parsed)
				.or(() -> stubs.stream().filter(stub -> stub.matches(request, json)).findFirst().map(Stub::answer))
				.orElseGet(() -> Answer.json(404, "{\"error\": {\"message\": \"the kit's " + engine + " upstream has no answer for "
						+ request.method() + " " + request.uri().replace("\"", "'") + "\", \"type\": \"kit_no_fixture\"}}"));
		answered.put(request, answer);
		return answer;
	}

	/** The pydantic words both engines answer a chat body that is not JSON with (engine-double's {@code EngineRequest}). */
	static final String NOT_JSON = "JSON decode error";

	/**
	 * The engine's 400 for a chat request it cannot read, as the engine answers it before any model runs: a body that is not
	 * JSON, not a JSON object, or without a {@code messages} list. Empty for a request the engine would read.
	 */
	private Optional<Answer> invalid(Received request, Optional<JsonNode> json) {
		if (!request.method().equals("POST") || !request.uri().equals(CHAT)) {
			return Optional.empty();
		}
		if (json.isEmpty()) {
			return Optional.of(Answer.json(400, error400(NOT_JSON)));
		}
		if (!json.get().isObject()) {
			return Optional.of(Answer.json(400, error400("Input should be a valid dictionary or object to extract fields from")));
		}
		if (!json.get().path("messages").isArray()) {
			return Optional.of(Answer.json(400, error400(
					"1 validation error:\n  {'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required'}")));
		}
		return Optional.empty();
	}

	/** The 400 this engine answers a chat body that is not JSON with. */
	String badInput400() {
		return error400(NOT_JSON);
	}

	/**
	 * A request-validation 400 in this engine's dialect (fixtures/wire/NOTES.md, "Errors"; engine-double's
	 * {@code errorBody}): vLLM nested with {@code BadRequestError}, SGLang flat with {@code "Bad Request"}, llama.cpp nested
	 * with {@code invalid_request_error}.
	 */
	String error400(String message) {
		ObjectNode body = Json.MAPPER.createObjectNode();
		switch (engine) {
			case SGLANG -> body.put("object", "error").put("message", message).put("type", "Bad Request").putNull("param").put("code", 400);
			case LLAMACPP -> body.putObject("error").put("code", 400).put("message", message).put("type", "invalid_request_error");
			default -> body.putObject("error").put("message", message).put("type", "BadRequestError").putNull("param").put("code", 400);
		}
		return WireJson.write(body);
	}

	/**
	 * The HTTP status the upstream answered the first chat request carrying {@code nonce} with (a timed stream the front
	 * played itself: 200); empty if none arrived.
	 */
	Optional<Integer> answeredStatus(String nonce) {
		if (front.played(nonce)) {
			return Optional.of(200);
		}
		return received(nonce).map(answered::get).map(Answer::status);
	}

	/** The body of the kit's 500: this engine's 400 body with its status changed. */
	String error500() {
		return KitFixtures.read(engine + "/error-400.json").replace("400", "500");
	}

	/** The error bodies this engine is known to send, as paths under fixtures/wire without extension. */
	List<String> errorFixtures() {
		return Stream.concat(
				Stream.of("error-400", "error-400-legacy", "error-404-model", "error-400-validation").map(name -> engine + "/" + name),
				Stream.of("error-401", "error-429", "error-503").map(name -> "kit/" + engine + "/" + name))
				.filter(name -> KitFixtures.exists(name + ".json"))
				.toList();
	}

	static String errorMarker(String errorFixture) {
		return "kit:error:" + errorFixture.substring(errorFixture.lastIndexOf('/') + 1);
	}

	static int status(String errorFixture) {
		return Integer.parseInt(errorFixture.replaceAll("^.*error-(\\d{3}).*$", "$1"));
	}

	private Answer nonStream(Scenario scenario) {
		String body = KitFixtures.read(scenario.fixture(engine, false));
		return switch (scenario) {
			case TRUNCATED -> Answer.json(200, body.substring(0, body.length() / 2));
			case MALFORMED -> Answer.json(200, "<html><body>upstream exploded</body></html>");
			default -> Answer.json(200, body);
		};
	}

	private Answer stream(Scenario scenario) {
		String sse = KitFixtures.read(scenario.fixture(engine, true));
		return switch (scenario) {
			case TRUNCATED -> Answer.sse(cutInsideFirstArguments(sse));
			case MALFORMED -> Answer.sse(firstEvents(sse, 2) + "data: {\"id\": \"x\", \"choices\": [\n\n");
			default -> Answer.sse(sse);
		};
	}

	/** The stream cut right after the first non-empty argument fragment: no call is complete. */
	static String cutInsideFirstArguments(String sse) {
		String[] events = sse.split("\n\n");
		StringBuilder out = new StringBuilder();
		for (String event : events) {
			out.append(event).append("\n\n");
			if (event.matches("(?s).*\"arguments\":\"[^\"\\\\].*") || event.matches("(?s).*\"arguments\":\"\\\\\".*")) {
				return out.toString();
			}
		}
		throw new IllegalStateException("no argument fragment to cut inside");
	}

	private static String firstEvents(String sse, int n) {
		String[] events = sse.split("\n\n");
		StringBuilder out = new StringBuilder();
		for (int i = 0; i < n && i < events.length; i++) {
			out.append(events[i]).append("\n\n");
		}
		return out.toString();
	}

	/** What a gateway under test is pointed at: the front, ending in /v1. */
	URI url() {
		return URI.create("http://127.0.0.1:" + front.port() + "/v1");
	}

	Dialect engine() {
		return engine;
	}

	/** The first chat request the upstream received that carries {@code nonce}. */
	Optional<Received> received(String nonce) {
		return journal.stream().filter(r -> r.method().equals("POST") && r.uri().equals(CHAT) && r.body().contains(nonce)).findFirst();
	}

	/** When the events of the paced stream for {@code nonce} left the upstream (nanoTime), in order. */
	List<Long> pacedWrites(String nonce) {
		return front.written(nonce);
	}

	int cacheResets() {
		return (int) journal.stream().filter(r -> r.method().equals("POST") && r.uri().equals(engine.cacheResetPath())).count();
	}

	@Override
	public void close() {
		front.close();
	}
}
