package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Property-based tests of the reader and the assembler (QuickTheories, bounded tries, shrunk counterexamples): a
 * stream means the same however it is split and whatever line endings it uses, and hostile bytes end in a clear
 * error ({@link SseLimitException}, {@link WireFormatException}), never in a crash. A run picks a random seed; a
 * failure prints it, and {@code -DQT_SEED=...} replays it.
 */
@DisplayName("wire properties: splits, line endings, hostile bytes")
class WirePropertyTests {

	private static final List<String> FIXTURES = WireFixtures.all("sse");

	private static final int LIMIT = 64 * 1024;

	private static final List<String> TOKENS = List.of("data: ", "data:", "event: x\n", ": ping\n", "id: 7\n", "retry: 5\n", "\n", "\r",
			"\r\n",
			"\n\n", "{", "}", "[", "]", ",", ":", "\"choices\":", "\"tool_calls\":", "\"index\":", "\"function\":", "\"arguments\":",
			"\"name\":", "\"id\":", "\"type\":", "\"delta\":", "\"finish_reason\":", "\"error\":", "\"message\":", "\"usage\":",
			"null", "true", "0", "1", "-1", "1.5", "99999999999999999999", "\"x\"", "\"tool_calls\"", "[DONE]", "\uFEFF", "\u00e9",
			"\"\\u0000\"", "\"\\ud800\"");

	@Test
	@DisplayName("every fixture split at random boundaries, down to one byte, reads as the whole file: same events and calls")
	void splitsReadAsWhole() {
		qt().withExamples(300)
				.forAll(integers().between(0, FIXTURES.size() - 1), lists().of(integers().between(1, 24)).ofSizeBetween(1, 32))
				.checkAssert((fixture, sizes) -> {
					byte[] bytes = bytes(FIXTURES.get(fixture));
					assertThat(WireRead.of(new ChunkedStream(bytes, sizes), LIMIT)).as(FIXTURES.get(fixture) + " split " + sizes)
							.isEqualTo(WireRead.of(bytes, LIMIT));
				});
	}

	@Test
	@DisplayName("every fixture read one byte at a time reads as the whole file")
	void oneByteAtATime() {
		for (String fixture : FIXTURES) {
			byte[] bytes = bytes(fixture);
			assertThat(WireRead.of(new ChunkedStream(bytes, List.of(1)), LIMIT)).as(fixture).isEqualTo(WireRead.of(bytes, LIMIT));
		}
	}

	@Test
	@DisplayName("mixed line endings (LF, CRLF, CR, any mix) read as the fixture with LF")
	void mixedLineEndings() {
		qt().withExamples(300)
				.forAll(integers().between(0, FIXTURES.size() - 1), lists().of(integers().between(0, 2)).ofSizeBetween(1, 64),
						lists().of(integers().between(1, 24)).ofSizeBetween(1, 8))
				.checkAssert((fixture, endings, sizes) -> {
					byte[] lf = bytes(FIXTURES.get(fixture));
					byte[] mixed = withLineEndings(new String(lf, StandardCharsets.UTF_8), endings);
					assertThat(WireRead.of(new ChunkedStream(mixed, sizes), LIMIT)).as(FIXTURES.get(fixture) + " endings " + endings)
							.isEqualTo(WireRead.of(lf, LIMIT));
				});
	}

	@Test
	@DisplayName("a fixture cut anywhere reads as a prefix of its events: no crash, and a cut inside an event drops it")
	void truncatedReadsAsPrefix() {
		qt().withExamples(300)
				.forAll(integers().between(0, FIXTURES.size() - 1), integers().between(0, 100_000))
				.checkAssert((fixture, at) -> {
					byte[] bytes = bytes(FIXTURES.get(fixture));
					byte[] cut = java.util.Arrays.copyOf(bytes, at % (bytes.length + 1));
					List<String> whole = WireRead.of(bytes, LIMIT).events();
					List<String> events = WireRead.of(cut, LIMIT).events();
					assertThat(whole.subList(0, events.size())).as(FIXTURES.get(fixture) + " cut at " + cut.length).isEqualTo(events);
				});
	}

	@Test
	@DisplayName("hostile bytes (SSE and JSON tokens mixed with raw bytes) end in a clear error or events, never a crash")
	void hostileBytesNeverCrash() {
		qt().withExamples(1000)
				.forAll(lists().of(integers().between(0, TOKENS.size() + 255)).ofSizeBetween(0, 300))
				.checkAssert(tokens -> WireRead.of(hostile(tokens), 256));
	}

	@Test
	@DisplayName("fixtures with bytes deleted, repeated or replaced end in a clear error or events, never a crash")
	void mutatedFixturesNeverCrash() {
		qt().withExamples(1000)
				.forAll(integers().between(0, FIXTURES.size() - 1),
						lists().of(integers().between(0, Integer.MAX_VALUE)).ofSizeBetween(1, 6))
				.checkAssert((fixture, edits) -> WireRead.of(HostileBytes.mutated(bytes(FIXTURES.get(fixture)), edits), LIMIT));
	}

	/** The tokens as bytes: an index past the token list is one raw byte. */
	static byte[] hostile(List<Integer> tokens) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (int token : tokens) {
			if (token < TOKENS.size()) {
				out.writeBytes(TOKENS.get(token).getBytes(StandardCharsets.UTF_8));
			}
			else {
				out.write(token - TOKENS.size());
			}
		}
		return out.toByteArray();
	}

	/**
	 * The text with each LF line ending replaced by LF, CRLF or CR in turn; an empty line after a CR keeps a CR in its
	 * own ending, since CR then LF is one line ending.
	 */
	static byte[] withLineEndings(String text, List<Integer> choices) {
		String[] lines = text.split("\n", -1);
		StringBuilder out = new StringBuilder();
		String previous = "";
		for (int i = 0; i < lines.length - 1; i++) {
			String ending = List.of("\n", "\r\n", "\r").get(choices.get(i % choices.size()));
			if (previous.equals("\r") && lines[i].isEmpty() && ending.equals("\n")) {
				ending = "\r\n";
			}
			out.append(lines[i]).append(ending);
			previous = ending;
		}
		out.append(lines[lines.length - 1]);
		return out.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] bytes(String fixture) {
		try {
			return Files.readAllBytes(WireFixtures.path(fixture));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
