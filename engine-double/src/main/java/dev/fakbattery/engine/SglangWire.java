package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;

import dev.fakbattery.wire.WireJson;

/**
 * SGLang main (2026) shapes, from {@code /work/shared/wire/sglang}: role, content and finish chunks from the msgspec
 * builder ({@code reasoning_content:null} always first in the delta), tool-call and usage chunks from pydantic (every
 * key present, explicit nulls, {@code "usage":null}), {@code created} re-stamped per chunk, the request's
 * {@code model} echoed, flat error bodies.
 *
 * @since 0.1
 */
final class SglangWire implements Wire {

	/** Qwen2.5 {@code <|im_end|>}: SGLang's {@code matched_stop} when generation hits EOS. */
	static final int EOS_TOKEN_ID = 151645;

	private final EngineIdentity identity;

	SglangWire(EngineIdentity identity) {
		this.identity = identity;
	}

	@Override
	public String responseId(EngineRequest request, Headers headers) {
		return request.rid() != null ? request.rid() : Ids.marked(32);
	}

	@Override
	public String responseModel(EngineRequest request) {
		return request.model() != null ? request.model() : "default";
	}

	@Override
	public void checkModel(EngineRequest request) {
		// SGLang serves whatever model name the request carries.
	}

	@Override
	public void checkLength(EngineRequest request) throws ApiError {
		int prompt = request.promptTokens();
		int max = identity.maxModelLen();
		if (prompt >= max) {
			throw ApiError.badRequest("The input (" + prompt + " tokens) is longer than the model's context length ("
					+ max + " tokens).");
		}
		Integer maxTokens = request.maxTokens();
		if (maxTokens != null && maxTokens > max) {
			throw ApiError.badRequest("max_completion_tokens is too large: " + maxTokens + ".This model supports at most "
					+ max + " completion tokens.");
		}
	}

	@Override
	public ToolCall toolCall(ToolScript.Directive directive) {
		if (directive.json() == null) {
			return new ToolCall("call_" + Ids.marked(24), directive.name(), directive.raw(),
					ArgumentFragments.tokens(directive.raw()));
		}
		return new ToolCall("call_" + Ids.marked(24), directive.name(), PythonJson.dumps(directive.json()),
				ArgumentFragments.sglang(directive.json()));
	}

	@Override
	public List<String> stepEvents(Turn turn, int step) {
		List<String> events = new ArrayList<>(2);
		if (step == 0) {
			ObjectNode delta = msgspecDelta();
			delta.put("role", "assistant");
			delta.put("content", "");
			events.add(msgspecChunk(turn, delta, null, null, null));
		}
		Completion completion = turn.completion();
		switch (completion.steps().get(step)) {
			case Step.Text text -> {
				ObjectNode delta = msgspecDelta();
				delta.put("content", text.piece());
				events.add(msgspecChunk(turn, delta, null, null, continuousUsage(turn, step)));
				if (turn.lastStep(step) && completion.finish() == Completion.Finish.LENGTH) {
					events.add(msgspecChunk(turn, msgspecDelta(), "length", null, null));
				}
			}
			case Step.ToolName name -> {
				ToolCall call = completion.toolCalls().get(name.call());
				events.add(toolChunk(turn, step, call.id(), name.call(), call.name(), ""));
			}
			case Step.ToolArgs args -> events.add(toolChunk(turn, step, null, args.call(), null, args.fragment()));
			case Step.Eos eos -> events.add(msgspecChunk(turn, msgspecDelta(),
					completion.finish() == Completion.Finish.TOOL_CALLS ? "tool_calls" : "stop", EOS_TOKEN_ID, null));
		}
		return events;
	}

	@Override
	public List<String> tailEvents(Turn turn) {
		if (!turn.request().includeUsage()) {
			return List.of();
		}
		ObjectNode chunk = chunkHeader(turn);
		chunk.putArray("choices");
		chunk.set("usage", usage(turn.promptTokens(), turn.completion().completionTokens()));
		return List.of(WireJson.write(chunk));
	}

	@Override
	public String streamErrorFrame() {
		ObjectNode frame = WireJson.object();
		ObjectNode error = frame.putObject("error");
		error.put("object", "error");
		error.put("message", "Generation aborted.");
		error.put("type", "INTERNAL_SERVER_ERROR");
		error.putNull("param");
		error.put("code", 500);
		return PythonJson.dumps(frame);
	}

	@Override
	public String completion(Turn turn) {
		Completion completion = turn.completion();
		ObjectNode body = WireJson.object();
		body.put("id", turn.id());
		body.put("object", "chat.completion");
		body.put("created", turn.created());
		body.put("model", turn.model());
		ObjectNode choice = body.putArray("choices").addObject();
		choice.put("index", 0);
		ObjectNode message = choice.putObject("message");
		message.put("role", "assistant");
		message.put("content", completion.text());
		message.putNull("reasoning_content");
		if (completion.toolCalls().isEmpty()) {
			message.putNull("tool_calls");
		}
		else {
			ArrayNode calls = message.putArray("tool_calls");
			for (int i = 0; i < completion.toolCalls().size(); i++) {
				ToolCall call = completion.toolCalls().get(i);
				ObjectNode item = calls.addObject();
				item.put("id", call.id());
				item.put("index", i);
				item.put("type", "function");
				ObjectNode function = item.putObject("function");
				function.put("name", call.name());
				function.put("arguments", call.arguments());
			}
		}
		choice.putNull("logprobs");
		choice.put("finish_reason", switch (completion.finish()) {
			case STOP -> "stop";
			case LENGTH -> "length";
			case TOOL_CALLS -> "tool_calls";
		});
		if (completion.finish() == Completion.Finish.STOP) {
			choice.put("matched_stop", EOS_TOKEN_ID);
		}
		else {
			choice.putNull("matched_stop");
		}
		body.set("usage", usage(turn.promptTokens(), completion.completionTokens()));
		body.putObject("metadata").put("weight_version", "default");
		return WireJson.write(body);
	}

	@Override
	public String errorBody(ApiError error) {
		ObjectNode body = WireJson.object();
		if (error.status() == 401) {
			return WireJson.write(body.put("error", "Unauthorized"));
		}
		body.put("object", "error");
		body.put("message", error.getMessage());
		body.put("type", errorType(error));
		body.put("param", error.param());
		body.put("code", error.status());
		return WireJson.write(body);
	}

	@Override
	public String models() {
		ObjectNode body = WireJson.object();
		body.put("object", "list");
		ObjectNode card = body.putArray("data").addObject();
		card.put("id", identity.model());
		card.put("object", "model");
		card.put("created", identity.startedEpochSecond());
		card.put("owned_by", "sglang");
		card.put("root", identity.model());
		card.putNull("parent");
		card.put("max_model_len", identity.maxModelLen());
		return WireJson.write(body);
	}

	/** {@code "Bad Request"} for schema failures, {@code BadRequestError} for other 400s, else the HTTPStatus name. */
	static String errorType(ApiError error) {
		if (ApiError.VALIDATION.equals(error.kind())) {
			return "Bad Request";
		}
		if (error.status() == 400) {
			return "BadRequestError";
		}
		return ApiError.phrase(error.status()).toUpperCase(Locale.ROOT).replace(' ', '_');
	}

	private static ObjectNode msgspecDelta() {
		ObjectNode delta = WireJson.object();
		delta.putNull("reasoning_content");
		return delta;
	}

	/** {@code sse_utils.build_sse_content}: {@code usage} only when set. */
	private static String msgspecChunk(Turn turn, ObjectNode delta, String finish, Integer matchedStop, ObjectNode usage) {
		ObjectNode chunk = chunkHeader(turn);
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", 0);
		choice.set("delta", delta);
		choice.putNull("logprobs");
		choice.put("finish_reason", finish);
		choice.put("matched_stop", matchedStop);
		if (usage != null) {
			chunk.set("usage", usage);
		}
		return WireJson.write(chunk);
	}

	/** Pydantic {@code model_dump_json()}: every field, nulls explicit. */
	private static String toolChunk(Turn turn, int step, String id, int index, String name, String arguments) {
		ObjectNode chunk = chunkHeader(turn);
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", 0);
		ObjectNode delta = choice.putObject("delta");
		delta.putNull("role");
		delta.putNull("content");
		delta.putNull("reasoning_content");
		ObjectNode item = delta.putArray("tool_calls").addObject();
		item.put("id", id);
		item.put("index", index);
		item.put("type", "function");
		ObjectNode function = item.putObject("function");
		function.put("name", name);
		function.put("arguments", arguments);
		choice.putNull("logprobs");
		choice.putNull("finish_reason");
		choice.putNull("matched_stop");
		ObjectNode usage = continuousUsage(turn, step);
		if (usage == null) {
			chunk.putNull("usage");
		}
		else {
			chunk.set("usage", usage);
		}
		return WireJson.write(chunk);
	}

	private static ObjectNode continuousUsage(Turn turn, int step) {
		return turn.request().includeUsage() && turn.request().continuousUsage() ? usage(turn.promptTokens(), step + 1) : null;
	}

	/** {@code created} is {@code int(time.time())} per chunk on SGLang. */
	private static ObjectNode chunkHeader(Turn turn) {
		ObjectNode chunk = WireJson.object();
		chunk.put("id", turn.id());
		chunk.put("object", "chat.completion.chunk");
		chunk.put("created", System.currentTimeMillis() / 1000);
		chunk.put("model", turn.model());
		return chunk;
	}

	/** {@code UsageInfo.model_dump()}: all fields. */
	private static ObjectNode usage(int prompt, int completion) {
		ObjectNode usage = WireJson.object();
		usage.put("prompt_tokens", prompt);
		usage.put("total_tokens", prompt + completion);
		usage.put("completion_tokens", completion);
		usage.putNull("prompt_tokens_details");
		usage.put("reasoning_tokens", 0);
		return usage;
	}
}
