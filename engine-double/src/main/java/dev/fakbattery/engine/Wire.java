package dev.fakbattery.engine;

import java.util.List;

import com.sun.net.httpserver.Headers;

import dev.fakbattery.wire.Dialect;

/**
 * The byte shapes of one dialect: ids, chunks, completions, error bodies, model cards.
 *
 * @since 0.1
 */
interface Wire {

	static Wire of(Dialect dialect, EngineIdentity identity) {
		return switch (dialect) {
			case VLLM -> new VllmWire(identity);
			case SGLANG -> new SglangWire(identity);
			case LLAMACPP -> throw new IllegalArgumentException("the engine double does not speak " + dialect);
		};
	}

	/** The response id for a request. */
	String responseId(EngineRequest request, Headers headers);

	/** The response {@code model}. */
	String responseModel(EngineRequest request);

	/**
	 * Rejects a request for a model the engine does not serve.
	 *
	 * @throws ApiError when the dialect validates the model and it is unknown
	 */
	void checkModel(EngineRequest request) throws ApiError;

	/**
	 * Rejects a request whose prompt and {@code max_tokens} do not fit the context.
	 *
	 * @throws ApiError with the dialect's message
	 */
	void checkLength(EngineRequest request) throws ApiError;

	/** A scripted call with the dialect's id and argument rendering. */
	ToolCall toolCall(ToolScript.Directive directive);

	/** The data events (JSON text, without {@code data: }) emitted when step {@code step} is generated. */
	List<String> stepEvents(Turn turn, int step);

	/** Data events after the last step and before {@code [DONE]}: the usage chunk when asked for. */
	List<String> tailEvents(Turn turn);

	/** The in-stream error frame (Python {@code json.dumps} spacing). */
	String streamErrorFrame();

	/** The non-streamed completion body. */
	String completion(Turn turn);

	/** The error body for an error answer. */
	String errorBody(ApiError error);

	/** The {@code GET /v1/models} body. */
	String models();
}
