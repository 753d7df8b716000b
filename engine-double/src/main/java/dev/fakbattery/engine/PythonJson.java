package dev.fakbattery.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.core.util.Separators.Spacing;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;

import dev.fakbattery.wire.Json;

/**
 * JSON text as Python's {@code json.dumps} writes it with default separators ({@code ", "} and {@code ": "}):
 * the spacing of tool-call arguments and of in-stream error frames on both engines. A writer of its own because the
 * double answers byte for byte and {@link dev.fakbattery.wire.WireJson#write} is compact ({@code ","}, {@code ":"}),
 * the form of the engines' chunks and bodies, not of these strings.
 *
 * @since 0.1
 */
final class PythonJson {

	private static final DefaultPrettyPrinter PRINTER = new DefaultPrettyPrinter(Separators.createDefaultInstance()
			.withObjectFieldValueSpacing(Spacing.AFTER)
			.withObjectEntrySpacing(Spacing.AFTER)
			.withArrayValueSpacing(Spacing.AFTER)
			.withObjectEmptySeparator("")
			.withArrayEmptySeparator(""))
			.withObjectIndenter(DefaultPrettyPrinter.NopIndenter.instance)
			.withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance);

	private static final ObjectWriter UTF8 = Json.MAPPER.writer(PRINTER);

	private static final ObjectWriter ASCII = UTF8.with(JsonWriteFeature.ESCAPE_NON_ASCII);

	private PythonJson() {
	}

	/** {@code json.dumps(value, ensure_ascii=False)}. */
	static String dumps(JsonNode value) {
		return lowerCaseEscapes(write(UTF8, value));
	}

	/** {@code json.dumps(value)}: non-ASCII characters escaped as {@code \\uXXXX}. */
	static String dumpsAscii(JsonNode value) {
		return lowerCaseEscapes(write(ASCII, value));
	}

	private static String write(ObjectWriter writer, JsonNode value) {
		try {
			return writer.writeValueAsString(value);
		}
		catch (JsonProcessingException e) {
			throw new IllegalStateException("a JSON tree must serialize", e);
		}
	}

	/** Python writes {@code \\u00e9}, Jackson {@code \\u00E9}; escapes are found by walking, so {@code \\\\u} stays. */
	private static String lowerCaseEscapes(String json) {
		if (json.indexOf("\\u") < 0) {
			return json;
		}
		StringBuilder out = new StringBuilder(json.length());
		for (int i = 0; i < json.length(); i++) {
			char c = json.charAt(i);
			out.append(c);
			if (c == '\\' && i + 1 < json.length()) {
				char next = json.charAt(++i);
				out.append(next);
				if (next == 'u' && i + 4 < json.length()) {
					out.append(json.substring(i + 1, i + 5).toLowerCase(java.util.Locale.ROOT));
					i += 4;
				}
			}
		}
		return out.toString();
	}
}
