package dev.fakbattery.wire;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@code message} of a response choice or a {@code delta} of a chunk choice; both have the same keys. Null and
 * absent read alike: vLLM sends {@code "content":null} next to tool calls where SGLang sends {@code ""}, use
 * {@link #has(String)} or {@link #node()} where that difference matters.
 *
 * @since 0.1
 */
public final class ChatMessage extends WireView {

	private ChatMessage(ObjectNode node) {
		super(node);
	}

	public static ChatMessage of(ObjectNode node) {
		return new ChatMessage(node);
	}

	public Optional<String> role() {
		return WireJson.text(node(), "role");
	}

	public Optional<String> content() {
		return WireJson.text(node(), "content");
	}

	/**
	 * Reasoning text: {@code reasoning} (vLLM from Nov 2025) or else {@code reasoning_content} (SGLang, older vLLM).
	 */
	public Optional<String> reasoning() {
		return WireJson.text(node(), "reasoning").or(() -> WireJson.text(node(), "reasoning_content"));
	}

	/** {@code tool_calls} in wire order; empty when absent, {@code null} or {@code []}. */
	public List<ToolCall> toolCalls() {
		return WireJson.objects(node(), "tool_calls").stream().map(ToolCall::of).toList();
	}
}
