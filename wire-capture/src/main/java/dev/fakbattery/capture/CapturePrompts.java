package dev.fakbattery.capture;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * The prompts the capture command asks a live engine, each once whole and once streamed: plain text, one tool call
 * (the model's choice, then required), parallel calls, one stream with {@code continuous_usage_stats}, and one request
 * every engine must refuse ({@code tool_choice} that is not one of its values), for the engine's own error answer. Tool
 * names carry no policy prefix: the kit renames them to its {@code allow_}, {@code deny_}, {@code transform_} variants
 * when it replays the capture.
 */
final class CapturePrompts {

	/**
	 * One prompt: its name (the capture's file name), its request without {@code model} and {@code stream}, whether it is
	 * also asked whole, and whether the engine must refuse it (a 4xx is then the answer expected, not a failure).
	 */
	record Prompt(String name, ObjectNode request, boolean wholeToo, boolean refused) {

		Prompt(String name, ObjectNode request, boolean wholeToo) {
			this(name, request, wholeToo, false);
		}

		/** Whether {@code status} is the answer this prompt expects: 200, or a 4xx for a refused one. */
		boolean expects(int status) {
			return refused ? status >= 400 && status < 500 : status == 200;
		}
	}

	/** The value of {@code tool_choice} in the refused prompt: none of {@code none}, {@code auto}, {@code required} or a named tool. */
	static final String INVALID_TOOL_CHOICE = "kit-invalid";

	private CapturePrompts() {
	}

	static List<Prompt> all() {
		return List.of(
				new Prompt("text", request("Name the capital of France in one short sentence.", false, null), true),
				new Prompt("tool-call", request("Read the file /etc/hosts.", true, "auto"), true),
				new Prompt("tool-call-required", request("Read the file /etc/hosts.", true, "required"), true),
				new Prompt("parallel-tool-calls",
						request("Read the file /etc/hosts and list the folder /tmp. Call both tools at once.", true, "auto"),
						true),
				new Prompt("tool-call-continuous-usage", continuousUsage(request("Read the file /etc/hosts.", true, "auto")), false),
				new Prompt("error-invalid-tool-choice", request("Read the file /etc/hosts.", true, INVALID_TOOL_CHOICE), true, true));
	}

	static List<String> names() {
		return all().stream().map(Prompt::name).toList();
	}

	private static ObjectNode request(String prompt, boolean tools, String toolChoice) {
		ObjectNode body = Json.MAPPER.createObjectNode();
		body.putArray("messages").addObject().put("role", "user").put("content", prompt);
		if (tools) {
			ArrayNode offered = body.putArray("tools");
			tool(offered, "read_file", "Read a text file", "path");
			tool(offered, "list_dir", "List a folder", "dir");
			body.put("tool_choice", toolChoice);
		}
		body.put("max_tokens", 256);
		body.put("temperature", 0);
		return body;
	}

	private static void tool(ArrayNode tools, String name, String description, String parameter) {
		ObjectNode function = tools.addObject().put("type", "function").putObject("function");
		function.put("name", name).put("description", description);
		ObjectNode parameters = function.putObject("parameters").put("type", "object");
		parameters.putObject("properties").putObject(parameter).put("type", "string");
		parameters.putArray("required").add(parameter);
	}

	private static ObjectNode continuousUsage(ObjectNode request) {
		request.putObject("stream_options").put("include_usage", true).put("continuous_usage_stats", true);
		return request;
	}
}
