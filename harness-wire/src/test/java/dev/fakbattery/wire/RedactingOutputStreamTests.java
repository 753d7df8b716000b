package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("a redacting stream passes every line on with the key redacted, and loses nothing")
class RedactingOutputStreamTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#oneLineForms")
	@DisplayName("the key in a form, written in pieces cut at every offset and flushed after each, never gets through")
	void redactsAPlantedFormWhereverTheWritesAreCut(String name, String expectedForm, UnaryOperator<String> encode) throws IOException {
		byte[] text = CanaryForms.bytes("before\nthe key: " + encode.apply(CanaryForms.KEY) + " end\nafter, no newline");
		for (int cut = 1; cut < text.length; cut++) {
			ByteArrayOutputStream below = new ByteArrayOutputStream();
			try (RedactingOutputStream out = new RedactingOutputStream(below, GUARD)) {
				out.write(text, 0, cut);
				out.flush();
				out.write(text, cut, text.length - cut);
				out.flush();
			}
			String written = below.toString(StandardCharsets.UTF_8);
			assertThat(GUARD.find(written)).as("%s cut at %d: %s", name, cut, written).isEmpty();
			assertThat(written).as("%s cut at %d", name, cut)
					.startsWith("before\n")
					.endsWith("\nafter, no newline")
					.contains("[REDACTED api.key.env");
		}
	}

	@Test
	@DisplayName("the key written a byte at a time into an unfinished line, flushed after each byte, is redacted")
	void redactsAKeyWrittenByteByByte() throws IOException {
		String prefix = "x".repeat(3 * GUARD.longestForm());
		ByteArrayOutputStream below = new ByteArrayOutputStream();
		RedactingOutputStream out = new RedactingOutputStream(below, GUARD);
		for (byte b : CanaryForms.bytes(prefix + CanaryForms.KEY + "y")) {
			out.write(b);
			out.flush();
		}
		assertThat(below.size()).as("the part no secret reaches is passed on at a flush").isPositive();
		out.finish();

		assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo(prefix + "[REDACTED api.key.env]y");
	}

	@Test
	@DisplayName("a line is passed on as it ends; an unfinished one is held at a flush but for what a secret cannot reach")
	void passesLinesOnAsTheyEnd() throws IOException {
		ByteArrayOutputStream below = new ByteArrayOutputStream();
		RedactingOutputStream out = new RedactingOutputStream(below, GUARD);
		out.write(CanaryForms.bytes("one\ntwo"));
		assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo("one\n");
		out.flush();
		assertThat(below.toString(StandardCharsets.UTF_8)).as("a short unfinished line is held").isEqualTo("one\n");
		out.write('\n');
		assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo("one\ntwo\n");
		out.write(CanaryForms.bytes("three"));
		out.finish();
		assertThat(below.toString(StandardCharsets.UTF_8)).as("finish passes on the rest").isEqualTo("one\ntwo\nthree");
	}

	@Test
	@DisplayName("a flush never cuts a UTF-8 character: each write below decodes whole")
	void neverCutsACharacter() throws IOException {
		List<String> writes = new ArrayList<>();
		OutputStream below = new OutputStream() {

			@Override
			public void write(int b) {
				writes.add(new String(new byte[]{ (byte) b }, StandardCharsets.UTF_8));
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				writes.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
			}
		};
		String text = "é€𝄞".repeat(GUARD.longestForm());
		for (int shift = 0; shift < 4; shift++) {
			writes.clear();
			RedactingOutputStream out = new RedactingOutputStream(below, GUARD);
			out.write(CanaryForms.bytes("x".repeat(shift) + text));
			out.flush();
			out.write(CanaryForms.bytes(text + "\n"));
			out.finish();

			assertThat(String.join("", writes)).as("shift %d", shift).isEqualTo("x".repeat(shift) + text + text + "\n");
			assertThat(writes).as("shift %d", shift).noneMatch(part -> part.contains("\uFFFD"));
		}
	}

	@Test
	@DisplayName("a line longer than the part held at once is passed on in parts without a flush, the key redacted at any offset")
	void longLinesArePassedOnInParts() throws IOException {
		String tail = "y".repeat(2 * GUARD.longestForm() + 100);
		for (int offset : List.of(RedactingOutputStream.LONGEST_LINE - 5, RedactingOutputStream.LONGEST_LINE + 3)) {
			ByteArrayOutputStream below = new ByteArrayOutputStream();
			RedactingOutputStream out = new RedactingOutputStream(below, GUARD);
			for (byte b : CanaryForms.bytes("x".repeat(offset) + CanaryForms.KEY + tail)) {
				out.write(b);
			}
			assertThat(below.size()).as("passed on before the line ended").isPositive();
			out.write('\n');

			assertThat(GUARD.find(below.toByteArray())).isEmpty();
			assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo("x".repeat(offset) + "[REDACTED api.key.env]" + tail + "\n");
		}
	}

	@Test
	@DisplayName("a flush and a finish flush the stream below")
	void flushesTheStreamBelow() throws IOException {
		ByteArrayOutputStream below = new ByteArrayOutputStream();
		RedactingOutputStream out = new RedactingOutputStream(new BufferedOutputStream(below), GUARD);
		out.write(CanaryForms.bytes("one\ntwo"));
		out.flush();
		assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo("one\n");
		out.finish();
		assertThat(below.toString(StandardCharsets.UTF_8)).isEqualTo("one\ntwo");
	}

	@Test
	@DisplayName("bytes that are not UTF-8 (continuation bytes only) are held at a flush and passed on whole")
	void passesOnBytesThatAreNotUtf8() throws IOException {
		byte[] binary = new byte[3 * GUARD.longestForm()];
		Arrays.fill(binary, (byte) 0x80);
		ByteArrayOutputStream below = new ByteArrayOutputStream();
		RedactingOutputStream out = new RedactingOutputStream(below, GUARD);
		out.write(binary);
		out.flush();
		out.finish();

		assertThat(below.toByteArray()).isEqualTo(binary);
	}

	@Test
	@DisplayName("an unfinished line is passed on without a flush once it holds the longest part held and the bytes kept, not a byte before")
	void longLinePassedOnAtItsBound() throws IOException {
		int bound = RedactingOutputStream.LONGEST_LINE + 2 * GUARD.longestForm();
		byte[] line = CanaryForms.bytes("x".repeat(bound));

		ByteArrayOutputStream byBytes = new ByteArrayOutputStream();
		RedactingOutputStream out = new RedactingOutputStream(byBytes, GUARD);
		for (int i = 0; i < bound - 1; i++) {
			out.write(line[i]);
		}
		assertThat(byBytes.size()).as("a byte before the bound").isZero();
		out.write(line[bound - 1]);
		assertThat(byBytes.size()).as("at the bound").isEqualTo(RedactingOutputStream.LONGEST_LINE);

		ByteArrayOutputStream byArrays = new ByteArrayOutputStream();
		out = new RedactingOutputStream(byArrays, GUARD);
		out.write(line, 0, bound - 1);
		assertThat(byArrays.size()).as("a byte before the bound").isZero();
		out.write(line, bound - 1, 1);
		assertThat(byArrays.size()).as("at the bound").isEqualTo(RedactingOutputStream.LONGEST_LINE);
		out.finish();
		assertThat(byArrays.toByteArray()).isEqualTo(line);
	}

	@Test
	@DisplayName("self-test: with no secret to guard the key goes through as written, so the redaction tests can fail")
	void withoutASecretTheKeyGoesThrough() throws IOException {
		ByteArrayOutputStream below = new ByteArrayOutputStream();
		try (RedactingOutputStream out = new RedactingOutputStream(below, SecretGuard.none())) {
			out.write(CanaryForms.bytes("the key: " + CanaryForms.KEY + "\nrest"));
		}
		assertThat(GUARD.find(below.toByteArray())).contains("the value of the environment variable CANARY (api.key.env), raw");
	}
}
