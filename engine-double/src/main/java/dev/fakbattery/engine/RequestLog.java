package dev.fakbattery.engine;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.sun.net.httpserver.HttpExchange;

/**
 * The last {@code limit} requests the double received, oldest first.
 *
 * @since 0.1
 */
final class RequestLog {

	private final int limit;

	private final Deque<RecordedRequest> requests = new ArrayDeque<>();

	RequestLog(int limit) {
		this.limit = limit;
	}

	void record(HttpExchange exchange, byte[] body) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		exchange.getRequestHeaders().forEach((name, values) -> headers.merge(name.toLowerCase(Locale.ROOT), List.copyOf(values), (a, b) -> {
			List<String> merged = new ArrayList<>(a);
			merged.addAll(b);
			return List.copyOf(merged);
		}));
		String query = exchange.getRequestURI().getRawQuery();
		RecordedRequest request = new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
				query == null ? "" : query, Map.copyOf(headers), new String(body, StandardCharsets.UTF_8), Instant.now());
		synchronized (requests) {
			requests.addLast(request);
			while (requests.size() > limit) {
				requests.removeFirst();
			}
		}
	}

	List<RecordedRequest> all() {
		synchronized (requests) {
			return List.copyOf(requests);
		}
	}

	Optional<RecordedRequest> last(String path) {
		synchronized (requests) {
			var it = requests.descendingIterator();
			while (it.hasNext()) {
				RecordedRequest request = it.next();
				if (path == null || request.path().equals(path)) {
					return Optional.of(request);
				}
			}
			return Optional.empty();
		}
	}
}
