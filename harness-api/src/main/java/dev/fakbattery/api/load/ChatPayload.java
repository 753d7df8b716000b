package dev.fakbattery.api.load;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * The deterministic chat request a load run sends: one user message, {@code temperature 0},
 * {@code max_tokens}, and when streamed
 * {@code stream_options: {include_usage: true, continuous_usage_stats: true}} so the server reports
 * the completion tokens of every chunk (which {@link StreamTimer} uses to split chunk gaps into
 * per-token gaps) and the total in a final usage chunk.
 *
 * <pre>
 * ChatPayload payload = ChatPayload.streaming("glm-5.2", ChatPayload.COUNTING_PROMPT, 64);
 * </pre>
 *
 * @param model served model name sent as {@code model}
 * @param prompt the user message
 * @param maxTokens {@code max_tokens}, at least 1
 * @param stream whether the request streams
 * @since 0.1
 */
public record ChatPayload(String model, String prompt, int maxTokens, boolean stream) {

	/**
	 * A fixed prompt whose greedy answer is longer than any {@code max_tokens} a bench uses, so every
	 * request decodes exactly {@code max_tokens} tokens on a real model too.
	 */
	public static final String COUNTING_PROMPT = "Count upward from 1 to 500, writing every number as an English word, "
			+ "separated by single spaces, with nothing else.";

	public ChatPayload {
		Objects.requireNonNull(model, "model");
		Objects.requireNonNull(prompt, "prompt");
		if (maxTokens < 1) {
			throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
		}
	}

	/** A streamed request with continuous usage. */
	public static ChatPayload streaming(String model, String prompt, int maxTokens) {
		return new ChatPayload(model, prompt, maxTokens, true);
	}

	/** The same request, not streamed. */
	public static ChatPayload nonStreaming(String model, String prompt, int maxTokens) {
		return new ChatPayload(model, prompt, maxTokens, false);
	}

	/** The request body as JSON. */
	public ObjectNode toJson() {
		ObjectNode body = Json.MAPPER.createObjectNode();
		body.put("model", model);
		body.putArray("messages").addObject().put("role", "user").put("content", prompt);
		body.put("max_tokens", maxTokens);
		body.put("temperature", 0);
		body.put("stream", stream);
		if (stream) {
			body.putObject("stream_options").put("include_usage", true).put("continuous_usage_stats", true);
		}
		return body;
	}

	/** The request body as compact UTF-8 JSON bytes. */
	public byte[] body() {
		return WireJson.write(toJson()).getBytes(StandardCharsets.UTF_8);
	}
}
