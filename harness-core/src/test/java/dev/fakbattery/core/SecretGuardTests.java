package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("the secret guard finds a key in every form a writer may give it, and nothing else")
class SecretGuardTests {

	/** A canary key with characters each encoding treats differently: a slash, a plus, a space, a quote. */
	static final String KEY = "sk-canary/0123+abc def\"9876-xyz";

	static final SecretGuard GUARD = SecretGuard.of("api.key.env", "the value of the environment variable CANARY (api.key.env)", KEY);

	private static final ObjectMapper JSON = new ObjectMapper();

	@TempDir
	Path dir;

	static Stream<Arguments> forms() {
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
				form("base64 of JSON with the key \\u-escaped", "base64",
						key -> Base64.getEncoder().encodeToString(bytes("{\"a\":\"" + unicode(key, "\\u%04x") + "\"}"))));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("forms")
	@DisplayName("finds the key in the form, names the form and never the key")
	void findsEachForm(String name, String expectedForm, UnaryOperator<String> encode) {
		String text = "before " + encode.apply(KEY) + " after";

		assertThat(GUARD.find(text)).as(name).contains("the value of the environment variable CANARY (api.key.env), " + expectedForm);
		assertThatThrownBy(() -> GUARD.requireAbsent(text, "artifact x.json")).as(name)
				.isInstanceOf(IllegalStateException.class)
				.hasMessage("artifact x.json would contain the value of the environment variable CANARY (api.key.env), "
						+ expectedForm + "; refused to write it")
				.hasMessageNotContaining(KEY);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("forms")
	@DisplayName("a redacted line holds the key in no form, and says which parameter was redacted")
	void redactsEachForm(String name, String expectedForm, UnaryOperator<String> encode) {
		String redacted = GUARD.redact("line " + encode.apply(KEY) + " end");

		assertThat(GUARD.find(redacted)).as(name + ": " + redacted).isEmpty();
		assertThat(redacted).contains("[REDACTED api.key.env");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("forms")
	@DisplayName("flags nothing when the text holds another key in the same form")
	void ignoresAnotherKey(String name, String expectedForm, UnaryOperator<String> encode) {
		String other = KEY.replace("abc", "abd");
		String text = "before " + encode.apply(other) + " after";

		assertThat(GUARD.find(text)).as(name).isEmpty();
		assertThat(GUARD.redact(text)).isEqualTo(text);
	}

	@Test
	@DisplayName("flags nothing in unrelated text: the variable's name, a prefix of the key, random base64, binary bytes")
	void ignoresUnrelatedText() {
		Random random = new Random(42);
		byte[] noise = new byte[1 << 20];
		random.nextBytes(noise);
		String text = "{\"api_key_env\":\"CANARY\",\"note\":\"sk-canary/0123\"} "
				+ Base64.getEncoder().encodeToString(noise) + " %41%42 \\u0041";

		assertThat(GUARD.find(text)).isEmpty();
		assertThat(GUARD.find(noise)).isEmpty();
	}

	@Test
	@DisplayName("guards each of several secrets, names the one found, and its toString holds no value")
	void severalSecrets() {
		SecretGuard both = GUARD.and(SecretGuard.of("gateway.header.X-Key", "the value of gateway.header.X-Key", "hdr-secret-5678"));

		assertThat(both.find("x hdr-secret-5678 y")).contains("the value of gateway.header.X-Key, raw");
		assertThat(both.find("x " + KEY)).contains("the value of the environment variable CANARY (api.key.env), raw");
		assertThat(both.redact("a hdr-secret-5678 b")).isEqualTo("a [REDACTED gateway.header.X-Key] b");
		assertThat(both.toString()).doesNotContain(KEY).doesNotContain("hdr-secret-5678");
	}

	@Test
	@DisplayName("the API key is the value of the variable api.key.env names; unset, or too short to tell apart, it guards nothing")
	void keyFromConfig() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.of("MY_KEY").filter(v -> name.equals("api.key.env")));

		assertThatThrownBy(() -> SecretGuard.of(config, name -> "sk-secret-123")
				.requireAbsent("{\"auth\":\"sk-secret-123\"}",
						"artifact a.json"))
				.hasMessage("artifact a.json would contain the value of the environment variable MY_KEY (api.key.env), raw; "
						+ "refused to write it");
		assertThat(SecretGuard.of(config, name -> null).isEmpty()).isTrue();
		assertThat(SecretGuard.of(config, name -> "abc").isEmpty()).isTrue();
		assertThat(SecretGuard.of(HarnessConfig.of(name -> Optional.empty()), name -> "sk-secret-123").isEmpty()).isTrue();
	}

	@Test
	@DisplayName("a file is scanned whole: a key that straddles two read windows is found")
	void fileScannedAcrossWindows() throws IOException {
		Path file = dir.resolve("big.bin");
		byte[] content = new byte[(4 << 20) + 4096];
		byte[] key = bytes(KEY);
		System.arraycopy(key, 0, content, (4 << 20) - 5, key.length);
		Files.write(file, content);

		assertThatThrownBy(() -> GUARD.requireAbsent(file, "model " + file)).hasMessageContaining("raw");
		Files.write(file, new byte[(4 << 20) + 4096]);
		GUARD.requireAbsent(file, "model " + file);
	}

	@Test
	@DisplayName("the base64 core of a key is what every blob holding it at that alignment holds")
	void base64CoresAreStable() {
		Random random = new Random(7);
		for (int i = 0; i < 50; i++) {
			byte[] before = new byte[random.nextInt(10)];
			byte[] after = new byte[random.nextInt(10)];
			random.nextBytes(before);
			random.nextBytes(after);
			String blob = Base64.getEncoder().encodeToString(concat(before, bytes(KEY), after));
			assertThat(SecretGuard.base64Cores(bytes(KEY))).as("prefix of %d bytes", before.length).anyMatch(blob::contains);
		}
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

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] concat(byte[]... parts) {
		int length = 0;
		for (byte[] part : parts) {
			length += part.length;
		}
		byte[] all = new byte[length];
		int at = 0;
		for (byte[] part : parts) {
			System.arraycopy(part, 0, all, at, part.length);
			at += part.length;
		}
		return all;
	}
}
