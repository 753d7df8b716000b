package dev.fakbattery.wire;

import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The fields a {@code chat.completion} body and a {@code chat.completion.chunk} share.
 *
 * @since 0.1
 */
public abstract class CompletionView extends WireView {

	CompletionView(ObjectNode node) {
		super(node);
	}

	/** vLLM {@code chatcmpl-<hex>}, SGLang a bare 32-hex rid. */
	public Optional<String> id() {
		return WireJson.text(node(), "id");
	}

	public Optional<String> model() {
		return WireJson.text(node(), "model");
	}

	/** Fixed for a whole vLLM stream, re-stamped on every SGLang chunk. */
	public OptionalLong created() {
		return WireJson.longValue(node(), "created");
	}

	/** {@code usage}; SGLang tool chunks carry {@code "usage":null}, which reads as empty. */
	public Optional<ObjectNode> usage() {
		return WireJson.object(node(), "usage");
	}
}
