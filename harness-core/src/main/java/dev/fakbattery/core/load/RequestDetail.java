package dev.fakbattery.core.load;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

import org.apiguardian.api.API;

/**
 * What one request of a workload asked for and what came back besides its timing: its place in a conversation, the
 * lengths the workload meant, the prompt tokens the engine served from its prefix cache, the tool calls the answer
 * proposed and its finish reason.
 *
 * @param conversation the conversation the request belongs to (single-turn workloads: the request's own index)
 * @param turn 0 for the first request of a conversation, then 1, 2, ...
 * @param promptTokensAsked the prompt length the workload meant; empty when it did not say
 * @param outputTokensAsked {@code max_tokens} of the request
 * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens}, when the engine reported it
 * @param toolCalls the tool calls of the answer, assembled from the stream (or read from the body), in order
 * @param finishReason the answer's {@code finish_reason}; null when none came
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record RequestDetail(int conversation, int turn, OptionalInt promptTokensAsked, int outputTokensAsked,
		OptionalInt cachedTokens, List<Call> toolCalls, String finishReason) {

	/** Nothing known beyond the timing. */
	public static final RequestDetail NONE = new RequestDetail(0, 0, OptionalInt.empty(), 0, OptionalInt.empty(), List.of(), null);

	public RequestDetail {
		Objects.requireNonNull(promptTokensAsked, "promptTokensAsked");
		Objects.requireNonNull(cachedTokens, "cachedTokens");
		toolCalls = List.copyOf(toolCalls);
	}

	/** This detail placed at {@code turn} of {@code conversation}. */
	public RequestDetail at(int conversationIndex, int turnIndex) {
		return new RequestDetail(conversationIndex, turnIndex, promptTokensAsked, outputTokensAsked, cachedTokens, toolCalls,
				finishReason);
	}

	/**
	 * One tool call of an answer.
	 *
	 * @param id the call's id; empty when the server sent none
	 * @param name the function name; empty when none came
	 * @param arguments the arguments text as received (concatenated fragments when streamed)
	 * @since 0.3
	 */
	public record Call(String id, String name, String arguments) {

		public Call {
			id = id == null ? "" : id;
			name = name == null ? "" : name;
			arguments = arguments == null ? "" : arguments;
		}
	}
}
