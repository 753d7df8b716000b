package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.WireJson;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/** A test client of the gateway: whole answers, read as JSON or as SSE. */
final class GatewayClient {

	/**
	 * Connects may take 30 s, a guard against a hang only: with two burners beside other builds (2026-12-02) 256
	 * streams opened at once ({@link ConcurrentStreamsTests}) ran out of 5 s.
	 */
	static final HttpClient HTTP = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(30))
			.build();

	/** A whole answer. */
	record Answer(int status, HttpHeaders headers, String body) {

		ObjectNode json() {
			return WireJson.readObject(body);
		}

		String contentType() {
			return headers.firstValue("Content-Type").orElse(null);
		}

		List<SseEvent> events() {
			return Sse.events(body);
		}

		List<ChatChunk> chunks() {
			return Sse.chunks(body);
		}

		/** The data of every event, as sent. */
		List<String> data() {
			return events().stream().map(SseEvent::data).toList();
		}
	}

	private GatewayClient() {
	}

	/**
	 * POSTs {@code body} to {@code base/chat/completions} asking for the adjudication record
	 * ({@link GatewayUnderTest#RECORD_HEADER}), with extra headers given as name, value pairs.
	 */
	static Answer chat(URI base, String body, String... headers) {
		String[] withRecord = Arrays.copyOf(headers, headers.length + 2);
		withRecord[headers.length] = GatewayUnderTest.RECORD_HEADER;
		withRecord[headers.length + 1] = GatewayUnderTest.RECORD_REQUESTED;
		return plainChat(base, body, withRecord);
	}

	/** POSTs {@code body} as a plain OpenAI client does: without asking for the record. */
	static Answer plainChat(URI base, String body, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
				.timeout(Duration.ofSeconds(30))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return send(request.build());
	}

	static Answer get(URI uri) {
		return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build());
	}

	/** A chat request for {@code model} with one user message and the kit's three tools. */
	static String request(String model, boolean stream) {
		return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"check the hosts file\"}],"
				+ "\"tools\":[" + tool("allow_read") + "," + tool("deny_write") + "," + tool("transform_exec") + "],"
				+ "\"x_unknown_field\":{\"kept\":[1,null]},\"stream\":" + stream + "}";
	}

	private static String tool(String name) {
		return "{\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"parameters\":{\"type\":\"object\"}}}";
	}

	private static Answer send(HttpRequest request) {
		try {
			HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
			return new Answer(response.statusCode(), response.headers(), response.body());
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
