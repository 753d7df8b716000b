package dev.fakbattery.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A loopback HTTP/1.1 client for the tests: plain JSON calls and SSE reads that keep each data line's arrival time.
 */
final class TestHttp {

	static final HttpClient CLIENT = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

	/** One SSE data line and when it was read, in {@link System#nanoTime()}. */
	record Event(String data, long nanos) {
	}

	/**
	 * A streamed response.
	 *
	 * @param sentNanos when the request was sent
	 * @param failure the read error when the connection broke, else null
	 */
	record Stream(int status, Map<String, List<String>> headers, List<Event> events, long sentNanos, IOException failure) {

		List<String> data() {
			return events.stream().map(Event::data).toList();
		}

		/** Data lines that are JSON objects (not {@code [DONE]}). */
		List<String> chunks() {
			return data().stream().filter(d -> d.startsWith("{")).toList();
		}
	}

	private TestHttp() {
	}

	static HttpResponse<String> get(String url) {
		return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build());
	}

	static HttpResponse<String> post(String url, String body, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
				.timeout(Duration.ofSeconds(10))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request.build());
	}

	static Stream stream(String url, String body, String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
				.timeout(Duration.ofSeconds(10))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headers.length > 0) {
			builder.headers(headers);
		}
		long sent = System.nanoTime();
		HttpResponse<InputStream> response;
		try {
			response = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
		List<Event> events = new ArrayList<>();
		IOException failure = null;
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith("data: ")) {
					events.add(new Event(line.substring(6), System.nanoTime()));
				}
			}
		}
		catch (IOException e) {
			failure = e;
		}
		return new Stream(response.statusCode(), response.headers().map(), List.copyOf(events), sent, failure);
	}

	/**
	 * The raw bytes of one HTTP/1.1 POST, read until the server closes the connection; shows what a client library
	 * may hide (chunk framing, a missing terminating chunk).
	 */
	static String raw(EngineDouble engine, String path, String body, String... headerLines) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n");
		for (String line : headerLines) {
			head.append(line).append("\r\n");
		}
		head.append("\r\n");
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1", engine.port())) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().write(bytes);
			socket.getOutputStream().flush();
			java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
			try {
				socket.getInputStream().transferTo(received);
			}
			catch (IOException e) {
				// a reset after the data still leaves what was read
			}
			return received.toString(StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static HttpResponse<String> send(HttpRequest request) {
		try {
			return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}
}
