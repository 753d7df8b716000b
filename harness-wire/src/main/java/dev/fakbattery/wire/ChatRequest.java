package dev.fakbattery.wire;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@code /v1/chat/completions} request body. Engine extras ({@code chat_template_kwargs}, SGLang {@code rid},
 * vLLM {@code guided_json}, ...) stay in {@link #node()} untouched.
 *
 * @since 0.1
 */
public final class ChatRequest extends WireView {

	private ChatRequest(ObjectNode node) {
		super(node);
	}

	public static ChatRequest of(ObjectNode node) {
		return new ChatRequest(node);
	}

	public static ChatRequest parse(String json) {
		return of(WireJson.readObject(json));
	}

	public Optional<String> model() {
		return WireJson.text(node(), "model");
	}

	public List<ChatMessage> messages() {
		return WireJson.objects(node(), "messages").stream().map(ChatMessage::of).toList();
	}

	/** Whether {@code stream} is JSON {@code true}; absent, {@code null} and anything else mean a non-stream request. */
	public boolean stream() {
		return node().path("stream").booleanValue();
	}

	/** Whether {@code stream_options.include_usage} is {@code true}, which makes both engines send a usage chunk. */
	public boolean includeUsage() {
		return WireJson.object(node(), "stream_options")
				.map(options -> options.path("include_usage").booleanValue())
				.orElse(false);
	}

	/** The {@code tools[].function.name} values, in request order. */
	public List<String> toolNames() {
		return WireJson.objects(node(), "tools")
				.stream()
				.map(tool -> WireJson.object(tool, "function").flatMap(function -> WireJson.text(function, "name")))
				.flatMap(Optional::stream)
				.toList();
	}

	/** {@code tool_choice} as sent: {@code "auto"}, {@code "required"}, {@code "none"} or a named-function object. */
	public Optional<JsonNode> toolChoice() {
		JsonNode choice = node().get("tool_choice");
		return choice == null || choice.isNull() ? Optional.empty() : Optional.of(choice);
	}
}
