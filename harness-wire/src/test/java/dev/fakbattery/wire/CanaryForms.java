package dev.fakbattery.wire;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.params.provider.Arguments;

/**
 * A canary API key and every form a writer may give it, for the self-tests of the secret guard and of each writer
 * that passes it: each form as {@code (name, the form the guard names, encode)}.
 */
public final class CanaryForms {

	/** A canary key with characters each encoding treats differently: a slash, a plus, a space, a quote. */
	public static final String KEY = "sk-canary/0123+abc def\"9876-xyz";

	/** The parameter a canary key is planted under. */
	public static final String PARAMETER = "api.key.env";

	private static final ObjectMapper JSON = new ObjectMapper();

	private CanaryForms() {
	}

	/** A fresh canary key, unlike any other run's, with the same awkward characters as {@link #KEY}. */
	public static String freshKey() {
		return "sk-canary/" + UUID.randomUUID().toString().replace("-", "+") + " q\"z";
	}

	/** A guard of {@code key} planted as the value of the variable {@code CANARY} that {@code api.key.env} names. */
	public static SecretGuard guard(String key) {
		return SecretGuard.of(PARAMETER, "the value of the environment variable CANARY (api.key.env)", key);
	}

	/** Every form, as arguments {@code (String name, String expectedForm, UnaryOperator<String> encode)}. */
	public static Stream<Arguments> forms() {
		return Stream.of(
				form("raw", "raw", key -> "Authorization: Bearer " + key),
				form("Jackson-written JSON", "JSON-escaped", key -> json(Map.of("auth", key))),
				form("JSON in a JSON string", "JSON-escaped", key -> json(Map.of("body", json(Map.of("auth", key))))),
				form("every char \\u-escaped, lower-case hex", "JSON-escaped", key -> "{\"a\":\"" + unicode(key, "\\u%04x") + "\"}"),
				form("every char \\u-escaped, upper-case hex", "JSON-escaped", key -> "{\"a\":\"" + unicode(key, "\\u%04X") + "\"}"),
				form("mixed escapes with \\/", "JSON-escaped",
						key -> "{\"a\":\"" + key.replace("/", "\\/").replace("\"", "\\\"").replace("c", "\\u0063") + "\"}"),
				form("URLEncoder", "URL-encoded", key -> "GET /v1?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)),
				form("percent-encoded, lower-case hex", "URL-encoded", key -> "/v1?key=" + percent(key, "%%%02x")),
				form("percent-encoded, upper-case hex", "URL-encoded", key -> "/v1?key=" + percent(key, "%%%02X")),
				form("base64, padded", "base64", key -> Base64.getEncoder().encodeToString(bytes(key))),
				form("base64, unpadded", "base64", key -> Base64.getEncoder().withoutPadding().encodeToString(bytes(key))),
				form("base64 URL-safe", "base64", key -> Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(key))),
				form("base64 blob, key at alignment 0", "base64", key -> blob("", key)),
				form("base64 blob, key at alignment 1", "base64", key -> blob("x", key)),
				form("base64 blob, key at alignment 2", "base64", key -> blob("xy", key)),
				form("base64 blob with line breaks", "base64",
						key -> Base64.getMimeEncoder().encodeToString(bytes("x".repeat(70) + key + "y".repeat(70)))),
				form("base64 wrapped every 16 characters, in a JSON string", "base64",
						key -> json(Map.of("body",
								Base64.getMimeEncoder(16, new byte[]{ '\r', '\n' }).encodeToString(bytes("x" + key + "y"))))),
				form("base64 of JSON with the key \\u-escaped", "base64",
						key -> Base64.getEncoder().encodeToString(bytes("{\"a\":\"" + unicode(key, "\\u%04x") + "\"}"))));
	}

	/** The forms that fit on one line: what a line-by-line log redaction is given. */
	public static Stream<Arguments> oneLineForms() {
		return forms().filter(arguments -> !((String) arguments.get()[0]).contains("line breaks"));
	}

	/** {@code key} encoded in each form, one per line. */
	public static String everyForm(String key) {
		StringBuilder out = new StringBuilder();
		forms().forEach(arguments -> out.append(encode(arguments, key)).append('\n'));
		return out.toString();
	}

	/** {@code key} encoded as {@code arguments} (one of {@link #forms()}) says. */
	@SuppressWarnings("unchecked")
	public static String encode(Arguments arguments, String key) {
		return ((UnaryOperator<String>) arguments.get()[2]).apply(key);
	}

	public static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static Arguments form(String name, String expected, UnaryOperator<String> encode) {
		return Arguments.of(name, expected, encode);
	}

	private static String json(Object value) {
		try {
			return JSON.writeValueAsString(value);
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}

	private static String unicode(String text, String format) {
		StringBuilder out = new StringBuilder();
		text.chars().forEach(c -> out.append(String.format(Locale.ROOT, format, c)));
		return out.toString();
	}

	private static String percent(String text, String format) {
		StringBuilder out = new StringBuilder();
		for (byte b : bytes(text)) {
			out.append(String.format(Locale.ROOT, format, b & 0xff));
		}
		return out.toString();
	}

	private static String blob(String before, String key) {
		return Base64.getEncoder().encodeToString(bytes(before + key + "{\"tail\":1}"));
	}
}
