package dev.fakbattery.engine;

import java.util.List;

/**
 * What the double generates for one request: the token steps in order and why generation ends.
 * {@code completion_tokens} is the number of steps.
 *
 * @param steps generated tokens, in order
 * @param finish why generation ended
 * @param toolCalls scripted tool calls, empty for a text answer
 * @param text the content text (concatenated {@link Step.Text} pieces)
 * @param namedTool whether {@code tool_choice} named the function (vLLM then finishes with {@code stop})
 * @since 0.1
 */
record Completion(List<Step> steps, Finish finish, List<ToolCall> toolCalls, String text, boolean namedTool) {

	enum Finish {
		STOP, LENGTH, TOOL_CALLS
	}

	int completionTokens() {
		return steps.size();
	}

	EngineCounters.Finished counted() {
		return finish == Finish.LENGTH ? EngineCounters.Finished.LENGTH : EngineCounters.Finished.STOP;
	}
}
