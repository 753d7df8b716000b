package dev.fakbattery.wire;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One {@code chat.completion.chunk} of a stream (the JSON after {@code data: }).
 *
 * @since 0.1
 */
public final class ChatChunk extends CompletionView {

	private ChatChunk(ObjectNode node) {
		super(node);
	}

	public static ChatChunk of(ObjectNode node) {
		return new ChatChunk(node);
	}

	public static ChatChunk parse(String json) {
		return of(WireJson.readObject(json));
	}

	public List<ChunkChoice> choices() {
		return WireJson.objects(node(), "choices").stream().map(ChunkChoice::of).toList();
	}

	/** The final usage chunk both engines send when asked: {@code "choices":[]} with a non-null {@code usage}. */
	public boolean isUsageOnly() {
		return choices().isEmpty() && usage().isPresent();
	}
}
