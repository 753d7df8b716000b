package dev.fakbattery.core.load;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

import org.apiguardian.api.API;

/**
 * One chat request a load run sends: the messages, {@code temperature 0}, {@code max_tokens}, optionally
 * {@code ignore_eos} and {@code tools}, and when streamed
 * {@code stream_options: {include_usage: true, continuous_usage_stats: true}} so the server reports the completion
 * tokens of every chunk (which {@link StreamTimer} uses to split chunk gaps into per-token gaps) and the total in a
 * final usage chunk. Immutable; the body bytes are built once, so sending costs no serialization.
 *
 * <pre>
 * ChatPayload payload = ChatPayload.streaming("glm-5.2", ChatPayload.COUNTING_PROMPT, 64);
 * ChatPayload random = ChatPayload.of("glm-5.2", messages, 128, true).ignoringEos().askingPromptTokens(1024);
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ChatPayload {

	/**
	 * A fixed prompt whose greedy answer is longer than any {@code max_tokens} a bench uses, so every
	 * request decodes exactly {@code max_tokens} tokens on a real model too.
	 */
	public static final String COUNTING_PROMPT = "Count upward from 1 to 500, writing every number as an English word, "
			+ "separated by single spaces, with nothing else.";

	private final String model;

	private final ArrayNode messages;

	private final int maxTokens;

	private final boolean stream;

	private final boolean ignoreEos;

	private final ArrayNode tools;

	private final int promptTokensAsked;

	private final ObjectNode json;

	private final byte[] body;

	private ChatPayload(String model, ArrayNode messages, int maxTokens, boolean stream, boolean ignoreEos, ArrayNode tools,
			int promptTokensAsked) {
		this.model = Objects.requireNonNull(model, "model");
		this.messages = Objects.requireNonNull(messages, "messages").deepCopy();
		if (maxTokens < 1) {
			throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
		}
		if (messages.isEmpty()) {
			throw new IllegalArgumentException("a chat request needs at least one message");
		}
		this.maxTokens = maxTokens;
		this.stream = stream;
		this.ignoreEos = ignoreEos;
		this.tools = tools == null ? null : tools.deepCopy();
		this.promptTokensAsked = promptTokensAsked;
		this.json = build();
		this.body = WireJson.write(json).getBytes(StandardCharsets.UTF_8);
	}

	/** A streamed request of one user message, with continuous usage. */
	public static ChatPayload streaming(String model, String prompt, int maxTokens) {
		return of(model, user(prompt), maxTokens, true);
	}

	/** The same request, not streamed. */
	public static ChatPayload nonStreaming(String model, String prompt, int maxTokens) {
		return of(model, user(prompt), maxTokens, false);
	}

	/** A request of these messages (copied). */
	public static ChatPayload of(String model, ArrayNode messages, int maxTokens, boolean stream) {
		return new ChatPayload(model, messages, maxTokens, stream, false, null, -1);
	}

	/** One user message, as a {@code messages} array. */
	public static ArrayNode user(String prompt) {
		ArrayNode messages = Json.MAPPER.createArrayNode();
		messages.addObject().put("role", "user").put("content", Objects.requireNonNull(prompt, "prompt"));
		return messages;
	}

	/** This request with {@code ignore_eos: true}: the engine decodes exactly {@code max_tokens} (vLLM, SGLang). */
	public ChatPayload ignoringEos() {
		return new ChatPayload(model, messages, maxTokens, stream, true, tools, promptTokensAsked);
	}

	/** This request offering {@code tools} with {@code tool_choice: auto}. */
	public ChatPayload withTools(ArrayNode value) {
		return new ChatPayload(model, messages, maxTokens, stream, ignoreEos, Objects.requireNonNull(value, "tools"), promptTokensAsked);
	}

	/** This request, recording that its workload meant its prompt to be {@code tokens} tokens long (for the drift). */
	public ChatPayload askingPromptTokens(int tokens) {
		return new ChatPayload(model, messages, maxTokens, stream, ignoreEos, tools, tokens);
	}

	public String model() {
		return model;
	}

	public int maxTokens() {
		return maxTokens;
	}

	public boolean stream() {
		return stream;
	}

	public boolean ignoreEos() {
		return ignoreEos;
	}

	/** The prompt length the workload meant, in tokens; empty when it did not say. */
	public OptionalInt promptTokensAsked() {
		return promptTokensAsked >= 0 ? OptionalInt.of(promptTokensAsked) : OptionalInt.empty();
	}

	/** A copy of the messages. */
	public ArrayNode messages() {
		return messages.deepCopy();
	}

	/** The request body as JSON (a copy). */
	public ObjectNode toJson() {
		return json.deepCopy();
	}

	/** The request body as compact UTF-8 JSON bytes; not copied, do not modify. */
	public byte[] body() {
		return body;
	}

	private ObjectNode build() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("model", model);
		node.set("messages", messages.deepCopy());
		node.put("max_tokens", maxTokens);
		node.put("temperature", 0);
		if (ignoreEos) {
			node.put("ignore_eos", true);
		}
		if (tools != null) {
			node.set("tools", tools.deepCopy());
			node.put("tool_choice", "auto");
		}
		node.put("stream", stream);
		if (stream) {
			node.putObject("stream_options").put("include_usage", true).put("continuous_usage_stats", true);
		}
		return node;
	}

	@Override
	public String toString() {
		return "ChatPayload" + json;
	}
}
