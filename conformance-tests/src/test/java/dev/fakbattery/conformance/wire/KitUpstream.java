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

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import dev.fakbattery.wire.Dialect;

/**
 * The kit's upstream: a WireMock server on loopback replaying one engine's recorded wire
 * (fixtures/wire) for each {@link Scenario}, and remembering what it received.
 */
final class KitUpstream implements AutoCloseable {

	static final String CHAT = "/v1/chat/completions";

	/** How long the PACED scenario takes to stream one answer. */
	static final int PACED_MILLIS = 800;

	private final Dialect engine;
	private final WireMockServer server;

	KitUpstream(Dialect engine, int port) {
		this.engine = engine;
		this.server = new WireMockServer(options().bindAddress("127.0.0.1").port(port).jettyAcceptors(1)
			.containerThreads(64));
		this.server.start();
		stubAll();
	}

	private void stubAll() {
		String errorFixture = engine + "/error-400";
		server.stubFor(get(urlEqualTo("/v1/models")).willReturn(json(200, KitFixtures.read(engine + "/models.json"))));
		server.stubFor(post(urlEqualTo("/reset_prefix_cache")).willReturn(aResponse().withStatus(200)));
		server.stubFor(post(urlEqualTo("/flush_cache")).willReturn(aResponse().withStatus(200)));
		server.stubFor(post(urlEqualTo(CHAT)).atPriority(9).withRequestBody(matchingJsonPath("$.messages", equalTo("[]")))
			.willReturn(json(400, KitFixtures.read(errorFixture + ".json"))));
		for (Scenario scenario : Scenario.values()) {
			String fixture = scenario.fixture(engine);
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(2).withRequestBody(containing(scenario.marker()))
				.willReturn(nonStream(scenario, fixture)));
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(1).withRequestBody(containing(scenario.marker()))
				.withRequestBody(matchingJsonPath("$.stream", equalTo("true")))
				.willReturn(stream(scenario, fixture)));
		}
		server.stubFor(post(urlEqualTo(CHAT)).atPriority(1).withRequestBody(containing("kit:error500"))
			.willReturn(json(500, KitFixtures.read(errorFixture + ".json").replace("400", "500"))));
		for (String error : errorFixtures()) {
			server.stubFor(post(urlEqualTo(CHAT)).atPriority(1).withRequestBody(containing("kit:error:" + error + " "))
				.willReturn(json(status(error), KitFixtures.read(engine + "/" + error + ".json"))));
		}
	}

	/** The error bodies this engine is known to send (file names under fixtures/wire/ENGINE). */
	List<String> errorFixtures() {
		return List.of("error-400", "error-400-legacy", "error-404-model", "error-400-validation").stream()
			.filter(name -> KitFixtures.exists(engine + "/" + name + ".json"))
			.toList();
	}

	static int status(String errorFixture) {
		return Integer.parseInt(errorFixture.replaceAll("^error-(\\d{3}).*$", "$1"));
	}

	private ResponseDefinitionBuilder nonStream(Scenario scenario, String fixture) {
		return switch (scenario) {
			case TRUNCATED -> {
				String body = KitFixtures.read(fixture + ".json");
				yield json(200, body.substring(0, body.length() / 2));
			}
			case MALFORMED -> aResponse().withStatus(200).withHeader("Content-Type", "application/json")
				.withBody("<html><body>upstream exploded</body></html>");
			case STREAM_ERROR -> json(200, KitFixtures.read(engine + "/chat-text.json"));
			default -> json(200, KitFixtures.read(fixture + ".json"));
		};
	}

	private static ResponseDefinitionBuilder stream(Scenario scenario, String fixture) {
		String sse = KitFixtures.read(fixture + ".sse");
		return switch (scenario) {
			case TRUNCATED -> sse(cutInsideFirstArguments(sse));
			case MALFORMED -> sse(firstEvents(sse, 2) + "data: {\"id\": \"x\", \"choices\": [\n\n");
			case PACED -> sse(sse).withChunkedDribbleDelay(8, PACED_MILLIS);
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

	URI url() {
		return URI.create("http://127.0.0.1:" + server.port() + "/v1");
	}

	Dialect engine() {
		return engine;
	}

	/** The chat request the upstream received that carries {@code nonce}. */
	Optional<LoggedRequest> received(String nonce) {
		return server.findAll(postRequestedFor(urlEqualTo(CHAT)).withRequestBody(containing(nonce))).stream().findFirst();
	}

	int cacheResets() {
		return server.findAll(postRequestedFor(urlEqualTo(engine.cacheResetPath()))).size();
	}

	@Override
	public void close() {
		server.stop();
	}
}
