package dev.fakbattery.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;

/**
 * The soak's closed loop: {@code streams} workers, each sending one streamed chat request after another until the
 * deadline. Every request is accounted: started, then completed (HTTP 200, chunks, {@code [DONE]}, no error frame)
 * or failed with its reason; one started and never ended is lost.
 */
final class SoakLoad {

	/** The longest one request may take before its worker gives up on it (a failure with that reason). */
	static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

	/**
	 * Virtual threads for the client's own work too: its default executor is a cached pool of platform threads, which
	 * grew with the load in the third soak run (161, 175, 204 threads by third, 29 at rest) and made the instrument a
	 * suspect of its own growth rule.
	 */
	private final HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.executor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor())
			.connectTimeout(Duration.ofSeconds(10))
			.build();

	private final URI chat;

	private final String body;

	private final LongAdder started = new LongAdder();

	private final LongAdder completed = new LongAdder();

	private final Map<String, LongAdder> failed = new ConcurrentHashMap<>();

	SoakLoad(String gatewayBaseUrl, String model) {
		this.chat = URI.create(gatewayBaseUrl + "/chat/completions");
		this.body = "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"read the hosts file and summarise it\"}],"
				+ "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"allow_read\",\"parameters\":{\"type\":\"object\"}}},"
				+ "{\"type\":\"function\",\"function\":{\"name\":\"deny_write\",\"parameters\":{\"type\":\"object\"}}}],"
				+ "\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
	}

	/** Runs {@code streams} workers until {@code deadlineNanos}; returns when every worker ended or was waited on long enough. */
	void run(int streams, long deadlineNanos) throws InterruptedException {
		Thread[] workers = new Thread[streams];
		for (int i = 0; i < streams; i++) {
			workers[i] = Thread.ofVirtual().name("soak-" + i).start(() -> {
				while (System.nanoTime() < deadlineNanos) {
					once();
				}
			});
		}
		long waitUntil = deadlineNanos + REQUEST_TIMEOUT.plusSeconds(30).toNanos();
		for (Thread worker : workers) {
			long left = Math.max(1, (waitUntil - System.nanoTime()) / 1_000_000);
			worker.join(left);
		}
	}

	long started() {
		return started.sum();
	}

	long completed() {
		return completed.sum();
	}

	/** Failures by reason. */
	Map<String, Long> failures() {
		Map<String, Long> out = new TreeMap<>();
		failed.forEach((reason, count) -> out.put(reason, count.sum()));
		return out;
	}

	long failedCount() {
		return failed.values().stream().mapToLong(LongAdder::sum).sum();
	}

	/** Started, and neither completed nor failed. */
	long lost() {
		return started() - completed() - failedCount();
	}

	private void once() {
		started.increment();
		String failure = request();
		if (failure == null) {
			completed.increment();
		}
		else {
			failed.computeIfAbsent(failure, reason -> new LongAdder()).increment();
		}
	}

	/** Null when the request completed, else why not. */
	private String request() {
		HttpRequest request = HttpRequest.newBuilder(chat)
				.timeout(REQUEST_TIMEOUT)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build();
		long deadline = System.nanoTime() + REQUEST_TIMEOUT.toNanos();
		try {
			HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
			try (SseReader reader = new SseReader(response.body())) {
				if (response.statusCode() != 200) {
					String error = new String(response.body().readNBytes(300), java.nio.charset.StandardCharsets.UTF_8)
							.replaceAll("\\d+", "N");
					return "HTTP " + response.statusCode() + " " + error;
				}
				int chunks = 0;
				for (var event = reader.next(); event.isPresent(); event = reader.next()) {
					if (event.get().isError()) {
						return "error frame";
					}
					chunks += event.get().kind() == SseEvent.Kind.DATA ? 1 : 0;
					if (System.nanoTime() > deadline) {
						return "no [DONE] within " + REQUEST_TIMEOUT.toSeconds() + " s";
					}
				}
				return reader.sawDone() && chunks > 0 ? null : "stream ended without [DONE]";
			}
		}
		catch (IOException e) {
			String message = e.getMessage() == null ? "" : ": " + e.getMessage().replaceAll("\\d+", "N");
			return e.getClass().getSimpleName() + message;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}
}
