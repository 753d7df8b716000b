package dev.fakbattery.engine;

/**
 * One generated token and what the stream shows for it.
 *
 * @since 0.1
 */
sealed interface Step {

	/** A content token. */
	record Text(String piece) implements Step {
	}

	/** The token that reveals a tool call's name. */
	record ToolName(int call) implements Step {
	}

	/** A token that adds a fragment of a tool call's arguments. */
	record ToolArgs(int call, String fragment) implements Step {
	}

	/** The end-of-sequence token: carries the finish reason. */
	record Eos() implements Step {
	}
}
