package dev.fakbattery.conformance.wire;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;

/**
 * The kit's client: sends one chat request and reads the answer incrementally, keeping every byte.
 */
final class KitClient {

	private final HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

	/** How long a request may take to be answered, by default. */
	static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final Map<URI, Map<String, String>> gatewayHeaders = new ConcurrentHashMap<>();

	/** Sends {@code headers} (the run's {@code gateway.header.*}) with every request to {@code base}, before a scenario's own. */
	void sendTo(URI base, Map<String, String> headers) {
		gatewayHeaders.put(base, Map.copyOf(headers));
	}

	Exchange post(URI base, String body, boolean stream, Map<String, String> headers) {
		return post(base, body, stream, headers, TIMEOUT);
	}

	/** As {@link #post(URI, String, boolean, Map)}, answered within {@code timeout}. */
	Exchange post(URI base, String body, boolean stream, Map<String, String> headers, Duration timeout) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
				.timeout(timeout)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
		gatewayHeaders.getOrDefault(base, Map.of()).forEach(request::setHeader);
		headers.forEach(request::setHeader);
		long started = System.nanoTime();
		try {
			HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
			ByteArrayOutputStream copy = new ByteArrayOutputStream();
			List<Exchange.Timed> events = new ArrayList<>();
			boolean sawDone = false;
			boolean eventStream = stream && response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
			try (InputStream in = new Tee(response.body(), copy)) {
				if (eventStream) {
					SseReader reader = new SseReader(in);
					for (Optional<SseEvent> event = reader.next(); event.isPresent(); event = reader.next()) {
						events.add(new Exchange.Timed(event.get(), System.nanoTime()));
					}
					sawDone = reader.sawDone();
				}
				else {
					in.transferTo(java.io.OutputStream.nullOutputStream());
				}
			}
			return new Exchange(response.statusCode(), response.headers(), copy.toString(StandardCharsets.UTF_8), eventStream, events,
					sawDone, started, System.nanoTime());
		}
		catch (IOException e) {
			throw new UncheckedIOException("request to " + base + " failed: " + e.getMessage(), e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", e);
		}
	}

	/** Copies every byte read into a buffer. */
	private static final class Tee extends FilterInputStream {
		private final ByteArrayOutputStream copy;

		Tee(InputStream in, ByteArrayOutputStream copy) {
			super(in);
			this.copy = copy;
		}

		@Override
		public int read() throws IOException {
			int b = super.read();
			if (b >= 0) {
				copy.write(b);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int off, int len) throws IOException {
			int n = super.read(buffer, off, len);
			if (n > 0) {
				copy.write(buffer, off, n);
			}
			return n;
		}
	}
}
