package dev.fakbattery.api.wire;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One {@code chat.completion.chunk} of a stream (the JSON after {@code data: }).
 *
 * @since 0.1
 */
public final class ChatChunk extends WireView {

	private ChatChunk(ObjectNode node) {
		super(node);
	}

	public static ChatChunk of(ObjectNode node) {
		return new ChatChunk(node);
	}

	public static ChatChunk parse(String json) {
		return of(WireJson.readObject(json));
	}

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

	public List<ChunkChoice> choices() {
		return WireJson.objects(node(), "choices").stream().map(ChunkChoice::of).toList();
	}

	/** {@code usage}; SGLang tool chunks carry {@code "usage":null}, which reads as empty. */
	public Optional<ObjectNode> usage() {
		return WireJson.object(node(), "usage");
	}

	/** The final usage chunk both engines send when asked: {@code "choices":[]} with a non-null {@code usage}. */
	public boolean isUsageOnly() {
		return choices().isEmpty() && usage().isPresent();
	}
}
