package dev.fakbattery.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.fakbattery.wire.HostileBytes;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Property-based tests of the engine double against hostile requests (QuickTheories, bounded tries, shrunk
 * counterexamples): JSON and SSE tokens mixed with raw bytes, and valid requests with bytes deleted, repeated,
 * replaced or cut, get 200 or the dialect's 4xx error body, never a 5xx and never a dropped connection.
 */
@DisplayName("hostile request properties: the engine double answers every request")
class HostileRequestPropertyTests extends InstantDoubles {

	private static final List<String> TOKENS = List.of("{", "}", "[", "]", ",", ":", "\"messages\":", "\"role\":", "\"user\"",
			"\"content\":", "\"model\":", "\"stream\":", "\"tools\":", "\"tool_choice\":", "\"max_tokens\":", "\"stream_options\":",
			"\"include_usage\":", "\"function\":", "\"name\":", "\"seed\":", "null", "true", "0", "-1", "1e999", "99999999999999999999",
			"\"x\"", "\"\\ud800\"", "\u00e9");

	private static final String VALID = "{\"model\":\"Qwen/Qwen2.5-7B-Instruct\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
			+ "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"allow_read\",\"parameters\":{\"type\":\"object\"}}}],"
			+ "\"tool_choice\":\"auto\",\"max_tokens\":5,\"seed\":7,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";

	@Test
	@DisplayName("hostile request bodies get 200 or a 4xx error body, in both dialects")
	void hostileRequests() {
		qt().withExamples(300)
				.forAll(lists().of(integers().all()).ofSizeBetween(0, 80), booleans().all(), booleans().all())
				.checkAssert((picks, mutateValid, sglangDialect) -> {
					byte[] body = mutateValid
							? HostileBytes.mutated(VALID.getBytes(StandardCharsets.UTF_8), picks.subList(0, Math.min(4, picks.size())))
							: HostileBytes.tokens(TOKENS, picks);
					HttpResponse<String> answer = post(chat(sglangDialect ? sglang : vllm), body);
					assertThat(answer.statusCode()).as("status for %s: %s", new String(body, StandardCharsets.UTF_8), answer.body())
							.isIn(200, 400, 404, 422);
					if (answer.statusCode() != 200) {
						assertThat(WireJson.read(answer.body())).as("error body for %s", new String(body, StandardCharsets.UTF_8))
								.isPresent();
					}
				});
	}

	@Test
	@DisplayName("a valid request with values of the wrong type gets 200 or a 4xx error body, in both dialects")
	void typeConfusedRequests() {
		qt().withExamples(300)
				.forAll(lists().of(integers().between(0, 1 << 20)).ofSizeBetween(1, 3), booleans().all())
				.checkAssert((swaps, sglangDialect) -> {
					String body = confused(VALID, swaps);
					HttpResponse<String> answer = post(chat(sglangDialect ? sglang : vllm), body.getBytes(StandardCharsets.UTF_8));
					assertThat(answer.statusCode()).as("status for %s: %s", body, answer.body()).isIn(200, 400, 404, 422);
				});
	}

	private static final List<String> VALUES = List.of("null", "0", "-1", "1.5", "99999999999999999999999", "\"x\"", "\"\"", "true",
			"[]", "{}", "[1]", "{\"a\":1}", "[null]");

	/** {@code json} with values swapped for values of other types: each number picks a slot and a replacement. */
	static String confused(String json, List<Integer> swaps) {
		com.fasterxml.jackson.databind.JsonNode root = WireJson.readObject(json);
		for (int swap : swaps) {
			List<java.util.function.Consumer<com.fasterxml.jackson.databind.JsonNode>> slots = new java.util.ArrayList<>();
			collect(root, slots);
			com.fasterxml.jackson.databind.JsonNode value = WireJson.read(VALUES.get(Math.floorMod(swap, VALUES.size()))).orElseThrow();
			slots.get(Math.floorMod(swap / VALUES.size(), slots.size())).accept(value);
		}
		return WireJson.write(root);
	}

	private static void collect(com.fasterxml.jackson.databind.JsonNode node,
			List<java.util.function.Consumer<com.fasterxml.jackson.databind.JsonNode>> slots) {
		if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
			List<String> fields = new java.util.ArrayList<>();
			object.fieldNames().forEachRemaining(fields::add);
			for (String field : fields) {
				slots.add(value -> object.set(field, value));
				collect(object.get(field), slots);
			}
		}
		else if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				int index = i;
				slots.add(value -> array.set(index, value));
				collect(array.get(i), slots);
			}
		}
	}

	private static HttpResponse<String> post(String url, byte[] body) {
		try {
			return TestHttp.CLIENT.send(HttpRequest.newBuilder(URI.create(url))
					.timeout(Duration.ofSeconds(10))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofByteArray(body))
					.build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException e) {
			throw new AssertionError("no answer to " + new String(body, StandardCharsets.UTF_8) + ": " + e, e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new AssertionError(e);
		}
	}
}
