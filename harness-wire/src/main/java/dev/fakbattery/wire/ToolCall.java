package dev.fakbattery.wire;

import java.util.Optional;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One {@code tool_calls[]} entry: a whole call in a message, or one streamed delta. Every field may be absent or
 * {@code null} (both read as empty): vLLM deltas omit {@code id}/{@code type}/{@code name} after the first, SGLang
 * repeats them as {@code null}; vLLM non-stream calls have no {@code index}, SGLang's do.
 *
 * @since 0.1
 */
public final class ToolCall extends WireView {

	private ToolCall(ObjectNode node) {
		super(node);
	}

	public static ToolCall of(ObjectNode node) {
		return new ToolCall(node);
	}

	public Optional<String> id() {
		return WireJson.text(node(), "id");
	}

	public OptionalInt index() {
		return WireJson.integer(node(), "index");
	}

	public Optional<String> type() {
		return WireJson.text(node(), "type");
	}

	/** {@code function.name}. */
	public Optional<String> name() {
		return function().flatMap(function -> WireJson.text(function, "name"));
	}

	/** {@code function.arguments}: the whole JSON text in a message, an arbitrary fragment of it in a delta. */
	public Optional<String> arguments() {
		return function().flatMap(function -> WireJson.text(function, "arguments"));
	}

	/** The {@code function} object, if present and not null. */
	public Optional<ObjectNode> function() {
		return WireJson.object(node(), "function");
	}
}
