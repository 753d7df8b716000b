package dev.fakbattery.core.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import dev.fakbattery.wire.EngineDoubleMarker;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The probe identifies an engine by what its answers say, not by which path answered: a {@code version} that reads as
 * one, the {@code system_fingerprint} and {@code model} of a {@code /v1} answer; the double by its marks wherever they
 * appear, also behind a proxy that serves only {@code /v1} (there its answer's {@code system_fingerprint} or the id mark of
 * its {@code id}).
 */
@DisplayName("TargetProbe: identification reads content, not paths")
class IdentificationByContentTests {

	/** vLLM 0.23.1rc1's fingerprint, verbatim from a captured answer (/work/shared/wire/vllm/captured). */
	static final String VLLM_FINGERPRINT = "vllm-0.23.1rc1.dev1029+ga601a9d99-tp4-1381023c";

	private static TargetIdentity probe(ProbedEngine engine) {
		return TargetProbe.probe(engine.baseUrl(), "base.url", Optional.empty());
	}

	/** A server that serves only /v1: its model list and a chat answer with {@code fingerprint} (none when null). */
	private static ProbedEngine onlyV1(String fingerprint) throws Exception {
		return onlyV1(200, "chatcmpl-1", fingerprint);
	}

	/**
	 * A server that serves only /v1: its model list and a chat answer of {@code status} with {@code id} and
	 * {@code fingerprint} (none when null).
	 */
	private static ProbedEngine onlyV1(int status, String id, String fingerprint) throws Exception {
		return ProbedEngine.start()
				.models("")
				.on("/v1/chat/completions", status, "{\"id\":\"" + id + "\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[]"
						+ (fingerprint == null ? "" : ",\"system_fingerprint\":\"" + fingerprint + "\"") + "}", null);
	}

	@Test
	@DisplayName("a server that answers GET /version {\"version\": \"x\"} but otherwise looks like nothing is not vLLM")
	void versionFieldThatIsNoVersion() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("\"owned_by\":\"vllm\"").on("/version", "{\"version\":\"x\"}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.engineKind()).isEqualTo(TargetIdentity.UNKNOWN);
			assertThat(id.identifiedBy()).isEmpty();
			assertThat(id.probed()).contains("GET /version: HTTP 200, version x (not a version)",
					"POST /v1/chat/completions (max_tokens 1): HTTP 404");
			assertThat(id.unidentified()).isPresent();
		}
	}

	@Test
	@DisplayName("a /version answer whose version reads as one names vLLM where nothing else answered")
	void versionShapedAnswer() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/version", "{\"version\":\"0.23.1rc1.dev1029+ga601a9d99\"}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("vllm");
			assertThat(id.engineVersion()).isEqualTo("0.23.1rc1.dev1029+ga601a9d99");
		}
	}

	@Test
	@DisplayName("vLLM behind a proxy that serves only /v1: its system_fingerprint names it and its version, beside the model")
	void vllmFingerprint() throws Exception {
		try (ProbedEngine engine = onlyV1(VLLM_FINGERPRINT)) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("vllm");
			assertThat(id.engineVersion()).isEqualTo("0.23.1rc1.dev1029+ga601a9d99");
			assertThat(id.identifiedBy())
					.containsExactly("POST /v1/chat/completions (model m): system_fingerprint " + VLLM_FINGERPRINT);
			assertThat(id.probed())
					.contains("POST /v1/chat/completions (max_tokens 1): HTTP 200, id chatcmpl-1, model m, system_fingerprint "
							+ VLLM_FINGERPRINT);
			assertThat(id.doubleEvidence()).isNull();
		}
	}

	@Test
	@DisplayName("llama.cpp behind a proxy that serves only /v1: its b<build>-<commit> system_fingerprint names it")
	void llamaCppFingerprint() throws Exception {
		try (ProbedEngine engine = onlyV1("b5000-58ab80c3")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("llama.cpp");
			assertThat(id.engineVersion()).isEqualTo("b5000-58ab80c3");
		}
	}

	@Test
	@DisplayName("a fingerprint of no known engine, or none at all (SGLang sends none), identifies nothing")
	void unknownFingerprint() throws Exception {
		try (ProbedEngine engine = onlyV1("fp_44709d6fcb")) {
			assertThat(probe(engine).probedKind()).isNull();
		}
		try (ProbedEngine engine = onlyV1(null)) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.unidentified()).hasValueSatisfying(why -> assertThat(why).contains("no system_fingerprint of an engine on /v1"));
		}
	}

	@Test
	@DisplayName("the double's fingerprint behind a /v1-only proxy without its Server header: recognised as the double")
	void doubleFingerprint() throws Exception {
		try (ProbedEngine engine = onlyV1("vllm-0.29.0" + EngineDoubleMarker.SUFFIX + "-1a2b3c4d")) {
			TargetIdentity id = probe(engine);
			assertThat(id.engineDouble()).isTrue();
			assertThat(id.doubleEvidence()).isEqualTo("the system_fingerprint [vllm-0.29.0+engine-double-1a2b3c4d] of its /v1 answer "
					+ "carries the engine double's suffix " + EngineDoubleMarker.SUFFIX);
			assertThat(id.probedKind()).isEqualTo("vllm");
		}
	}

	@Test
	@DisplayName("the SGLang-dialect double behind a /v1-only proxy (no fingerprint, no Server header): its answer's id mark names it")
	void doubleIdMarkWithoutFingerprint() throws Exception {
		String marked = EngineDoubleMarker.markedId("0123456789abcdef01234567");
		try (ProbedEngine engine = onlyV1(200, marked, null)) {
			TargetIdentity id = probe(engine);
			assertThat(id.engineDouble()).isTrue();
			assertThat(id.doubleEvidence()).isEqualTo("the id [" + marked + "] of its /v1 answer ends in the engine double's id mark "
					+ "(its last 8 hex digits are HMAC-SHA256 keyed with fak-battery-engine-double of the digits before them)");
			assertThat(id.simulatedBecause()).hasValueSatisfying(why -> assertThat(why).contains("is the engine double", "id mark"));
			assertThat(id.probedKind()).isEqualTo("sglang");
			assertThat(id.engineVersion()).isNull();
			assertThat(id.identifiedBy()).containsExactly(
					"POST /v1/chat/completions (model m): id " + marked + ", the engine double's id mark in sglang's id shape");
			assertThat(id.conflict()).isNull();
			assertThat(engine.posted).as("the probe's one chat request, of one token of the first served model")
					.containsExactly(
							"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":1,\"stream\":false}");
			assertThat(id.unidentified()).isEmpty();
			assertThat(id.describe()).startsWith("engine double (sglang dialect) at ");
			assertThat(id.probed()).contains("POST /v1/chat/completions (max_tokens 1): HTTP 200, id " + marked + ", model m");
		}
	}

	@Test
	@DisplayName("a /v1-only proxy that relays the Server header on the chat answer alone: that header names the double")
	void serverHeaderOnTheChatAnswer() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/v1/chat/completions", 200, "{\"id\":\"3f0e8a1c5b7d9e2f4a6c8b0d1e3f5a7c\",\"model\":\"m\",\"choices\":[]}",
						EngineDoubleMarker.SERVER)) {
			TargetIdentity id = probe(engine);
			assertThat(id.server()).isEqualTo(EngineDoubleMarker.SERVER);
			assertThat(id.doubleEvidence()).isEqualTo("its Server header [fak-battery-engine-double] names the engine double");
		}
	}

	@Test
	@DisplayName("a marked id of neither answer shape (a tool-call id, 24 hex) names the double but no dialect")
	void doubleIdMarkOfNoAnswerShape() throws Exception {
		for (String marked : List.of("call_" + EngineDoubleMarker.markedId("0123456789abcdef"),
				EngineDoubleMarker.markedId("0123456789abcdef"))) {
			try (ProbedEngine engine = onlyV1(200, marked, null)) {
				TargetIdentity id = probe(engine);
				assertThat(id.engineDouble()).as(marked).isTrue();
				assertThat(id.probedKind()).as(marked).isNull();
				assertThat(id.engineKind()).as(marked).isEqualTo(TargetIdentity.ENGINE_DOUBLE);
				assertThat(id.dialect()).as(marked).isEqualTo(TargetIdentity.UNKNOWN);
			}
		}
	}

	@Test
	@DisplayName("a vLLM-shaped chatcmpl- id with the mark names the double beside a fingerprint that does not")
	void doubleIdMarkBesideFingerprint() throws Exception {
		String marked = "chatcmpl-" + EngineDoubleMarker.markedId("89abcdef");
		try (ProbedEngine engine = onlyV1(200, marked, VLLM_FINGERPRINT)) {
			TargetIdentity id = probe(engine);
			assertThat(id.engineDouble()).isTrue();
			assertThat(id.doubleEvidence()).startsWith("the id [" + marked + "] of its /v1 answer ends in the engine double's id mark");
			assertThat(id.probedKind()).isEqualTo("vllm");
			assertThat(id.engineVersion()).isEqualTo("0.23.1rc1.dev1029+ga601a9d99");
			assertThat(id.identifiedBy()).containsExactly("POST /v1/chat/completions (model m): system_fingerprint " + VLLM_FINGERPRINT,
					"POST /v1/chat/completions (model m): id " + marked + ", the engine double's id mark in vllm's id shape");
		}
	}

	@Test
	@DisplayName("self-test: real engines' ids (vLLM's captured chatcmpl-, SGLang's captured 32 hex, random hex) are not the double")
	void realIdsAreNoDouble() throws Exception {
		try (ProbedEngine engine = onlyV1(200, "chatcmpl-be8d6d925ff14741", VLLM_FINGERPRINT)) {
			TargetIdentity id = probe(engine);
			assertThat(id.engineDouble()).isFalse();
			assertThat(id.probedKind()).isEqualTo("vllm");
		}
		for (String real : List.of("f50c5bcb379d4b74acc853b8dbe5b7c9", "190d476a40834a02ab4a2252d7f17a9e",
				"3f0e8a1c5b7d9e2f4a6c8b0d1e3f5a7c")) {
			try (ProbedEngine engine = onlyV1(200, real, null)) {
				TargetIdentity id = probe(engine);
				assertThat(id.engineDouble()).as(real).isFalse();
				assertThat(id.unidentified()).as(real).isPresent();
			}
		}
	}

	@Test
	@DisplayName("self-test: a marked id in an error answer is not read (only a 200 chat answer is the engine's)")
	void markedIdInAnErrorIsNotRead() throws Exception {
		try (ProbedEngine engine = onlyV1(500, EngineDoubleMarker.markedId("0123456789abcdef01234567"), null)) {
			TargetIdentity id = probe(engine);
			assertThat(id.engineDouble()).isFalse();
			assertThat(id.probed()).contains("POST /v1/chat/completions (max_tokens 1): HTTP 500, model m");
		}
	}

	@Test
	@DisplayName("the double is recognised by its version suffix on any version endpoint, also one that does not name the engine")
	void doubleSuffixOnAnyVersion() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", "{\"version\":\"0.5.20" + EngineDoubleMarker.SUFFIX + "\"}")
				.on("/version", "{\"version\":\"0.5.20" + EngineDoubleMarker.SUFFIX + "\"}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("sglang");
			assertThat(id.engineDouble()).isTrue();
		}
	}

	@Test
	@DisplayName("no chat request to an engine the GETs identified, nor to a gateway")
	void chatOnlyWhenNothingElseIdentified() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/props", "{\"build_info\":\"b5000-abc\"}")) {
			TargetIdentity id = probe(engine);
			assertThat(engine.authorizations).hasSize(5);
			assertThat(id.probed()).noneMatch(line -> line.startsWith("POST"));
		}
		try (ProbedEngine gateway = ProbedEngine.start().models("").on("/metrics", "fak_gateway_active_streams 0\n")) {
			probe(gateway);
			assertThat(gateway.authorizations).hasSize(5);
		}
	}
}
