package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("EngineDoubleMarker: the double's marks, and the one place that reads them")
class EngineDoubleMarkerTests {

	/** Every {@code "id"} value of a JSON body or SSE chunk. */
	private static final Pattern ID = Pattern.compile("\"id\":\\s*\"([^\"]*)\"");

	@Test
	@DisplayName("the id mark is HMAC-SHA256 keyed with the documented key: a vector anyone can recompute")
	void knownVector() {
		// python3 -c "import hmac,hashlib; print(hmac.new(b'fak-battery-engine-double', b'0123456789abcdef01234567', hashlib.sha256).hexdigest()[:8])"
		assertThat(EngineDoubleMarker.markedId("0123456789abcdef01234567")).isEqualTo("0123456789abcdef01234567d5e3ddb7");
		assertThat(EngineDoubleMarker.markedId("89abcdef")).isEqualTo("89abcdef607a6ff7");
	}

	@Test
	@DisplayName("a marked id is recognised in every shape the double sends: bare hex, chatcmpl-, chatcmpl-tool-, call_")
	void markedIdsAreRecognised() {
		String sglang = EngineDoubleMarker.markedId("0123456789abcdef01234567");
		String vllm = EngineDoubleMarker.markedId("89abcdef");
		assertThat(sglang).matches("[0-9a-f]{32}");
		assertThat(List.of(sglang, "chatcmpl-" + vllm, "chatcmpl-tool-" + vllm, "call_" + EngineDoubleMarker.markedId("0123456789abcdef")))
				.allMatch(EngineDoubleMarker::idMarked);
	}

	@Test
	@DisplayName("self-test: one digit changed anywhere, in the random part or the mark, and the id is not the double's")
	void anyChangedDigitBreaksTheMark() {
		String marked = EngineDoubleMarker.markedId("0123456789abcdef01234567");
		IntStream.range(0, marked.length()).forEach(at -> {
			char other = marked.charAt(at) == 'f' ? 'e' : Character.forDigit(Character.digit(marked.charAt(at), 16) + 1, 16);
			String changed = marked.substring(0, at) + other + marked.substring(at + 1);
			assertThat(EngineDoubleMarker.idMarked(changed)).as(changed).isFalse();
		});
	}

	@Test
	@DisplayName("self-test: no id of any wire fixture (real vLLM, SGLang, llama.cpp and hosted captures) carries the mark")
	void noFixtureIdIsMarked() throws IOException {
		List<String> ids;
		try (Stream<Path> files = Files.walk(WireFixtures.root())) {
			ids = files.filter(Files::isRegularFile).flatMap(EngineDoubleMarkerTests::ids).distinct().toList();
		}
		assertThat(ids).contains("chatcmpl-be8d6d925ff14741", "f50c5bcb379d4b74acc853b8dbe5b7c9", "chatcmpl-tool-a331788bab1045a8",
				"chatcmpl-tool-8dd7be12aefe48db82c95485622202cb");
		assertThat(ids).noneMatch(EngineDoubleMarker::idMarked);
	}

	@Test
	@DisplayName("self-test: ten thousand random ids of the engines' shapes, none taken for the double's")
	void randomIdsAreNotMarked() {
		Random random = new Random(20261205);
		assertThat(IntStream.range(0, 10_000).mapToObj(i -> {
			byte[] bytes = new byte[16];
			random.nextBytes(bytes);
			String hex = HexFormat.of().formatHex(bytes);
			return i % 2 == 0 ? hex : "chatcmpl-" + hex.substring(16);
		})).noneMatch(EngineDoubleMarker::idMarked);
	}

	@Test
	@DisplayName("no id, too few hex digits, upper-case hex or a prefix that ends in a hex digit: no mark to read")
	void unmarkable() {
		String marked = EngineDoubleMarker.markedId("89abcdef");
		assertThat(EngineDoubleMarker.idMarked(null)).isFalse();
		assertThat(EngineDoubleMarker.idMarked("")).isFalse();
		assertThat(EngineDoubleMarker.idMarked(marked.substring(1))).isFalse();
		assertThat(EngineDoubleMarker.idMarked(marked.toUpperCase(Locale.ROOT))).isFalse();
		assertThat(EngineDoubleMarker.idMarked("a" + marked)).isFalse();
		assertThat(EngineDoubleMarker.idMarked(marked + "-")).isFalse();
		assertThat(EngineDoubleMarker.idMarked("x-" + marked)).isTrue();
	}

	@Test
	@DisplayName("a marked answer id names the dialect by its shape: 32 hex SGLang, chatcmpl- and 16 vLLM; no other id names one")
	void answerIdDialect() {
		assertThat(EngineDoubleMarker.answerIdDialect(EngineDoubleMarker.markedId("0123456789abcdef01234567"))).contains(Dialect.SGLANG);
		assertThat(EngineDoubleMarker.answerIdDialect("chatcmpl-" + EngineDoubleMarker.markedId("89abcdef"))).contains(Dialect.VLLM);
		for (String other : List.of("chatcmpl-tool-" + EngineDoubleMarker.markedId("89abcdef"),
				"call_" + EngineDoubleMarker.markedId("0123456789abcdef"),
				EngineDoubleMarker.markedId("0123456789abcdef"), "x" + EngineDoubleMarker.markedId("0123456789abcdef01234567"),
				"chatcmpl-" + EngineDoubleMarker.markedId("0123456789abcdef01234567"), "f50c5bcb379d4b74acc853b8dbe5b7c9",
				"chatcmpl-be8d6d925ff14741")) {
			assertThat(EngineDoubleMarker.answerIdDialect(other)).as(other).isEmpty();
		}
		assertThat(EngineDoubleMarker.answerIdDialect(null)).isEmpty();
	}

	@Test
	@DisplayName("markedId refuses what is not 8 or more lower-case hex digits, naming it")
	void markedIdRefusesNonHex() {
		for (String bad : List.of("89abcde", "89ABCDEF", "89abcdeg", "")) {
			assertThatThrownBy(() -> EngineDoubleMarker.markedId(bad)).isInstanceOf(IllegalArgumentException.class)
					.hasMessageContaining("[" + bad + "]");
		}
	}

	@Test
	@DisplayName("evidence names the first mark found: version, Server header, /metrics comment, system_fingerprint, answer id")
	void evidenceNamesEachMark() {
		String id = "chatcmpl-" + EngineDoubleMarker.markedId("89abcdef");
		assertThat(EngineDoubleMarker.evidence("0.29.0+engine-double", "x", EngineDoubleMarker.METRICS_COMMENT, "fp", id))
				.hasValue("its version [0.29.0+engine-double] carries the engine double's suffix +engine-double");
		assertThat(EngineDoubleMarker.evidence("0.11.0", EngineDoubleMarker.SERVER))
				.hasValue("its Server header [fak-battery-engine-double] names the engine double");
		assertThat(EngineDoubleMarker.evidence(null, "uvicorn", "x\n" + EngineDoubleMarker.METRICS_COMMENT + "\n"))
				.hasValue("its /metrics page carries the engine double's comment [" + EngineDoubleMarker.METRICS_COMMENT + "]");
		assertThat(EngineDoubleMarker.evidence(null, null, "vllm:x 1", "vllm-0.29.0+engine-double-1a2b3c4d")).hasValue(
				"the system_fingerprint [vllm-0.29.0+engine-double-1a2b3c4d] of its /v1 answer carries the engine double's suffix +engine-double");
		assertThat(EngineDoubleMarker.evidence(null, null, null, "vllm-0.11.0-1a2b3c4d", id))
				.hasValue("the id [" + id + "] of its /v1 answer ends in the engine double's id mark (its last 8 hex digits are "
						+ "HMAC-SHA256 keyed with fak-battery-engine-double of the digits before them)");
	}

	@Test
	@DisplayName("self-test: a real engine's answers (version, uvicorn, vllm: metrics, fingerprint, its own id) are no evidence")
	void realEngineIsNoDouble() {
		assertThat(EngineDoubleMarker.evidence("0.11.0", "uvicorn", "vllm:num_requests_running 0\n",
				"vllm-0.23.1rc1.dev1029+ga601a9d99-tp4-1381023c", "chatcmpl-be8d6d925ff14741")).isEmpty();
		assertThat(EngineDoubleMarker.evidence(null, null, null, null, null)).isEmpty();
		assertThat(EngineDoubleMarker.evidence(null, null, null, null)).isEmpty();
		assertThat(EngineDoubleMarker.evidence(null, null, null)).isEmpty();
		assertThat(EngineDoubleMarker.evidence(null, null)).isEmpty();
	}

	private static Stream<String> ids(Path file) {
		try {
			return ID.matcher(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).results().map(found -> found.group(1));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
