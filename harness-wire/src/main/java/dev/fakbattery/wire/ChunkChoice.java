package dev.fakbattery.wire;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One {@code choices[]} entry of a stream chunk.
 *
 * @since 0.1
 */
public final class ChunkChoice extends WireView {

	private ChunkChoice(ObjectNode node) {
		super(node);
	}

	public static ChunkChoice of(ObjectNode node) {
		return new ChunkChoice(node);
	}

	/** {@code index}; a choice without one is a {@link WireFormatException}. */
	public int index() {
		return WireJson.integer(node(), "index")
				.orElseThrow(() -> new WireFormatException("chunk choice without 'index': " + WireJson.abbreviate(toJson())));
	}

	/** {@code delta}; an absent or null delta reads as an empty one. */
	public ChatMessage delta() {
		return ChatMessage.of(WireJson.object(node(), "delta").orElseGet(() -> node().objectNode()));
	}

	/** Shorthand for {@code delta().toolCalls()}. */
	public List<ToolCall> toolCalls() {
		return delta().toolCalls();
	}

	/** Set on the last chunk of the choice only; {@code null} before. */
	public Optional<String> finishReason() {
		return WireJson.text(node(), "finish_reason");
	}
}
