package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;

import dev.fakbattery.wire.WireJson;

/**
 * vLLM main (2026) shapes, from {@code /work/shared/wire/vllm}: chunks serialized with {@code exclude_unset}
 * (first chunk carries {@code prompt_token_ids}/{@code prompt_text} nulls, later choices carry {@code token_ids},
 * the finish choice adds {@code stop_reason}), hermes tool deltas, a {@code choices:[]} usage chunk that takes the
 * {@code system_fingerprint}, nested error bodies.
 *
 * @since 0.1
 */
final class VllmWire implements Wire {

	private final EngineIdentity identity;

	private final String fingerprint;

	VllmWire(EngineIdentity identity) {
		this.identity = identity;
		this.fingerprint = "vllm-" + identity.version() + "-"
				+ String.format(Locale.ROOT, "%08x", (identity.model() + identity.version()).hashCode());
	}

	@Override
	public String responseId(EngineRequest request, Headers headers) {
		String requestId = headers.getFirst("X-Request-Id");
		return "chatcmpl-" + (requestId == null || requestId.isBlank() ? Ids.marked(16) : requestId);
	}

	@Override
	public String responseModel(EngineRequest request) {
		return identity.model();
	}

	@Override
	public void checkModel(EngineRequest request) throws ApiError {
		if (request.model() != null && !request.model().equals(identity.model())) {
			throw new ApiError(404, "The model `" + request.model() + "` does not exist.", null, "model");
		}
	}

	@Override
	public void checkLength(EngineRequest request) throws ApiError {
		int prompt = request.promptTokens();
		int max = identity.maxModelLen();
		if (prompt >= max) {
			throw ApiError.badRequest("This model's maximum context length is " + max + " tokens. However, your request has "
					+ prompt + " input tokens. Please reduce the length of the input messages.");
		}
		Integer maxTokens = request.maxTokens();
		if (maxTokens != null && maxTokens > max - prompt) {
			throw ApiError.badRequest("'max_tokens' or 'max_completion_tokens' is too large: " + maxTokens
					+ ". This model's maximum context length is " + max + " tokens and your request has " + prompt
					+ " input tokens (" + maxTokens + " > " + max + " - " + prompt + ").");
		}
	}

	@Override
	public ToolCall toolCall(ToolScript.Directive directive) {
		String arguments = directive.json() == null ? directive.raw() : PythonJson.dumps(directive.json());
		return new ToolCall("chatcmpl-tool-" + Ids.marked(16), directive.name(), arguments, ArgumentFragments.tokens(arguments));
	}

	@Override
	public List<String> stepEvents(Turn turn, int step) {
		List<String> events = new ArrayList<>(2);
		if (step == 0) {
			events.add(roleChunk(turn));
		}
		ObjectNode delta = WireJson.object();
		String finish = null;
		switch (turn.completion().steps().get(step)) {
			case Step.Text text -> {
				delta.put("content", text.piece());
				if (turn.lastStep(step) && turn.completion().finish() == Completion.Finish.LENGTH) {
					finish = "length";
				}
			}
			case Step.ToolName name -> {
				ToolCall call = turn.completion().toolCalls().get(name.call());
				ObjectNode item = toolDelta(delta);
				item.put("id", call.id());
				item.put("type", "function");
				item.put("index", name.call());
				item.putObject("function").put("name", call.name());
			}
			case Step.ToolArgs args -> {
				ObjectNode item = toolDelta(delta);
				item.put("index", args.call());
				item.putObject("function").put("arguments", args.fragment());
			}
			case Step.Eos eos -> {
				if (turn.completion().finish() != Completion.Finish.TOOL_CALLS) {
					delta.put("content", "");
				}
				finish = finishReason(turn.completion());
			}
		}
		ObjectNode chunk = chunkHeader(turn);
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", 0);
		choice.set("delta", delta);
		choice.putNull("logprobs");
		choice.put("finish_reason", finish);
		if (finish != null) {
			choice.putNull("stop_reason");
		}
		choice.putNull("token_ids");
		if (continuousUsage(turn)) {
			chunk.set("usage", usage(turn.promptTokens(), step + 1));
		}
		if (finish != null && !turn.request().includeUsage()) {
			chunk.put("system_fingerprint", fingerprint);
		}
		events.add(WireJson.write(chunk));
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
		chunk.put("system_fingerprint", fingerprint);
		return List.of(WireJson.write(chunk));
	}

	@Override
	public String streamErrorFrame() {
		ObjectNode frame = WireJson.object();
		ObjectNode error = frame.putObject("error");
		error.put("message", "Internal server error");
		error.put("type", "InternalServerError");
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
		message.put("content", completion.toolCalls().isEmpty() ? completion.text() : null);
		message.putNull("refusal");
		message.putNull("annotations");
		message.putNull("audio");
		message.putNull("function_call");
		if (!completion.toolCalls().isEmpty()) {
			ArrayNode calls = message.putArray("tool_calls");
			for (ToolCall call : completion.toolCalls()) {
				ObjectNode item = calls.addObject();
				item.put("id", call.id());
				item.put("type", "function");
				ObjectNode function = item.putObject("function");
				function.put("name", call.name());
				function.put("arguments", call.arguments());
			}
		}
		message.putNull("reasoning");
		choice.putNull("logprobs");
		choice.put("finish_reason", finishReason(completion));
		choice.putNull("stop_reason");
		choice.putNull("token_ids");
		choice.putNull("routed_experts");
		body.putNull("service_tier");
		body.put("system_fingerprint", fingerprint);
		ObjectNode usage = usage(turn.promptTokens(), completion.completionTokens());
		usage.putNull("prompt_tokens_details");
		usage.putNull("completion_tokens_details");
		body.set("usage", usage);
		for (String extension : List.of("prompt_logprobs", "prompt_token_ids", "prompt_text", "kv_transfer_params",
				"ec_transfer_params", "metrics")) {
			body.putNull(extension);
		}
		return WireJson.write(body);
	}

	@Override
	public String errorBody(ApiError error) {
		ObjectNode body = WireJson.object();
		if (error.status() == 401) {
			return WireJson.write(body.put("error", "Unauthorized"));
		}
		ObjectNode inner = body.putObject("error");
		inner.put("message", error.getMessage());
		inner.put("type", errorType(error.status()));
		inner.put("param", error.param());
		inner.put("code", error.status());
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
		card.put("owned_by", "vllm");
		card.put("root", identity.model());
		card.putNull("parent");
		card.put("max_model_len", identity.maxModelLen());
		ObjectNode permission = card.putArray("permission").addObject();
		permission.put("id", "modelperm-" + Ids.marked(16));
		permission.put("object", "model_permission");
		permission.put("created", identity.startedEpochSecond());
		permission.put("allow_create_engine", false);
		permission.put("allow_sampling", true);
		permission.put("allow_logprobs", true);
		permission.put("allow_search_indices", false);
		permission.put("allow_view", true);
		permission.put("allow_fine_tuning", false);
		permission.put("organization", "*");
		permission.putNull("group");
		permission.put("is_blocking", false);
		return WireJson.write(body);
	}

	/** {@code BadRequestError}, {@code NotFoundError}, {@code InternalServerError}, ...: the phrase in PascalCase. */
	static String errorType(int status) {
		StringBuilder type = new StringBuilder();
		for (String word : ApiError.phrase(status).split(" ")) {
			type.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1).toLowerCase(Locale.ROOT));
		}
		return type.toString().endsWith("Error") ? type.toString() : type.append("Error").toString();
	}

	private static String finishReason(Completion completion) {
		return switch (completion.finish()) {
			case STOP -> "stop";
			case LENGTH -> "length";
			case TOOL_CALLS -> completion.namedTool() ? "stop" : "tool_calls";
		};
	}

	private static boolean continuousUsage(Turn turn) {
		return turn.request().includeUsage() && turn.request().continuousUsage();
	}

	private static ObjectNode toolDelta(ObjectNode delta) {
		delta.putNull("content");
		return delta.putArray("tool_calls").addObject();
	}

	private String roleChunk(Turn turn) {
		ObjectNode chunk = chunkHeader(turn);
		ObjectNode choice = chunk.putArray("choices").addObject();
		choice.put("index", 0);
		choice.putObject("delta").put("role", "assistant").put("content", "");
		choice.putNull("logprobs");
		choice.putNull("finish_reason");
		if (continuousUsage(turn)) {
			chunk.set("usage", usage(turn.promptTokens(), 0));
		}
		chunk.putNull("prompt_token_ids");
		chunk.putNull("prompt_text");
		return WireJson.write(chunk);
	}

	private static ObjectNode chunkHeader(Turn turn) {
		ObjectNode chunk = WireJson.object();
		chunk.put("id", turn.id());
		chunk.put("object", "chat.completion.chunk");
		chunk.put("created", turn.created());
		chunk.put("model", turn.model());
		return chunk;
	}

	/** {@code UsageInfo} with the fields vLLM sets, in its declaration order. */
	private static ObjectNode usage(int prompt, int completion) {
		ObjectNode usage = WireJson.object();
		usage.put("prompt_tokens", prompt);
		usage.put("total_tokens", prompt + completion);
		usage.put("completion_tokens", completion);
		return usage;
	}
}
