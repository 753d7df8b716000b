package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.ChatRequest;
import dev.fakbattery.wire.Json;

/**
 * A {@link ChatRequest} as an engine admits it: the parts the double acts on, checked and coerced the way the engines
 * check them (their error texts, their coerced booleans), where the wire view's accessors throw a WireFormatException.
 *
 * @param wire the request body as the battery's wire view
 * @param model the requested model, or null when absent
 * @param stream whether to stream
 * @param includeUsage {@code stream_options.include_usage}
 * @param continuousUsage {@code stream_options.continuous_usage_stats}
 * @param maxTokens {@code max_completion_tokens} or else {@code max_tokens}, or null
 * @param tools names of the offered functions, in order
 * @param toolChoice effective tool choice ({@code auto} when tools are offered without one)
 * @param seed the request's {@code seed}, or null
 * @param rid SGLang's {@code rid}, or null
 * @param promptTokens whitespace-separated words over all message texts, at least 1
 * @param lastUserText text of the last user message, empty when none
 * @param toolRounds assistant messages after the last user message: the rounds of a tool loop already answered
 * @param blockHashes the prompt's prefix-cache blocks ({@link PrefixCache#blockHashes})
 * @since 0.1
 */
record EngineRequest(ChatRequest wire, String model, boolean stream, boolean includeUsage, boolean continuousUsage,
		Integer maxTokens, List<String> tools, ToolChoice toolChoice, Long seed, String rid, int promptTokens,
		String lastUserText, int toolRounds, long[] blockHashes) {

	static EngineRequest parse(byte[] raw) throws ApiError {
		JsonNode root;
		try {
			root = Json.MAPPER.readTree(raw);
		}
		catch (JsonProcessingException e) {
			throw ApiError.validation("JSON decode error: " + e.getOriginalMessage());
		}
		catch (java.io.IOException e) {
			throw ApiError.validation("JSON decode error: " + e.getMessage());
		}
		if (root == null || !root.isObject()) {
			throw ApiError.validation("Input should be a valid dictionary or object to extract fields from");
		}
		ObjectNode body = (ObjectNode) root;
		JsonNode messages = body.get("messages");
		if (messages == null || messages.isNull()) {
			throw ApiError.validation("1 validation error:\n  {'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required'}");
		}
		if (!messages.isArray()) {
			throw ApiError.validation(
					"1 validation error:\n  {'type': 'list_type', 'loc': ('body', 'messages'), 'msg': 'Input should be a valid list'}");
		}
		if (messages.isEmpty()) {
			throw ApiError.badRequest("Messages cannot be empty.");
		}
		JsonNode options = body.path("stream_options");
		Integer maxTokens = maxTokens(body);
		List<String> tools = toolNames(body.path("tools"));
		ChatRequest wire = ChatRequest.of(body);
		ToolChoice toolChoice = toolChoice(wire.toolChoice().orElse(null), tools);
		return new EngineRequest(wire,
				textOrNull(body.get("model")),
				body.path("stream").asBoolean(false),
				options.path("include_usage").asBoolean(false),
				options.path("continuous_usage_stats").asBoolean(false),
				maxTokens,
				tools,
				toolChoice,
				body.hasNonNull("seed") && body.get("seed").canConvertToLong() ? body.get("seed").asLong() : null,
				textOrNull(body.get("rid")),
				Math.max(1, countWords(messages)),
				lastUserText(messages),
				toolRounds(messages),
				PrefixCache.blockHashes(words(messages), countWords(messages)));
	}

	private static Integer maxTokens(ObjectNode body) throws ApiError {
		JsonNode value = body.hasNonNull("max_completion_tokens") ? body.get("max_completion_tokens") : body.get("max_tokens");
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.canConvertToInt() || !value.isIntegralNumber()) {
			throw ApiError.validation(
					"1 validation error:\n  {'type': 'int_type', 'loc': ('body', 'max_tokens'), 'msg': 'Input should be a valid integer'}");
		}
		if (value.asInt() < 1) {
			throw ApiError.badRequest("max_tokens must be at least 1, got " + value.asInt() + ".");
		}
		return value.asInt();
	}

	private static List<String> toolNames(JsonNode tools) {
		List<String> names = new ArrayList<>();
		for (JsonNode tool : tools) {
			String name = tool.path("function").path("name").asText("");
			if (!name.isEmpty()) {
				names.add(name);
			}
		}
		return List.copyOf(names);
	}

	private static ToolChoice toolChoice(JsonNode choice, List<String> tools) throws ApiError {
		if (choice == null || choice.isNull()) {
			return new ToolChoice(tools.isEmpty() ? ToolChoice.Mode.NONE : ToolChoice.Mode.AUTO, null);
		}
		if (choice.isTextual()) {
			ToolChoice.Mode mode = switch (choice.asText()) {
				case "none" -> ToolChoice.Mode.NONE;
				case "auto" -> ToolChoice.Mode.AUTO;
				case "required" -> ToolChoice.Mode.REQUIRED;
				default -> throw ApiError
						.validation("tool_choice must be none, auto, required or a named function, was '" + choice.asText() + "'");
			};
			if (mode == ToolChoice.Mode.REQUIRED && tools.isEmpty()) {
				throw ApiError.badRequest("Tools cannot be empty if tool choice is set to required.");
			}
			return new ToolChoice(tools.isEmpty() ? ToolChoice.Mode.NONE : mode, null);
		}
		String name = choice.path("function").path("name").asText("");
		if (name.isEmpty() || tools.isEmpty()) {
			throw ApiError.badRequest("Tools cannot be empty if tool choice is set to a specific tool.");
		}
		if (!tools.contains(name)) {
			throw ApiError.badRequest("Tool '" + name + "' not found in tools list.");
		}
		return new ToolChoice(ToolChoice.Mode.NAMED, name);
	}

	private static int countWords(JsonNode messages) {
		int words = 0;
		for (JsonNode message : messages) {
			String text = text(message.get("content")).strip();
			if (!text.isEmpty()) {
				words += text.split("\\s+").length;
			}
		}
		return words;
	}

	private static List<String> words(JsonNode messages) {
		List<String> words = new ArrayList<>();
		for (JsonNode message : messages) {
			String text = text(message.get("content")).strip();
			if (!text.isEmpty()) {
				java.util.Collections.addAll(words, text.split("\\s+"));
			}
		}
		return words;
	}

	private static int toolRounds(JsonNode messages) {
		int rounds = 0;
		for (int i = messages.size() - 1; i >= 0 && !"user".equals(messages.get(i).path("role").asText()); i--) {
			rounds += "assistant".equals(messages.get(i).path("role").asText()) ? 1 : 0;
		}
		return rounds;
	}

	private static String lastUserText(JsonNode messages) {
		for (int i = messages.size() - 1; i >= 0; i--) {
			if ("user".equals(messages.get(i).path("role").asText())) {
				return text(messages.get(i).get("content"));
			}
		}
		return "";
	}

	/** Text of a message's content: a string, or the {@code text} of its parts. */
	private static String text(JsonNode content) {
		if (content == null || content.isNull()) {
			return "";
		}
		if (content.isTextual()) {
			return content.asText();
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode part : content) {
			if (part.isTextual()) {
				text.append(part.asText()).append(' ');
			}
			else if (part.hasNonNull("text")) {
				text.append(part.get("text").asText()).append(' ');
			}
		}
		return text.toString();
	}

	private static String textOrNull(JsonNode node) {
		return node != null && node.isTextual() ? node.asText() : null;
	}
}
