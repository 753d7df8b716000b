package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Splits tool-call arguments into the fragments the engines stream. Only the concatenation is meaningful; boundaries
 * imitate each engine's parser.
 *
 * @since 0.1
 */
final class ArgumentFragments {

	/** A word, a JSON escape, or a run of punctuation, each with its leading whitespace; or trailing whitespace. */
	private static final Pattern TOKEN = Pattern.compile(
			"\\s*(?:[\\p{L}\\p{N}_]+|\\\\u[0-9a-fA-F]{4}|\\\\.|[^\\s\\p{L}\\p{N}_\\\\]+)|\\s+");

	private ArgumentFragments() {
	}

	/**
	 * vLLM hermes: diffs of the raw model text, one tokenizer-like piece at a time
	 * ({@code {"}, {@code city}, {@code ":}, {@code  "}, ...).
	 */
	static List<String> tokens(String text) {
		List<String> pieces = new ArrayList<>();
		Matcher m = TOKEN.matcher(text);
		int end = 0;
		while (m.find()) {
			if (m.start() != end) {
				break;
			}
			pieces.add(m.group());
			end = m.end();
		}
		if (end != text.length()) {
			pieces.add(text.substring(end));
		}
		return pieces;
	}

	/**
	 * SGLang JSON detectors: prefixes of {@code json.dumps(args)}, so a key arrives whole with the opening quote of
	 * its string value ({@code {"city": "}), the value streams word by word and its closing quote rides on its last
	 * word ({@code Paris"}); the separator opens the next fragment ({@code , "unit": "}) and the closing brace rides
	 * on the last one. Non-string values arrive whole, with what follows them up to the next string value.
	 */
	static List<String> sglang(JsonNode args) {
		if (!args.isObject() || args.isEmpty()) {
			return List.of(PythonJson.dumpsAscii(args));
		}
		List<String> pieces = new ArrayList<>();
		StringBuilder pending = new StringBuilder("{");
		int remaining = args.size();
		boolean first = true;
		for (Map.Entry<String, JsonNode> field : args.properties()) {
			boolean last = --remaining == 0;
			if (!first) {
				pending.append(", ");
			}
			first = false;
			pending.append(PythonJson.dumpsAscii(TextNode.valueOf(field.getKey()))).append(": ");
			String value = PythonJson.dumpsAscii(field.getValue());
			if (field.getValue().isTextual() && value.length() > 2) {
				pending.append('"');
				pieces.add(pending.toString());
				pending.setLength(0);
				List<String> words = tokens(value.substring(1, value.length() - 1));
				for (int i = 0; i < words.size() - 1; i++) {
					pieces.add(words.get(i));
				}
				pending.append(words.getLast()).append('"');
				if (!last) {
					pieces.add(pending.toString());
					pending.setLength(0);
				}
			}
			else {
				pending.append(value);
			}
		}
		pending.append('}');
		pieces.add(pending.toString());
		return pieces;
	}
}
