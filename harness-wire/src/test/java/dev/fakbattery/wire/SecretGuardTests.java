package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("the secret guard finds a key in every form a writer may give it, and nothing else")
class SecretGuardTests {

	static final String KEY = CanaryForms.KEY;

	static final SecretGuard GUARD = CanaryForms.guard(KEY);

	@TempDir
	Path dir;

	static Stream<Arguments> forms() {
		return CanaryForms.forms();
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
	@DisplayName("a redacted text holds the key in no form, its other lines kept as they were")
	void redactsEachFormInAText(String name, String expectedForm, UnaryOperator<String> encode) {
		byte[] text = bytes("first line\nthe key: " + encode.apply(KEY) + "\nlast line, no newline");

		String redacted = new String(GUARD.redactText(text), StandardCharsets.UTF_8);

		assertThat(GUARD.find(redacted)).as(name + ": " + redacted).isEmpty();
		assertThat(redacted).contains("[REDACTED api.key.env");
		if (!name.contains("line breaks")) {
			assertThat(redacted.split("\n")).as(redacted).hasSize(3).startsWith("first line").endsWith("last line, no newline");
		}
	}

	@Test
	@DisplayName("a text without the key is given back as it is; a key across lines makes the whole text one redaction")
	void redactTextKeepsCleanTextAndReplacesASplitKey() {
		byte[] clean = bytes("no key here\nnor here\n");
		String split = Base64.getMimeEncoder(8, new byte[]{ '\n' }).encodeToString(bytes(KEY));

		assertThat(GUARD.redactText(clean)).isSameAs(clean);
		assertThat(SecretGuard.none().redactText(bytes(KEY))).isEqualTo(bytes(KEY));
		assertThat(new String(GUARD.redactText(bytes("a\n" + split + "\nb")), StandardCharsets.UTF_8))
				.isEqualTo("[REDACTED api.key.env: the text held it]");
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
	@DisplayName("a value too short to tell from other text guards nothing")
	void shortValues() {
		assertThat(SecretGuard.of("api.key.env", "k", "abc").isEmpty()).isTrue();
		assertThat(SecretGuard.of("api.key.env", "k", null).isEmpty()).isTrue();
		assertThat(SecretGuard.of("api.key.env", "k", "abcd").find("x abcd y")).contains("k, raw");
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

	static Stream<Arguments> literalForms() {
		return Stream.of(
				Arguments.of("raw", KEY),
				Arguments.of("Jackson's escapes", new String(JsonStringEncoder.getInstance().quoteAsString(KEY))),
				Arguments.of("every char \\u-escaped, lower-case hex", unicode(KEY, "\\u%04x")),
				Arguments.of("every char \\u-escaped, upper-case hex", unicode(KEY, "\\u%04X")),
				Arguments.of("URLEncoder", URLEncoder.encode(KEY, StandardCharsets.UTF_8)),
				Arguments.of("URLEncoder, %20 for a space", URLEncoder.encode(KEY, StandardCharsets.UTF_8).replace("+", "%20")),
				Arguments.of("percent-encoded, lower-case hex", percent(KEY, "%%%02x")),
				Arguments.of("percent-encoded, upper-case hex", percent(KEY, "%%%02X")),
				Arguments.of("base64", Base64.getEncoder().encodeToString(bytes(KEY))),
				Arguments.of("base64 URL-safe", Base64.getUrlEncoder().encodeToString(bytes(KEY))));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("literalForms")
	@DisplayName("a literal form of the key is replaced where it stands, the rest of the line kept")
	void redactsALiteralFormInPlace(String name, String form) {
		SecretGuard guard = CanaryForms.guard(KEY); // built here, not in a static initializer, so that PIT's mutants reach its forms

		assertThat(guard.redact("line " + form + " end")).as(name).isEqualTo("line [REDACTED api.key.env] end");
		assertThat(guard.longestForm()).as("a writer keeps at least the longest form: %s", name).isGreaterThanOrEqualTo(form.length());
	}

	@Test
	@DisplayName("a line or text without the key is given back as the same object; a guard of nothing redacts nothing")
	void cleanInputIsGivenBackAsItIs() {
		byte[] clean = bytes("no key here\n");
		String line = "no key here";

		assertThat(GUARD.redact(clean)).isSameAs(clean);
		assertThat(GUARD.redact(line)).isSameAs(line);
		assertThat(SecretGuard.none().redact(line)).isSameAs(line);
		assertThat(SecretGuard.none().redact(clean)).isSameAs(clean);
		assertThat(GUARD.isEmpty()).isFalse();
		assertThat(SecretGuard.none().isEmpty()).isTrue();
	}

	@Test
	@DisplayName("the same secret added twice is guarded once; another value or another parameter is guarded beside it")
	void andKeepsEachSecretOnce() {
		SecretGuard otherValue = SecretGuard.of("api.key.env", "another key", "sk-other-4567");
		SecretGuard otherParameter = SecretGuard.of("gateway.header.X-Key", "the header", KEY);

		assertThat(GUARD.and(CanaryForms.guard(KEY))).isSameAs(GUARD);
		assertThat(GUARD.and(SecretGuard.of("api.key.env", "described otherwise", KEY))).isSameAs(GUARD);
		assertThat(GUARD.and(otherValue)).isNotSameAs(GUARD).hasToString("SecretGuard[api.key.env, api.key.env]");
		assertThat(GUARD.and(otherValue).find("x sk-other-4567 y")).contains("another key, raw");
		assertThat(GUARD.and(otherParameter)).hasToString("SecretGuard[api.key.env, gateway.header.X-Key]");
		assertThat(SecretGuard.none()).hasToString("SecretGuard[]");
	}

	@Test
	@DisplayName("a line that still holds the key after its literal forms are replaced is redacted whole, its line break kept")
	void wholeLineRedactionKeepsTheLineBreak() {
		String mixed = "a " + KEY.replace("/", "\\/").replace("\"", "\\\"").replace("c", "\\u0063");

		for (String end : new String[]{ "\r\n", "\n", "" }) {
			assertThat(GUARD.redact(mixed + end)).isEqualTo("[REDACTED api.key.env: the line held it]" + end);
		}
	}

	@Test
	@DisplayName("the key \\u-escaped at the very start of the text is found")
	void escapedKeyAtTheStart() {
		assertThat(GUARD.find(unicode(KEY, "\\u%04x")))
				.contains("the value of the environment variable CANARY (api.key.env), JSON-escaped");
	}

	@Test
	@DisplayName("a base64 form cut in two by a line break, or by a carriage return alone, even at the text's start, is found")
	void base64CutByALineBreak() {
		String base64 = Base64.getEncoder().encodeToString(bytes(KEY));
		String first = base64.substring(0, base64.length() / 2);
		String second = base64.substring(base64.length() / 2);

		for (String lineBreak : new String[]{ "\n", "\r", "\r\n" }) {
			assertThat(GUARD.find(lineBreak + first + lineBreak + second)).as("%s", lineBreak.chars().boxed().toList())
					.contains("the value of the environment variable CANARY (api.key.env), base64");
		}
		assertThat(GUARD.find(first + " " + second)).as("self-test: two halves apart are not the key").isEmpty();
	}

	@Test
	@DisplayName("JSON escapes resolve as JSON reads them: surrogate pairs, \\u0000, and a broken escape kept as written")
	void jsonUnescape() {
		assertThat(SecretGuard.jsonUnescape("\\\"\\\\\\/\\b\\f\\n\\r\\t")).isEqualTo("\"\\/\b\f\n\r\t");
		assertThat(SecretGuard.jsonUnescape("a\\u0041\\u0000")).isEqualTo("aA\0");
		assertThat(SecretGuard.jsonUnescape("\\ud83d\\ude00")).isEqualTo(latin1("\uD83D\uDE00"));
		assertThat(SecretGuard.jsonUnescape("\\uD83D\\uDE00x")).isEqualTo(latin1("\uD83D\uDE00") + "x");
		assertThat(SecretGuard.jsonUnescape("\\ud83d\\u0041")).as("a high surrogate without its low one").isEqualTo("?A");
		assertThat(SecretGuard.jsonUnescape("\\ud83d")).isEqualTo("?");
		assertThat(SecretGuard.jsonUnescape("\\ud83dxxxxxxx")).isEqualTo("?xxxxxxx");
		assertThat(SecretGuard.jsonUnescape("\\ud83d\\uzzzz")).isEqualTo("?\\uzzzz");
		assertThat(SecretGuard.jsonUnescape("\\u00zz \\x \\u00")).isEqualTo("\\u00zz \\x \\u00");
		assertThat(SecretGuard.jsonUnescape("a\\")).as("a backslash at the end").isEqualTo("a\\");
	}

	@Test
	@DisplayName("percent escapes resolve in either case, + reads as a space only when asked, a broken escape is kept")
	void percentDecode() {
		assertThat(SecretGuard.percentDecode("plain", false)).isEqualTo("plain");
		assertThat(SecretGuard.percentDecode("a+b", false)).isEqualTo("a+b");
		assertThat(SecretGuard.percentDecode("a+b", true)).isEqualTo("a b");
		assertThat(SecretGuard.percentDecode("+a", true)).isEqualTo(" a");
		assertThat(SecretGuard.percentDecode("%41%4a+%zz%4", false)).isEqualTo("AJ+%zz%4");
		assertThat(SecretGuard.percentDecode("%41%4a+%zz%4", true)).isEqualTo("AJ %zz%4");
		assertThat(SecretGuard.percentDecode("x%", false)).isEqualTo("x%");
		assertThat(SecretGuard.percentDecode("%00", false)).isEqualTo("\0");
	}

	@Test
	@DisplayName("a base64 core is searched once a value alone determines eight characters of it, not before")
	void base64CoreThreshold() {
		assertThat(SecretGuard.base64Cores(bytes("abcdef"))).contains("YWJjZGVm");
		assertThat(SecretGuard.base64Cores(bytes("abcd"))).isEmpty();
	}

	@Test
	@DisplayName("a file is scanned whole whatever the key's length: an escaped form longer than the windows' least overlap straddling two windows is found")
	void longKeyAcrossWindows() throws IOException {
		StringBuilder key = new StringBuilder("sk-long-");
		Random random = new Random(3);
		while (key.length() < 12_000) {
			key.append((char) ('a' + random.nextInt(26)));
		}
		SecretGuard guard = SecretGuard.of("api.key.env", "the long key", key.toString());
		byte[] form = bytes(unicode(key.toString(), "\\u%04x"));
		byte[] content = new byte[SecretGuard.WINDOW + 4096];
		System.arraycopy(form, 0, content, SecretGuard.WINDOW - form.length + 2000, form.length);
		Path file = dir.resolve("long.bin");
		Files.write(file, content);

		assertThat(form.length).as("longer than the least overlap").isGreaterThan(64 << 10);
		assertThat(guard.find(file)).contains("the long key, JSON-escaped");
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

	private static String latin1(String text) {
		return new String(bytes(text), StandardCharsets.ISO_8859_1);
	}

	private static byte[] bytes(String text) {
		return CanaryForms.bytes(text);
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
