package dev.fakbattery.wire;

import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One tool call merged from stream deltas by {@link ToolCallAssembler}. It grows while deltas arrive and is
 * {@linkplain #isComplete() complete} once the stream has moved past it: a later delta started another call in the
 * same choice, or the choice finished. A gateway holds a call until then, adjudicates it, and releases it.
 *
 * @since 0.1
 */
public final class AssembledToolCall {

	private final int choiceIndex;

	private final int index;

	private String id;

	private String type;

	private String name;

	private final StringBuilder arguments = new StringBuilder();

	private int deltas;

	private boolean complete;

	AssembledToolCall(int choiceIndex, int index) {
		this.choiceIndex = choiceIndex;
		this.index = index;
	}

	/** The {@code index} of the choice the call belongs to. */
	public int choiceIndex() {
		return choiceIndex;
	}

	/** The tool-call {@code index} its deltas carried. Not unique: early-2025 SGLang sent index 0 for every call. */
	public int index() {
		return index;
	}

	public Optional<String> id() {
		return Optional.ofNullable(id);
	}

	public Optional<String> type() {
		return Optional.ofNullable(type);
	}

	public Optional<String> name() {
		return Optional.ofNullable(name);
	}

	/** The argument fragments concatenated in arrival order; JSON escapes such as <code>&#92;u00fc</code> are kept as sent. */
	public String arguments() {
		return arguments.toString();
	}

	/** Whether {@link #arguments()} is exactly one JSON value; neither engine guarantees it. */
	public boolean argumentsValidJson() {
		return WireJson.isValid(arguments());
	}

	/** {@link #arguments()} parsed, when {@link #argumentsValidJson()}. */
	public Optional<JsonNode> argumentsJson() {
		return WireJson.read(arguments());
	}

	/** How many deltas were merged into this call. */
	public int deltas() {
		return deltas;
	}

	/**
	 * Whether the stream has moved past this call: another call started after it, or its choice finished. vLLM and
	 * SGLang send no further delta then; a server that interleaves parallel calls may still extend it until the finish.
	 */
	public boolean isComplete() {
		return complete;
	}

	void setId(String value) {
		id = value;
	}

	void setType(String value) {
		type = value;
	}

	void setName(String value) {
		name = value;
	}

	void appendArguments(String fragment) {
		arguments.append(fragment);
	}

	void countDelta() {
		deltas++;
	}

	void markComplete() {
		complete = true;
	}

	@Override
	public String toString() {
		return "AssembledToolCall[choice=" + choiceIndex + ", index=" + index + ", id=" + id + ", name=" + name
				+ ", arguments=" + arguments + (complete ? ", complete" : "") + "]";
	}
}
