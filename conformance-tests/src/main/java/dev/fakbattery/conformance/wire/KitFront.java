package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireJson;

/**
 * The kit's upstream server, the address a gateway under test is pointed at. It plays the two timed streams itself, on
 * an exact clock (a pause in the middle, events on an exact pace), and answers everything else from the replay
 * ({@link KitUpstream}: the fixture a request's marker selects), chunked, as an engine streams.
 * <ul>
 * <li>{@link Scenario#PACED}: the role chunk, then {@value #PACED_DELTAS} content deltas {@value #PACE_MILLIS} ms
 * apart (absolute deadlines, so lateness does not add up), the finish chunk and {@code [DONE]}; when each event was
 * written is kept, so the kit can see how long the gateway held each one;</li>
 * <li>{@link Scenario#GAP}: the reasoning part of the reasoning fixture at once, then {@value #GAP_MILLIS} ms of
 * silence, then the content, finish and {@code [DONE]}.</li>
 * </ul>
 */
final class KitFront implements AutoCloseable {

	static final int PACE_MILLIS = 50;

	static final int PACED_DELTAS = 20;

	static final int GAP_MILLIS = 5000;

	private final Dialect engine;

	private final Function<KitUpstream.Received, KitUpstream.Answer> replay;

	private final HttpServer server;

	/** When each event of a paced stream was written, by the nonce of the request (System.nanoTime). */
	private final Map<String, List<Long>> written = new ConcurrentHashMap<>();

	/** The nonces of the requests the front answered with a timed stream of its own (paced, or with a gap). */
	private final java.util.Set<String> played = ConcurrentHashMap.newKeySet();

	KitFront(Dialect engine, Function<KitUpstream.Received, KitUpstream.Answer> replay, int port) {
		this.engine = engine;
		this.replay = replay;
		try {
			server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
		}
		catch (IOException e) {
			throw new UncheckedIOException("the kit's upstream cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
		}
		server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		server.createContext("/", this::handle);
		server.start();
	}

	int port() {
		return server.getAddress().getPort();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			String text = new String(body, StandardCharsets.UTF_8);
			boolean stream = text.contains("\"stream\"") && WireJson.read(text).map(j -> j.path("stream").asBoolean()).orElse(false);
			if (stream && text.contains(Scenario.PACED.marker() + " ")) {
				played.add(nonce(text));
				play(exchange, paced(), PACE_MILLIS, 1, 0, written.computeIfAbsent(nonce(text), n -> new CopyOnWriteArrayList<>()));
			}
			else if (stream && text.contains(Scenario.GAP.marker() + " ")) {
				played.add(nonce(text));
				List<String> events = sse(KitFixtures.read(Scenario.GAP.fixture(engine, true)));
				int afterReasoning = (int) events.stream().takeWhile(e -> !carriesContent(e)).count();
				play(exchange, events, 0, afterReasoning, GAP_MILLIS, new ArrayList<>());
			}
			else {
				replay(exchange, text);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/** The role chunk, {@value #PACED_DELTAS} content deltas built on the text fixture's content chunk, its finish, [DONE]. */
	private List<String> paced() {
		List<String> text = sse(KitFixtures.read(Scenario.PACED.fixture(engine, true)));
		List<String> events = new ArrayList<>();
		events.add(text.get(0));
		ObjectNode content = WireJson.readObject(text.get(1));
		for (int i = 0; i < PACED_DELTAS; i++) {
			((ObjectNode) content.get("choices").get(0).get("delta")).put("content", " w" + i);
			events.add(WireJson.write(content));
		}
		events.add(text.get(text.size() - 2));
		events.add("[DONE]");
		return events;
	}

	/** Whether the front answered the request with {@code nonce} with a timed stream of its own (HTTP 200). */
	boolean played(String nonce) {
		return played.contains(nonce);
	}

	/** When the events of the paced stream answering the request with {@code nonce} were written (nanoTime), in order. */
	List<Long> written(String nonce) {
		return List.copyOf(written.getOrDefault(nonce, List.of()));
	}

	private static String nonce(String request) {
		int at = request.indexOf("nonce=");
		return at < 0 ? "" : request.substring(at + "nonce=".length()).replaceAll("[^0-9a-f-].*$", "");
	}

	/**
	 * Writes the events: the first {@code from} at once, then one every {@code pace} ms; before event {@code from} (if
	 * {@code pause} is positive) a silence of {@code pause} ms. Each write's time goes to {@code times}.
	 */
	private static void play(HttpExchange exchange, List<String> events, int pace, int from, int pause, List<Long> times)
			throws IOException, InterruptedException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		long start = System.nanoTime();
		for (int i = 0; i < events.size(); i++) {
			if (pause > 0 && i == from) {
				Thread.sleep(pause);
			}
			else if (pace > 0 && i >= from) {
				long due = start + (long) (i - from + 1) * pace * 1_000_000L;
				Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000L));
			}
			out.write(("data: " + events.get(i) + "\n\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			times.add(System.nanoTime());
		}
	}

	private void replay(HttpExchange exchange, String body) throws IOException {
		KitUpstream.Answer answer = this.replay.apply(new KitUpstream.Received(exchange.getRequestMethod(),
				exchange.getRequestURI().toString(), copy(exchange.getRequestHeaders()), body));
		if (answer.contentType() != null) {
			exchange.getResponseHeaders().set("Content-Type", answer.contentType());
		}
		answer.headers().forEach(exchange.getResponseHeaders()::set);
		byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : 0);
		if (bytes.length > 0) {
			OutputStream out = exchange.getResponseBody();
			out.write(bytes);
			out.flush();
		}
	}

	private static Headers copy(Headers headers) {
		Headers copy = new Headers();
		copy.putAll(headers);
		return copy;
	}

	/** Whether an event's first choice carries content text (the answer after the reasoning). */
	private static boolean carriesContent(String data) {
		return WireJson.read(data)
				.map(j -> j.path("choices").path(0).path("delta").path("content").asText(""))
				.filter(t -> !t.isEmpty())
				.isPresent();
	}

	private static List<String> sse(String body) {
		List<String> events = new ArrayList<>();
		for (String frame : body.split("\n\n")) {
			if (frame.startsWith("data: ")) {
				events.add(frame.substring("data: ".length()));
			}
		}
		return events;
	}

	@Override
	public void close() {
		server.stop(0);
	}
}
