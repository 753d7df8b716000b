package dev.fakbattery.wire;

import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One {@code choices[]} entry of a non-stream response.
 *
 * @since 0.1
 */
public final class ResponseChoice extends WireView {

	private ResponseChoice(ObjectNode node) {
		super(node);
	}

	public static ResponseChoice of(ObjectNode node) {
		return new ResponseChoice(node);
	}

	/** {@code index}; a choice without one is a {@link WireFormatException}. */
	public int index() {
		return WireJson.integer(node(), "index")
				.orElseThrow(() -> new WireFormatException("choice without 'index': " + WireJson.abbreviate(toJson())));
	}

	/** {@code message}; an absent or null message reads as an empty one. */
	public ChatMessage message() {
		return ChatMessage.of(WireJson.object(node(), "message").orElseGet(() -> node().objectNode()));
	}

	/** {@code stop}, {@code length}, {@code tool_calls}, {@code abort}, ... as sent. */
	public Optional<String> finishReason() {
		return WireJson.text(node(), "finish_reason");
	}
}
