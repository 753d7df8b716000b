package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

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
