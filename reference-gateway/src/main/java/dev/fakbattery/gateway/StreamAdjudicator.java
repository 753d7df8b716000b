package dev.fakbattery.gateway;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.ChunkChoice;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.ToolCall;
import dev.fakbattery.wire.ToolCallAssembler;
import dev.fakbattery.wire.WireFormatException;
import dev.fakbattery.wire.WireJson;

/**
 * Adjudicates one stream chunk by chunk, without I/O: {@link #onChunk(SseEvent)} returns the data payloads to send
 * for an upstream chunk, at once.
 * <ul>
 * <li>A chunk without tool-call deltas or {@code finish_reason} goes out as received, byte for byte.</li>
 * <li>Tool-call deltas are held per call ({@link ToolCallAssembler} merges them, fed one delta at a time so each
 * delta is known to belong to its call) until the call is complete: another call started in its choice, or the
 * choice's {@code finish_reason} arrived. Then it is adjudicated and released ({@link HeldCall}): ALLOW with its
 * original deltas, TRANSFORM with new arguments, DENY not at all. Survivors are numbered 0..n-1 per choice.</li>
 * <li>What else a chunk with tool-call deltas carried (content, reasoning, the finish) goes out at once, after the
 * calls that chunk completed; {@code finish_reason:"tool_calls"} becomes {@code "stop"} when no call of the choice
 * survived.</li>
 * <li>A call that never completes (the stream broke or ended first) is never released.</li>
 * </ul>
 * A chunk that is not a JSON object or breaks the wire rules is a {@link WireFormatException}.
 */
final class StreamAdjudicator {

	private final CallAdjudicator adjudicator;

	private final ToolCallAssembler assembler = new ToolCallAssembler();

	private final Map<AssembledToolCall, HeldCall> held = new IdentityHashMap<>();

	private final Map<Integer, Integer> survivors = new HashMap<>();

	StreamAdjudicator(CallAdjudicator adjudicator) {
		this.adjudicator = adjudicator;
	}

	/** The payloads to send for one upstream {@code DATA} event, in order; possibly none. */
	List<String> onChunk(SseEvent event) {
		ObjectNode chunk = event.json()
			.orElseThrow(() -> new WireFormatException("upstream data is not a JSON object: " + abbreviate(event.data())));
		if (!carriesCallsOrFinish(chunk)) {
			return List.of(event.data());
		}
		List<String> out = new ArrayList<>();
		ArrayNode rest = Json.MAPPER.createArrayNode();
		for (ChunkChoice choice : ChatChunk.of(chunk).choices()) {
			boolean hadCalls = hold(chunk, choice, out);
			Optional<String> finish = choice.finishReason();
			finish.ifPresent(reason -> release(assembler.accept(finishing(choice.index(), reason)), out));
			restOf(choice, hadCalls, finish.orElse(null)).ifPresent(rest::add);
		}
		ObjectNode remainder = chunk.deepCopy();
		remainder.set("choices", rest);
		if (remainder.equals(chunk)) {
			out.add(event.data());
		}
		else if (!rest.isEmpty()) {
			// a chunk whose choices were all held is dropped whole: sent with "choices":[] and its usage it would
			// read as the final usage chunk
			out.add(WireJson.write(remainder));
		}
		return out;
	}

	/** Calls still held, never to be released unless the stream goes on. */
	int heldCalls() {
		return held.size();
	}

	private static boolean carriesCallsOrFinish(ObjectNode chunk) {
		for (JsonNode choice : chunk.path("choices")) {
			if (choice.path("delta").path("tool_calls").size() > 0 || choice.hasNonNull("finish_reason")) {
				return true;
			}
		}
		return false;
	}

	/** Holds the choice's tool-call deltas, releasing the calls they complete; whether there were any. */
	private boolean hold(ObjectNode chunk, ChunkChoice choice, List<String> out) {
		List<ToolCall> deltas = choice.toolCalls();
		for (ToolCall delta : deltas) {
			List<AssembledToolCall> completed = assembler.accept(single(choice.index(), delta.node()));
			AssembledToolCall owner = latestCall(choice.index(), delta.index().orElseThrow());
			held.computeIfAbsent(owner, call -> new HeldCall()).add(chunk, choice.node(), delta.node());
			release(completed, out);
		}
		return !deltas.isEmpty();
	}

	private void release(List<AssembledToolCall> completed, List<String> out) {
		for (AssembledToolCall call : completed) {
			HeldCall deltas = held.remove(call);
			if (deltas == null) {
				continue;
			}
			CallAdjudicator.Outcome outcome = adjudicator.adjudicate(call.id().orElse(null), call.name().orElse(null),
					call.arguments());
			switch (outcome.action()) {
				case ALLOW -> out.addAll(deltas.released(nextIndex(call.choiceIndex())));
				case TRANSFORM -> out.addAll(deltas.transformed(nextIndex(call.choiceIndex()), outcome.arguments()));
				case DENY -> {
					// not one byte of a denied call goes out
				}
			}
		}
	}

	/** The choice without its tool-call deltas, finish rewritten; empty when nothing of it is left to send. */
	private Optional<ObjectNode> restOf(ChunkChoice choice, boolean hadCalls, String finish) {
		ObjectNode rest = choice.node().deepCopy();
		boolean textLeft = false;
		if (hadCalls && rest.get("delta") instanceof ObjectNode delta) {
			delta.remove("tool_calls");
			for (JsonNode value : delta) {
				textLeft |= !value.isNull();
			}
		}
		if ("tool_calls".equals(finish) && survivors.getOrDefault(choice.index(), 0) == 0) {
			rest.put("finish_reason", "stop");
		}
		if (hadCalls && rest.hasNonNull("logprobs")) {
			// they spell out the held tool-call fragments too, which may be denied or transformed
			rest.putNull("logprobs");
		}
		return !hadCalls || finish != null || textLeft ? Optional.of(rest) : Optional.empty();
	}

	private int nextIndex(int choiceIndex) {
		return survivors.merge(choiceIndex, 1, Integer::sum) - 1;
	}

	private AssembledToolCall latestCall(int choiceIndex, int index) {
		List<AssembledToolCall> calls = assembler.calls(choiceIndex);
		for (int i = calls.size() - 1; i >= 0; i--) {
			if (calls.get(i).index() == index) {
				return calls.get(i);
			}
		}
		throw new IllegalStateException("the assembler lost the call at index " + index);
	}

	private static ChatChunk single(int choiceIndex, ObjectNode delta) {
		ObjectNode chunk = Json.MAPPER.createObjectNode();
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", choiceIndex);
		choice.putObject("delta").putArray("tool_calls").add(delta);
		return ChatChunk.of(chunk);
	}

	private static ChatChunk finishing(int choiceIndex, String reason) {
		ObjectNode chunk = Json.MAPPER.createObjectNode();
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", choiceIndex);
		choice.putObject("delta");
		choice.put("finish_reason", reason);
		return ChatChunk.of(chunk);
	}

	private static String abbreviate(String data) {
		return data.length() <= 120 ? data : data.substring(0, 117) + "...";
	}
}
