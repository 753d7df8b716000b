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

import dev.fakbattery.gateway.policy.Action;
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
 * <li>A tool call whose verdict its name decides (ALLOW, DENY: name rules) is decided on its first delta. An allowed
 * call streams through as it arrives, delta for delta, in its own chunks (byte for byte while its {@code index} needs
 * no renumbering); a denied call is dropped as it arrives, not one byte of it sent.</li>
 * <li>Only what a rule must see whole is held: a TRANSFORM call (its arguments are rewritten) until it is complete
 * (another call started in its choice, or the finish arrived), and, so that survivors keep their order and dense
 * {@code index} 0..n-1, the calls that start after a held one. Then it is adjudicated and released ({@link HeldCall}).</li>
 * <li>What else a chunk with tool-call deltas carried (content, reasoning, the finish, per-chunk usage) goes out at
 * once, after the calls that chunk released; {@code finish_reason:"tool_calls"} becomes {@code "stop"} when no call of
 * the choice survived.</li>
 * <li>A held call that never completes (the stream broke or ended first) is never released.</li>
 * </ul>
 * A chunk that is not a JSON object or breaks the wire rules is a {@link WireFormatException}.
 */
final class StreamAdjudicator {

	/** Where one call stands. */
	private enum Stage {
		/** No name yet: blocks the calls after it. */
		UNDECIDED,
		/** Allowed by name, waiting behind a held call. */
		QUEUED,
		/** Transform: held until complete. */
		HELD,
		/** Allowed and released: its deltas go out as they arrive. */
		LIVE,
		/** Transformed and released: nothing more of it goes out. */
		SENT,
		/** Denied: nothing of it goes out. */
		DROPPED
	}

	/** One call of the stream and what the gateway does with it. */
	private static final class Call {
		private final AssembledToolCall call;
		private final HeldCall held = new HeldCall();
		private Stage stage = Stage.UNDECIDED;
		private int index = -1;

		Call(AssembledToolCall call) {
			this.call = call;
		}
	}

	private final CallAdjudicator adjudicator;

	private final ToolCallAssembler assembler = new ToolCallAssembler();

	private final Map<AssembledToolCall, Call> calls = new IdentityHashMap<>();

	private final Map<Integer, List<Call>> started = new HashMap<>();

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
			InPlace now = new InPlace(chunk, choice);
			for (ToolCall delta : choice.toolCalls()) {
				route(delta, now, out);
			}
			Optional<String> finish = choice.finishReason();
			if (finish.isPresent()) {
				assembler.accept(finishing(choice.index(), finish.get()));
				now.send(settle(choice.index()), out);
			}
			restOf(choice, now, finish.orElse(null)).ifPresent(rest::add);
		}
		ObjectNode remainder = chunk.deepCopy();
		remainder.set("choices", rest);
		if (remainder.equals(chunk)) {
			out.add(event.data());
		}
		else if (!rest.isEmpty()) {
			// a chunk whose choices were all held or dropped is dropped whole: sent with "choices":[] and its usage it
			// would read as the final usage chunk
			out.add(WireJson.write(remainder));
		}
		return out;
	}

	/** Calls held and not yet released, never to be released unless the stream goes on. */
	int heldCalls() {
		return (int) calls.values()
				.stream()
				.filter(call -> call.stage == Stage.UNDECIDED || call.stage == Stage.QUEUED || call.stage == Stage.HELD)
				.count();
	}

	/** One delta: merged, its call decided by name if it can be, then sent in place, dropped, or held. */
	private void route(ToolCall delta, InPlace now, List<String> out) {
		int choiceIndex = now.choice.index();
		assembler.accept(single(choiceIndex, delta.node()));
		Call call = callOf(latestCall(choiceIndex, delta.index().orElseThrow()));
		decideByName(call);
		now.send(settle(choiceIndex), out);
		switch (call.stage) {
			case LIVE -> now.deltas.add(renumbered(delta.node(), call.index));
			case SENT, DROPPED -> {
				now.withheld = true; // denied, or transformed and released already: its original bytes never go out
			}
			default -> {
				now.withheld = true;
				call.held.add(now.chunk, now.choice.node(), delta.node());
			}
		}
	}

	private Call callOf(AssembledToolCall assembled) {
		return calls.computeIfAbsent(assembled, key -> {
			Call call = new Call(key);
			started.computeIfAbsent(key.choiceIndex(), index -> new ArrayList<>()).add(call);
			return call;
		});
	}

	private void decideByName(Call call) {
		if (call.stage != Stage.UNDECIDED || call.call.name().isEmpty()) {
			return;
		}
		Optional<CallAdjudicator.Outcome> outcome = adjudicator.byName(call.call.id().orElse(null), call.call.name().get());
		call.stage = outcome.map(o -> o.action() == Action.ALLOW ? Stage.QUEUED : Stage.DROPPED).orElse(Stage.HELD);
	}

	/**
	 * Releases, in start order, every call of the choice whose turn has come: an allowed call goes live (its held
	 * deltas first), a complete transform goes out rewritten; a call not yet decided, or a transform not yet complete,
	 * stops the walk so that survivors keep their order.
	 */
	private List<String> settle(int choiceIndex) {
		List<String> out = new ArrayList<>();
		for (Call call : started.getOrDefault(choiceIndex, List.of())) {
			if (call.stage == Stage.UNDECIDED && call.call.isComplete()) {
				decideWhole(call);
			}
			switch (call.stage) {
				case QUEUED -> {
					call.index = nextIndex(choiceIndex);
					out.addAll(call.held.released(call.index));
					call.stage = Stage.LIVE;
				}
				case HELD -> {
					if (!call.call.isComplete()) {
						return out;
					}
					release(call, out);
				}
				case UNDECIDED -> {
					return out;
				}
				default -> {
					// LIVE, SENT, DROPPED: settled already
				}
			}
		}
		return out;
	}

	/** A call that completed without a name: decided on its whole (the policy's default, normally deny). */
	private void decideWhole(Call call) {
		CallAdjudicator.Outcome outcome = adjudicator.adjudicate(call.call.id().orElse(null), null, call.call.arguments());
		call.stage = switch (outcome.action()) {
			case ALLOW -> Stage.QUEUED;
			case TRANSFORM -> Stage.HELD;
			case DENY -> Stage.DROPPED;
		};
	}

	private void release(Call call, List<String> out) {
		CallAdjudicator.Outcome outcome = adjudicator.adjudicate(call.call.id().orElse(null), call.call.name().orElse(null),
				call.call.arguments());
		if (outcome.survives()) {
			call.index = nextIndex(call.call.choiceIndex());
			out.addAll(outcome.action() == Action.TRANSFORM
					? call.held.transformed(call.index, outcome.arguments())
					: call.held.released(call.index));
			call.stage = outcome.action() == Action.TRANSFORM ? Stage.SENT : Stage.LIVE;
		}
		else {
			call.stage = Stage.DROPPED;
		}
	}

	/**
	 * The choice with only the deltas still to send in place, finish rewritten; empty when nothing of it is left to
	 * send. Keys keep their order, so a choice whose deltas all go out unrenumbered is the upstream's own.
	 */
	private Optional<ObjectNode> restOf(ChunkChoice choice, InPlace now, String finish) {
		ObjectNode rest = choice.node().deepCopy();
		boolean hadCalls = !choice.toolCalls().isEmpty();
		boolean keep = !hadCalls || finish != null || !now.deltas.isEmpty();
		if (hadCalls && rest.get("delta") instanceof ObjectNode delta) {
			if (now.deltas.isEmpty()) {
				delta.remove("tool_calls");
			}
			else {
				ArrayNode sent = Json.MAPPER.createArrayNode();
				now.deltas.forEach(sent::add);
				delta.set("tool_calls", sent);
			}
			for (var field : delta.properties()) {
				keep |= !field.getKey().equals("tool_calls") && !field.getValue().isNull();
			}
		}
		if ("tool_calls".equals(finish) && survivors.getOrDefault(choice.index(), 0) == 0) {
			rest.put("finish_reason", "stop");
		}
		if ((now.withheld || now.split) && rest.hasNonNull("logprobs")) {
			// they spell out the deltas held or dropped here too, which may be denied or transformed
			rest.putNull("logprobs");
		}
		return keep ? Optional.of(rest) : Optional.empty();
	}

	/**
	 * The deltas of one choice of one chunk that go out in place, in the chunk's remainder. Calls that a delta releases
	 * go out at once; the live deltas before them go first, in a chunk of their own, so that survivors first appear in
	 * index order.
	 */
	private static final class InPlace {
		private final ObjectNode chunk;
		private final ChunkChoice choice;
		private final List<ObjectNode> deltas = new ArrayList<>();
		/** A delta of this choice was held or dropped: the chunk's logprobs spell it out. */
		private boolean withheld;
		/** Live deltas went out ahead of the remainder, so the chunk's logprobs no longer match it. */
		private boolean split;

		InPlace(ObjectNode chunk, ChunkChoice choice) {
			this.chunk = chunk;
			this.choice = choice;
		}

		void send(List<String> released, List<String> out) {
			if (released.isEmpty()) {
				return;
			}
			if (!deltas.isEmpty()) {
				out.add(HeldCall.chunkWith(chunk, choice.node(), deltas, true));
				deltas.clear();
				split = true;
			}
			out.addAll(released);
		}
	}

	private int nextIndex(int choiceIndex) {
		return survivors.merge(choiceIndex, 1, Integer::sum) - 1;
	}

	private AssembledToolCall latestCall(int choiceIndex, int index) {
		List<AssembledToolCall> assembled = assembler.calls(choiceIndex);
		for (int i = assembled.size() - 1; i >= 0; i--) {
			if (assembled.get(i).index() == index) {
				return assembled.get(i);
			}
		}
		throw new IllegalStateException("the assembler lost the call at index " + index);
	}

	private static boolean carriesCallsOrFinish(ObjectNode chunk) {
		for (JsonNode choice : chunk.path("choices")) {
			if (choice.path("delta").path("tool_calls").size() > 0 || choice.hasNonNull("finish_reason")) {
				return true;
			}
		}
		return false;
	}

	private static ObjectNode renumbered(ObjectNode delta, int index) {
		if (delta.path("index").asInt(-1) == index) {
			return delta;
		}
		ObjectNode copy = delta.deepCopy();
		copy.put("index", index);
		return copy;
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
