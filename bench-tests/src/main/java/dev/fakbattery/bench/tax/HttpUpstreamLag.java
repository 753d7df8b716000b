package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.Json;

/**
 * The lag of an engine double in another process, read over its admin endpoint ({@code GET /admin/scheduling-lag},
 * {@code POST /admin/scheduling-lag/reset}). A reading that cannot be taken is a reading of nothing (count 0), which
 * never counts as within the limit: an unreadable double cannot vouch for a run.
 *
 * @since 0.3
 */
public final class HttpUpstreamLag implements UpstreamLag {

	/** The double's admin path (engine-double's {@code EngineDouble.LAG_PATH}). */
	public static final String PATH = "/admin/scheduling-lag";

	private static final HttpClient HTTP = HttpClients.negotiating(Duration.ofSeconds(5));

	private final URI root;

	/** @param root the double's root URL, e.g. {@code http://127.0.0.1:8000} */
	public HttpUpstreamLag(URI root) {
		this.root = root;
	}

	@Override
	public void reset() {
		send(HttpRequest.newBuilder(URI.create(root + PATH + "/reset")).POST(HttpRequest.BodyPublishers.noBody()));
	}

	@Override
	public Reading read() {
		JsonNode lag = send(HttpRequest.newBuilder(URI.create(root + PATH)).GET());
		if (lag == null) {
			return new Reading(0, Double.NaN, Double.NaN, Double.NaN);
		}
		return new Reading(lag.path("count").asLong(), number(lag, "p50_us"), number(lag, "p99_us"), number(lag, "max_us"));
	}

	private static double number(JsonNode node, String field) {
		return node.path(field).isNumber() ? node.path(field).asDouble() : Double.NaN;
	}

	private static JsonNode send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> answer = HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
			return answer.statusCode() == 200 ? Json.MAPPER.readTree(answer.body()) : null;
		}
		catch (IOException e) {
			return null;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return null;
		}
	}
}
