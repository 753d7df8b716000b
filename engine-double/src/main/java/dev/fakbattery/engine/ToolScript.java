package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

/**
 * The tool calls a request asks the double to make. Lines of the last user message of the form
 * {@code CALL <name> [<json arguments>]} are directives, one call each, in order. Arguments that are not a JSON
 * object are passed on verbatim as the {@code arguments} string (to test how a gateway copes with bad arguments).
 * Without directives the double calls the first offered tool (or the named one) with {@code {}}.
 *
 * <p>Tool loops: lines {@code THEN} split the directives into rounds. A request whose messages after the last user
 * message hold {@code r} assistant messages (rounds already answered with tool results) gets round {@code r}'s calls;
 * once the rounds are used up, with {@code tool_choice} {@code auto}, the double answers in text (finish
 * {@code stop}), as a model does when its task is done.
 *
 * @since 0.1
 */
final class ToolScript {

	private static final Pattern DIRECTIVE = Pattern.compile("^[ \\t]*CALL[ \\t]+([^\\s{]+)[ \\t]*(.*?)[ \\t]*$", Pattern.MULTILINE);

	/**
	 * One directive.
	 *
	 * @param name function name
	 * @param json the arguments as a JSON object, or null when {@code raw} is not one
	 * @param raw the arguments text as written ({@code {}} when absent)
	 */
	record Directive(String name, JsonNode json, String raw) {
	}

	private ToolScript() {
	}

	private static final Pattern ROUNDS = Pattern.compile("(?m)^[ \\t]*THEN[ \\t]*$");

	/** The calls of this request's round; empty when the script is done and the double should answer in text. */
	static Optional<List<Directive>> round(EngineRequest request) {
		String[] rounds = ROUNDS.split(request.lastUserText(), -1);
		int round = request.toolRounds();
		if (round == 0) {
			return Optional.of(directives(request, rounds[0]));
		}
		if (round < rounds.length) {
			return Optional.of(directives(request, rounds[round]));
		}
		return request.toolChoice().mode() == ToolChoice.Mode.AUTO ? Optional.empty() : Optional.of(directives(request, ""));
	}

	private static List<Directive> directives(EngineRequest request, String script) {
		List<Directive> found = new ArrayList<>();
		Matcher m = DIRECTIVE.matcher(script);
		while (m.find()) {
			found.add(directive(m.group(1), m.group(2).isEmpty() ? "{}" : m.group(2)));
		}
		ToolChoice choice = request.toolChoice();
		if (choice.mode() == ToolChoice.Mode.NAMED) {
			return List.of(found.stream()
					.filter(d -> d.name().equals(choice.name()))
					.findFirst()
					.orElse(directive(choice.name(), "{}")));
		}
		if (found.isEmpty()) {
			found.add(directive(request.tools().getFirst(), "{}"));
		}
		return found;
	}

	private static Directive directive(String name, String raw) {
		JsonNode json;
		try {
			json = Json.MAPPER.readTree(raw);
		}
		catch (java.io.IOException e) {
			json = null;
		}
		return new Directive(name, json != null && json.isObject() ? json : null, raw);
	}
}
