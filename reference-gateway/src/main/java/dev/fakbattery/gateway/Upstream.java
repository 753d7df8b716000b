package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.StaleConnection;
import dev.fakbattery.wire.WireJson;

/**
 * The engine behind the gateway, reached with the JDK {@link HttpClient} (HTTP/1.1). Bodies come back as
 * {@link InputStream}s read on the request's own virtual thread; closing one before its end closes the connection,
 * which is how a client's disconnect cancels the upstream request. The client's dependent tasks (parsing the
 * response head, handing body buffers to the stream, completing the request's future) run where they become ready,
 * on the client's selector thread ({@code Runnable::run}): none of them blocks, and each hop to a new virtual thread
 * cost the gateway about 15 % of its CPU at 1,000 requests/s (module README, "Its cost").
 */
final class Upstream implements AutoCloseable {

	/** Client headers passed on to the engine. */
	private static final List<String> FORWARDED = List.of("Authorization", Exchanges.REQUEST_ID);

	private final URI base;

	private final URI root;

	private final URI chat;

	private final Dialect engine;

	private final HttpClient client;

	private final Duration timeout;

	Upstream(URI base, Dialect engine, Duration connectTimeout, Duration timeout) {
		this.timeout = timeout;
		this.base = withoutTrailingSlash(base);
		this.root = rootOf(this.base);
		this.chat = URI.create(this.base + "/chat/completions");
		this.engine = engine;
		this.client = HttpClients.http11(connectTimeout, Runnable::run);
	}

	/** The upstream base URL, ending in {@code /v1}. */
	URI base() {
		return base;
	}

	/** The server root: the base without {@code /v1}, where the engine's admin endpoints live. */
	URI root() {
		return root;
	}

	/**
	 * POSTs a chat request body, as given, to {@code <base>/chat/completions}; once more on a new connection when
	 * the engine had closed the kept-alive one before answering ({@link StaleConnection}, llama.cpp does after every
	 * stream), telling {@code onRetry}. Close the result when the body is relayed.
	 *
	 * @throws java.net.http.HttpTimeoutException when no response headers came within the upstream timeout
	 */
	StaleConnection.Sent<InputStream> chat(byte[] body, Headers clientHeaders, Runnable onRetry) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(chat)
				.timeout(timeout)
				.header("Content-Type", Exchanges.JSON)
				.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		forward(clientHeaders, request);
		return StaleConnection.send(client, request.build(), HttpResponse.BodyHandlers.ofInputStream(), nanos -> onRetry.run());
	}

	/** GETs {@code <base>/models}. */
	HttpResponse<byte[]> models(Headers clientHeaders) throws IOException, InterruptedException {
		return get(URI.create(base + "/models"), clientHeaders);
	}

	/** GETs {@code path} under the server root, an engine's identity endpoint such as {@code /version}. */
	HttpResponse<byte[]> rootGet(String path, Headers clientHeaders) throws IOException, InterruptedException {
		return get(URI.create(root + path), clientHeaders);
	}

	private HttpResponse<byte[]> get(URI uri, Headers clientHeaders) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
		forward(clientHeaders, request);
		return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

	/**
	 * Asks the engine to drop its prefix cache ({@link Dialect#cacheResetPath()} under the root); for llama.cpp, every
	 * slot listed by {@code GET /slots} is erased in turn ({@link Dialect#resetsPerSlot()}).
	 *
	 * @return null when the engine answered 2xx (every slot, for llama.cpp), else what went wrong
	 */
	String resetCache() {
		if (!engine.resetsPerSlot()) {
			return post(URI.create(root + engine.cacheResetPath()));
		}
		URI slots = URI.create(root + "/slots");
		try {
			HttpResponse<String> listed = client.send(HttpRequest.newBuilder(slots).GET().build(), HttpResponse.BodyHandlers.ofString());
			var ids = WireJson.read(listed.body()).filter(JsonNode::isArray).orElse(null);
			if (listed.statusCode() != 200 || ids == null || ids.isEmpty()) {
				return "GET " + slots + " answered " + listed.statusCode() + " without a list of slots";
			}
			for (JsonNode slot : ids) {
				String failure = post(URI.create(root + engine.cacheResetPath().replace("{id}", slot.path("id").asText())));
				if (failure != null) {
					return failure;
				}
			}
			return null;
		}
		catch (IOException e) {
			return "GET " + slots + " failed: " + describe(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "GET " + slots + " interrupted";
		}
	}

	private String post(URI uri) {
		try {
			HttpResponse<String> response = client.send(
					HttpRequest.newBuilder(uri).timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build(),
					HttpResponse.BodyHandlers.ofString());
			return response.statusCode() / 100 == 2
					? null
					: "POST " + uri + " answered " + response.statusCode() + excerpt(response.body());
		}
		catch (IOException e) {
			return "POST " + uri + " failed: " + describe(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "POST " + uri + " interrupted";
		}
	}

	private static String excerpt(String body) {
		String line = body == null ? "" : body.replace('\n', ' ').strip();
		return line.isEmpty() ? "" : ": " + (line.length() <= 200 ? line : line.substring(0, 197) + "...");
	}

	@Override
	public void close() {
		client.shutdownNow();
	}

	static String describe(Exception e) {
		return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
	}

	private static void forward(Headers clientHeaders, HttpRequest.Builder request) {
		for (String name : FORWARDED) {
			String value = clientHeaders.getFirst(name);
			if (value != null) {
				request.header(name, value);
			}
		}
	}

	private static URI withoutTrailingSlash(URI uri) {
		String text = uri.toString();
		return text.endsWith("/") ? URI.create(text.substring(0, text.length() - 1)) : uri;
	}

	private static URI rootOf(URI base) {
		String text = base.toString();
		return text.endsWith("/v1") ? URI.create(text.substring(0, text.length() - 3)) : base;
	}
}
