package dev.fakbattery.wire;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A non-stream {@code chat.completion} body.
 *
 * @since 0.1
 */
public final class ChatResponse extends CompletionView {

	private ChatResponse(ObjectNode node) {
		super(node);
	}

	public static ChatResponse of(ObjectNode node) {
		return new ChatResponse(node);
	}

	public static ChatResponse parse(String json) {
		return of(WireJson.readObject(json));
	}

	public List<ResponseChoice> choices() {
		return WireJson.objects(node(), "choices").stream().map(ResponseChoice::of).toList();
	}
}
