package dev.fakbattery.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * The streamed deltas of one tool call, held until its turn comes (a transform until it is complete; an allowed call
 * only while a held call before it keeps its position open). Each delta is kept with the chunk and choice that carried
 * it, so a released call goes out in its engine's own chunk shape: ALLOW re-emits the original deltas (one chunk per
 * upstream chunk, arguments fragments untouched, so they reassemble byte-identical), TRANSFORM emits a header delta
 * (id, type, name) and one delta with the whole new arguments. Only {@code index} is rewritten, to the call's dense
 * position among the choice's surviving calls; each chunk keeps its own per-chunk {@code usage}
 * ({@code continuous_usage_stats}).
 */
final class HeldCall {

	/** The deltas of this call that one upstream chunk carried. */
	private record Piece(ObjectNode chunk, ObjectNode choice, List<ObjectNode> deltas) {
	}

	private final List<Piece> pieces = new ArrayList<>();

	void add(ObjectNode chunk, ObjectNode choice, ObjectNode delta) {
		Piece last = pieces.isEmpty() ? null : pieces.getLast();
		if (last != null && last.chunk() == chunk && last.choice() == choice) {
			last.deltas().add(delta);
		}
		else {
			pieces.add(new Piece(chunk, choice, new ArrayList<>(List.of(delta))));
		}
	}

	/**
	 * ALLOW: the original deltas, chunk by chunk, renumbered to {@code index}; logprobs nulled where the chunk also
	 * carried other calls' deltas.
	 */
	List<String> released(int index) {
		List<String> out = new ArrayList<>(pieces.size());
		for (Piece piece : pieces) {
			List<ObjectNode> deltas = new ArrayList<>(piece.deltas().size());
			piece.deltas().forEach(delta -> deltas.add(renumbered(delta, index)));
			// logprobs of a chunk that carried other calls' deltas too spell those out: they go only with the chunk
			out.add(render(piece, deltas, piece.choice().path("delta").path("tool_calls").size() > piece.deltas().size()));
		}
		return out;
	}

	/**
	 * TRANSFORM: the call with {@code arguments} instead of its own. A call streamed as one delta goes out as one
	 * delta; otherwise the first delta (id, type, name; its {@code arguments} emptied where it had the key) and a
	 * second built on the call's second delta (the engine's continuation shape) carrying all of {@code arguments}.
	 * Logprobs are nulled: they would spell out the original arguments.
	 */
	List<String> transformed(int index, String arguments) {
		List<Map.Entry<Piece, ObjectNode>> flat = new ArrayList<>();
		pieces.forEach(piece -> piece.deltas().forEach(delta -> flat.add(Map.entry(piece, delta))));
		if (flat.size() == 1) {
			return List.of(render(flat.getFirst().getKey(), List.of(withArguments(flat.getFirst().getValue(), index, arguments)), true));
		}
		ObjectNode header = renumbered(flat.getFirst().getValue(), index);
		if (header.path("function") instanceof ObjectNode function && function.has("arguments")) {
			function.put("arguments", "");
		}
		ObjectNode body = withArguments(flat.get(1).getValue(), index, arguments);
		return List.of(render(flat.getFirst().getKey(), List.of(header), true),
				render(flat.getLast().getKey(), List.of(body), true));
	}

	private static ObjectNode renumbered(ObjectNode delta, int index) {
		ObjectNode copy = delta.deepCopy();
		copy.put("index", index);
		return copy;
	}

	private static ObjectNode withArguments(ObjectNode delta, int index, String arguments) {
		ObjectNode copy = renumbered(delta, index);
		ObjectNode function = copy.path("function") instanceof ObjectNode existing ? existing : copy.putObject("function");
		function.put("arguments", arguments);
		return copy;
	}

	/**
	 * One chunk like {@code piece}'s, whose only choice carries {@code deltas} as its {@code tool_calls}. Text the
	 * delta also carried went out when it arrived, so it is nulled here; so is {@code finish_reason} (the finish chunk
	 * follows the released calls). The chunk's {@code usage} is kept: with {@code continuous_usage_stats} every chunk
	 * carries the running count, and a client reads the last one it got.
	 */
	private static String render(Piece piece, List<ObjectNode> deltas, boolean nullLogprobs) {
		return chunkWith(piece.chunk(), piece.choice(), deltas, nullLogprobs);
	}

	/** One chunk like {@code upstreamChunk}, whose only choice is {@code upstreamChoice} carrying just {@code deltas}. */
	static String chunkWith(ObjectNode upstreamChunk, ObjectNode upstreamChoice, List<ObjectNode> deltas, boolean nullLogprobs) {
		ObjectNode chunk = upstreamChunk.deepCopy();
		ObjectNode choice = upstreamChoice.deepCopy();
		if (choice.hasNonNull("finish_reason")) {
			choice.putNull("finish_reason");
		}
		if (nullLogprobs && choice.hasNonNull("logprobs")) {
			choice.putNull("logprobs");
		}
		ObjectNode delta = (ObjectNode) choice.get("delta");
		List<String> sentAlready = new ArrayList<>();
		delta.fieldNames().forEachRemaining(name -> {
			if (!name.equals("tool_calls") && !delta.get(name).isNull()) {
				sentAlready.add(name);
			}
		});
		sentAlready.forEach(delta::putNull);
		ArrayNode calls = Json.MAPPER.createArrayNode();
		deltas.forEach(calls::add);
		delta.set("tool_calls", calls);
		ArrayNode choices = Json.MAPPER.createArrayNode();
		choices.add(choice);
		chunk.set("choices", choices);
		return WireJson.write(chunk);
	}
}
