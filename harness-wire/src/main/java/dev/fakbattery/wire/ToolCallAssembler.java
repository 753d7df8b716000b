package dev.fakbattery.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Merges streamed {@code tool_calls} deltas into whole calls, per choice, the way both engines' streams must be read:
 * <ul>
 * <li>deltas merge by {@code index}; a non-null {@code id} different from the id of the call at that index starts a
 * new call (early-2025 SGLang used index 0 for every call, with ids {@code "0"}, {@code "1"});</li>
 * <li>deltas of parallel calls may interleave (the protocol merges by {@code index}; vLLM and SGLang stream one call
 * after another, other servers need not): a delta for an earlier call's index continues that call;</li>
 * <li>{@code null}, absent and the empty string are the same for {@code id}, {@code type} and {@code name} (SGLang
 * repeats {@code "id":null,"name":null}; vLLM omits them; Alibaba Cloud's DashScope sends {@code "id":""} on every
 * continuation delta): such a delta continues the call at its index, as the official OpenAI SDKs read it; the first
 * non-empty value of each is kept;</li>
 * <li>{@code arguments} fragments are concatenated as they come, also several entries with the same index in one chunk
 * (vLLM hermes, 2026), a whole call in one delta (Mistral, Groq), and a last flush in the chunk that carries
 * {@code finish_reason} (vLLM &le; 0.11, NIM). A fragment that repeats the arguments whole after they were already
 * complete JSON (a finish chunk with {@code id}, {@code type} and {@code name} null, as some vLLM versions and hosted
 * servers send) is appended too, as the OpenAI SDKs' accumulators do, so the call's arguments are the text twice and
 * not JSON; it is recorded in {@link #violations()}, never merged silently;</li>
 * <li>a call is complete when a later delta of its choice starts another call, or when its choice's
 * {@code finish_reason} arrives; {@link #accept(ChatChunk)} returns the calls each chunk completed (an interleaved
 * delta may still extend a call completed by its successor; none may follow the finish).</li>
 * </ul>
 * What no server may do is recorded in {@link #violations()} rather than silently merged: a delta after its choice
 * finished, a different name or type for the same call, arguments repeated whole. A delta without {@code index} is a
 * {@link WireFormatException}.
 *
 * @since 0.1
 */
public final class ToolCallAssembler {

	private final Map<Integer, ChoiceCalls> choices = new TreeMap<>();

	private final List<String> violations = new ArrayList<>();

	/**
	 * Merges the tool-call deltas and finish reasons of one chunk.
	 * @return the calls this chunk completed, in the order they were started
	 */
	public List<AssembledToolCall> accept(ChatChunk chunk) {
		List<AssembledToolCall> completed = new ArrayList<>();
		for (ChunkChoice choice : chunk.choices()) {
			ChoiceCalls calls = choices.computeIfAbsent(choice.index(), ChoiceCalls::new);
			for (ToolCall delta : choice.toolCalls()) {
				calls.merge(delta, completed);
			}
			choice.finishReason().ifPresent(reason -> calls.finish(reason, completed));
		}
		return List.copyOf(completed);
	}

	/** Every call seen, by choice index and then in the order the calls started. */
	public List<AssembledToolCall> calls() {
		return choices.values().stream().flatMap(calls -> calls.all.stream()).toList();
	}

	/** The calls of one choice, in the order they started. */
	public List<AssembledToolCall> calls(int choiceIndex) {
		ChoiceCalls calls = choices.get(choiceIndex);
		return calls == null ? List.of() : List.copyOf(calls.all);
	}

	/** Calls not yet complete; after a whole stream, any left here mean the stream was cut before it finished. */
	public List<AssembledToolCall> openCalls() {
		return calls().stream().filter(call -> !call.isComplete()).toList();
	}

	/** The {@code finish_reason} a choice ended with, once it arrived. */
	public Optional<String> finishReason(int choiceIndex) {
		ChoiceCalls calls = choices.get(choiceIndex);
		return calls == null ? Optional.empty() : Optional.ofNullable(calls.finishReason);
	}

	/** Deltas that broke the merge rules, one sentence each; empty for a well-formed stream. */
	public List<String> violations() {
		return List.copyOf(violations);
	}

	/** The calls of one choice. */
	private final class ChoiceCalls {

		private final int choiceIndex;

		private final List<AssembledToolCall> all = new ArrayList<>();

		private String finishReason;

		ChoiceCalls(int choiceIndex) {
			this.choiceIndex = choiceIndex;
		}

		void merge(ToolCall delta, List<AssembledToolCall> completed) {
			int index = delta.index()
					.orElseThrow(() -> new WireFormatException(
							"streamed tool_calls[] delta without 'index' in choice " + choiceIndex + ": " + delta.toJson()));
			if (finishReason != null) {
				violations.add("choice " + choiceIndex + " index " + index + ": delta after the choice finished: "
						+ delta.toJson());
			}
			apply(callFor(index, delta, completed), delta);
		}

		private AssembledToolCall callFor(int index, ToolCall delta, List<AssembledToolCall> completed) {
			AssembledToolCall call = latestAt(index);
			if (call == null || startsNewCall(call, delta.id())) {
				completeAll(completed);
				call = new AssembledToolCall(choiceIndex, index);
				all.add(call);
			}
			return call;
		}

		private void apply(AssembledToolCall call, ToolCall delta) {
			call.countDelta();
			if (call.id().isEmpty()) {
				given(delta.id()).ifPresent(call::setId);
			}
			given(delta.type()).ifPresent(value -> keepFirst(call, "type", call.type(), value, call::setType));
			given(delta.name()).ifPresent(value -> keepFirst(call, "name", call.name(), value, call::setName));
			delta.arguments().ifPresent(fragment -> {
				if (repeatsWhole(call, fragment)) {
					violations.add("choice " + choiceIndex + " index " + call.index()
							+ ": arguments sent again whole after they were complete JSON (appended, as the OpenAI SDKs read them): "
							+ fragment);
				}
				call.appendArguments(fragment);
			});
		}

		/** A fragment that is a whole JSON object or array, arriving when the call's arguments already are one. */
		private boolean repeatsWhole(AssembledToolCall call, String fragment) {
			String text = fragment.strip();
			boolean whole = text.startsWith("{") && text.endsWith("}") || text.startsWith("[") && text.endsWith("]");
			return whole && !call.arguments().isBlank() && WireJson.isValid(text) && call.argumentsValidJson();
		}

		void finish(String reason, List<AssembledToolCall> completed) {
			finishReason = reason;
			completeAll(completed);
		}

		/** A non-empty id starts a call unless it repeats the id of the call at that index (or gives it its first). */
		private boolean startsNewCall(AssembledToolCall call, Optional<String> delta) {
			Optional<String> id = given(delta);
			return id.isPresent() && call.id().map(current -> !current.equals(id.get())).orElse(false);
		}

		/** A value the delta gives: not absent, null or empty (empty-string ids, types and names continue the call). */
		private static Optional<String> given(Optional<String> value) {
			return value.filter(text -> !text.isEmpty());
		}

		private AssembledToolCall latestAt(int index) {
			for (int i = all.size() - 1; i >= 0; i--) {
				if (all.get(i).index() == index) {
					return all.get(i);
				}
			}
			return null;
		}

		private void completeAll(List<AssembledToolCall> completed) {
			for (AssembledToolCall call : all) {
				if (!call.isComplete()) {
					call.markComplete();
					completed.add(call);
				}
			}
		}

		private void keepFirst(AssembledToolCall call, String field, Optional<String> current, String value,
				Consumer<String> setter) {
			if (current.isEmpty()) {
				setter.accept(value);
			}
			else if (!current.get().equals(value)) {
				violations.add("choice " + choiceIndex + " index " + call.index() + ": " + field + " changed from '"
						+ current.get() + "' to '" + value + "'");
			}
		}
	}
}
