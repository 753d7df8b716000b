package dev.fakbattery.conformance.wire;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import dev.fakbattery.wire.Dialect;

/**
 * The kit's upstream: a WireMock server on loopback replaying one engine's recorded wire (fixtures/wire) for each
 * {@link Scenario} (and for each captured answer the kit was given), remembering what it received, behind
 * {@link KitFront}, which plays the timed streams and relays the rest.
 */
final class KitUpstream implements AutoCloseable {

	static final String CHAT = "/v1/chat/completions";

	/** Retry-After sent with the 429 fixtures. */
	static final String RETRY_AFTER = "7";

	private final Dialect engine;

	private final WireMockServer server;

	private final KitFront front;

	/** An upstream for {@code engine}; with {@code scenarios}, replaying the kit's own fixtures too (the dialects of {@link WireConformanceKit#KIT_DIALECTS}). */
	KitUpstream(Dialect engine, int port, boolean scenarios) {
		this.engine = engine;
		this.server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort().jettyAcceptors(1).containerThreads(64));
		this.server.start();
		stubAll(scenarios);
		this.front = new KitFront(engine, URI.create("http://127.0.0.1:" + server.port()), port);
	}

	private void stubAll(boolean scenarios) {
		String errorFixture = engine + "/error-400";
		server.stubFor(get(urlEqualTo("/v1/models")).willReturn(json(200, KitFixtures.read(engine + "/models.json"))));
		server.stubFor(post(urlEqualTo("/reset_prefix_cache")).willReturn(aResponse().withStatus(200)));
		server.stubFor(post(urlEqualTo("/flush_cache")).willReturn(aResponse().withStatus(200)));
		server.stubFor(post(urlEqualTo(CHAT)).atPriority(9)
				.withRequestBody(matchingJsonPath("$.messages", equalTo("[]")))
				.willReturn(json(400, KitFixtures.read(errorFixture + ".json"))));
		if (!scenarios) {
			return;
		}
		for (Scenario scenario : Scenario.values()) {
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(2)
					.withRequestBody(containing(scenario.marker() + " "))
					.willReturn(nonStream(scenario)));
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(1)
					.withRequestBody(containing(scenario.marker() + " "))
					.withRequestBody(matchingJsonPath("$.stream", equalTo("true")))
					.willReturn(stream(scenario)));
		}
		server.stubFor(post(urlEqualTo(CHAT)).atPriority(1)
				.withRequestBody(containing("kit:error500 "))
				.willReturn(json(500, error500())));
		for (String error : errorFixtures()) {
			ResponseDefinitionBuilder answer = json(status(error), KitFixtures.read(error + ".json"));
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(1)
					.withRequestBody(containing(errorMarker(error) + " "))
					.willReturn(status(error) == 429 ? answer.withHeader("Retry-After", RETRY_AFTER) : answer));
		}
	}

	/**
	 * Replays a captured answer for requests carrying {@code marker}: {@code sse} when streaming, else {@code json}; an
	 * answer whose status is not 200 (the engine's error) as a JSON body with that status.
	 */
	void stubCapture(String marker, String sse, int sseStatus, String json, int jsonStatus) {
		if (json != null) {
			server.stubFor(
					post(urlEqualTo(CHAT)).atPriority(2).withRequestBody(containing(marker + " ")).willReturn(json(jsonStatus, json)));
		}
		if (sse != null) {
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(1)
					.withRequestBody(containing(marker + " "))
					.withRequestBody(matchingJsonPath("$.stream", equalTo("true")))
					.willReturn(sseStatus == 200 ? sse(sse) : json(sseStatus, sse)));
		}
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

	private ResponseDefinitionBuilder nonStream(Scenario scenario) {
		String body = KitFixtures.read(scenario.fixture(engine, false));
		return switch (scenario) {
			case TRUNCATED -> json(200, body.substring(0, body.length() / 2));
			case MALFORMED -> aResponse().withStatus(200)
					.withHeader("Content-Type", "application/json")
					.withBody("<html><body>upstream exploded</body></html>");
			default -> json(200, body);
		};
	}

	private ResponseDefinitionBuilder stream(Scenario scenario) {
		String sse = KitFixtures.read(scenario.fixture(engine, true));
		return switch (scenario) {
			case TRUNCATED -> sse(cutInsideFirstArguments(sse));
			case MALFORMED -> sse(firstEvents(sse, 2) + "data: {\"id\": \"x\", \"choices\": [\n\n");
			default -> sse(sse);
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

	private static ResponseDefinitionBuilder json(int status, String body) {
		return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body);
	}

	private static ResponseDefinitionBuilder sse(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "text/event-stream").withBody(body);
	}

	/** What a gateway under test is pointed at: the front, ending in /v1. */
	URI url() {
		return URI.create("http://127.0.0.1:" + front.port() + "/v1");
	}

	Dialect engine() {
		return engine;
	}

	/** The chat request the upstream received that carries {@code nonce}. */
	Optional<LoggedRequest> received(String nonce) {
		return server.findAll(postRequestedFor(urlEqualTo(CHAT)).withRequestBody(containing(nonce))).stream().findFirst();
	}

	/** When the events of the paced stream for {@code nonce} left the upstream (nanoTime), in order. */
	List<Long> pacedWrites(String nonce) {
		return front.written(nonce);
	}

	int cacheResets() {
		return server.findAll(postRequestedFor(urlEqualTo(engine.cacheResetPath()))).size();
	}

	@Override
	public void close() {
		front.close();
		server.stop();
	}
}
