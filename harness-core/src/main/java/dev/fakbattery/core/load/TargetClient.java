package dev.fakbattery.core.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.StaleConnection;

import org.apiguardian.api.API;

/**
 * One target of a load run (a raw engine, a gateway) with its own {@link HttpClient}: HTTP/1.1,
 * keep-alive, callbacks on virtual threads. The JDK client opens a connection per request in flight
 * and keeps them alive afterwards, so a run that keeps {@code concurrency} requests in flight, after a
 * warm-up at that concurrency, measures over {@code concurrency} warm connections: the pool is sized
 * to the concurrency by use, and no request pays a TCP connect in the measured phase (SGLang's
 * bench opens a new session per request, which would).
 *
 * <p>A request that gets no response byte because the server had closed its kept-alive connection
 * (llama.cpp's server closes every connection after a streamed response although it advertised
 * keep-alive) is sent once more, on a new connection, and marked {@link RequestOutcome#retry()}; its
 * timing starts at the second send, the lost attempt counts as client queue time. Any other failure is the outcome
 * ({@link dev.fakbattery.wire.StaleConnection}).
 *
 * <pre>
 * try (TargetClient raw = TargetClient.open("raw", URI.create("http://127.0.0.1:8000/v1"))) {
 *     RequestOutcome one = raw.send(ChatPayload.streaming(model, ChatPayload.COUNTING_PROMPT, 64), 0, false);
 * }
 * </pre>
 *
 * <p>Thread-safe: many virtual threads may send at once.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class TargetClient implements AutoCloseable {

	/** How long one request may take, headers and whole body, unless told otherwise. */
	public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(120);

	private final String name;

	private final URI chatUri;

	private final URI baseUrl;

	private final Map<String, String> headers;

	private final Duration responseTimeout;

	private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

	private final HttpClient http;

	private TargetClient(String name, URI baseUrl, Map<String, String> headers, Duration responseTimeout) {
		this.name = Objects.requireNonNull(name, "name");
		String base = baseUrl.toString().endsWith("/")
				? baseUrl.toString().substring(0, baseUrl.toString().length() - 1)
				: baseUrl.toString();
		this.baseUrl = URI.create(base);
		this.chatUri = URI.create(base + "/chat/completions");
		this.headers = Map.copyOf(headers);
		this.responseTimeout = responseTimeout;
		this.http = HttpClients.http11(Duration.ofSeconds(10), executor);
	}

	/** A client for the OpenAI-compatible {@code baseUrl} (ending in {@code /v1}). */
	public static TargetClient open(String name, URI baseUrl) {
		return open(name, baseUrl, Map.of(), DEFAULT_RESPONSE_TIMEOUT);
	}

	/**
	 * A client that adds {@code headers} (e.g. {@code Authorization}) to every request and ends any
	 * request still running after {@code responseTimeout} (headers and whole body; a stream that never
	 * ends fails as timed out).
	 */
	public static TargetClient open(String name, URI baseUrl, Map<String, String> headers, Duration responseTimeout) {
		return new TargetClient(name, baseUrl, new LinkedHashMap<>(headers), responseTimeout);
	}

	/** The target's name, e.g. {@code raw}. */
	public String name() {
		return name;
	}

	/** The base URL, ending in {@code /v1}. */
	public URI baseUrl() {
		return baseUrl;
	}

	/** Sends now; the intended send time is the actual one. */
	public RequestOutcome send(ChatPayload payload, int index, boolean warmup) {
		return send(payload, index, warmup, System.nanoTime());
	}

	/**
	 * Sends {@code payload} and reads the whole response, timing it. Never throws for a failed
	 * request: the outcome says what failed. An interrupt (a run's time cap) ends the request as failed
	 * and keeps the thread's interrupt status.
	 * @param intendedNanos when the schedule meant it to go, for the client queue time
	 */
	public RequestOutcome send(ChatPayload payload, int index, boolean warmup, long intendedNanos) {
		HttpRequest.Builder request = HttpRequest.newBuilder(chatUri)
				.timeout(responseTimeout)
				.header("Content-Type", "application/json")
				.header("Accept", payload.stream() ? "text/event-stream" : "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(payload.body()));
		headers.forEach(request::header);
		ResponseReader reader = new ResponseReader(name, index, warmup, intendedNanos, payload);
		RequestWatchdog watchdog = new RequestWatchdog(responseTimeout);
		long sent = System.nanoTime();
		reader.sentAt(sent);
		RequestOutcome outcome;
		try {
			if (payload.stream()) {
				try (StaleConnection.Sent<RequestOutcome> answer = StaleConnection.send(http, request.build(),
						info -> reader.streaming(info.statusCode(), chatUri.toString()),
						nanos -> reader.retried(StaleConnection.RETRY_REASON, nanos))) {
					outcome = answer.response().body();
				}
			}
			else {
				try (StaleConnection.Sent<InputStream> answer = StaleConnection.send(http, request.build(),
						HttpResponse.BodyHandlers.ofInputStream(),
						nanos -> reader.retried(StaleConnection.RETRY_REASON, nanos)); InputStream body = answer.response().body()) {
					outcome = reader.whole(answer.response().statusCode(), body);
				}
			}
		}
		catch (IOException e) {
			outcome = reader.transportFailure(e.getClass().getSimpleName() + ": " + e.getMessage() + " (" + chatUri + ")");
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			outcome = reader.transportFailure("interrupted: the run's time cap ended the request (" + chatUri + ")");
		}
		if (watchdog.finish()) {
			return reader.transportFailure("timed out: no complete response within " + responseTimeout.toMillis() + " ms ("
					+ chatUri + ")");
		}
		return outcome;
	}

	@Override
	public void close() {
		http.shutdownNow();
		executor.shutdownNow();
	}

	@Override
	public String toString() {
		return "TargetClient[" + name + " " + baseUrl + "]";
	}
}
