package dev.fakbattery.api.wire;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A non-stream {@code chat.completion} body.
 *
 * @since 0.1
 */
public final class ChatResponse extends WireView {

	private ChatResponse(ObjectNode node) {
		super(node);
	}

	public static ChatResponse of(ObjectNode node) {
		return new ChatResponse(node);
	}

	public static ChatResponse parse(String json) {
		return of(WireJson.readObject(json));
	}

	/** vLLM {@code chatcmpl-<hex>}, SGLang a bare 32-hex rid. */
	public Optional<String> id() {
		return WireJson.text(node(), "id");
	}

	public Optional<String> model() {
		return WireJson.text(node(), "model");
	}

	public OptionalLong created() {
		return WireJson.longValue(node(), "created");
	}

	public List<ResponseChoice> choices() {
		return WireJson.objects(node(), "choices").stream().map(ResponseChoice::of).toList();
	}

	public Optional<ObjectNode> usage() {
		return WireJson.object(node(), "usage");
	}
}
