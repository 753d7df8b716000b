package dev.fakbattery.core.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactDocument;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Evidence beats declarations: {@code engine.identity} names only an engine the probe left unidentified; against a
 * positive identification it is a misconfiguration naming both; a declared identity is shown as declared.
 */
@DisplayName("engine.identity: a declaration, never above an observation")
class DeclaredIdentityTests {

	/** What llama-server answers: its /props and llamacpp: metric families (and no /version). */
	private static ProbedEngine llamaServer() throws Exception {
		return ProbedEngine.start()
				.models("\"owned_by\":\"llamacpp\",\"meta\":{\"n_ctx\":4096}")
				.on("/props", "{\"build_info\":\"b5000-58ab80c3\",\"default_generation_settings\":{\"n_ctx\":4096}}")
				.on("/metrics", "# HELP llamacpp:prompt_tokens_total x\nllamacpp:prompt_tokens_total 0\nllamacpp:requests_processing 0\n");
	}

	private static RungRecorder run(ProbedEngine engine, String identity) {
		Map<String, String> values = Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.BASE_URL, engine.baseUrl().toString(),
				HarnessConstants.ENGINE_IDENTITY, identity);
		return new RungRecorder(ArtifactId.RUN_CONTRACT, HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));
	}

	@Test
	@DisplayName("llama.cpp identified by its answers and engine.identity=vllm: a misconfiguration naming both, PENDING, never a verdict")
	void declarationAgainstAnObservation() throws Exception {
		try (ProbedEngine engine = llamaServer()) {
			RungRecorder run = run(engine, "vllm");
			Throwable thrown = catchThrowable(() -> run.target(engine.baseUrl(), HarnessConstants.BASE_URL));
			assertThat(thrown).isInstanceOf(ConfigurationException.class)
					.hasMessageContaining("engine.identity declares vllm but the engine at " + engine.baseUrl()
							+ " identified itself as llama.cpp b5000-58ab80c3")
					.hasMessageContaining("GET /props: build_info b5000-58ab80c3")
					.hasMessageContaining("remove -D" + HarnessConstants.ENGINE_IDENTITY);
			assertThat(run.pendings()).singleElement().satisfies(p -> assertThat(p.name()).isEqualTo(HarnessConstants.ENGINE_IDENTITY));
			run.check("engine", true, "engine vllm", "vllm");
			assertThat(RungOutcome.verdict(run, Optional.of(thrown))).isEqualTo(Verdict.PENDING_MEASUREMENT);
		}
	}

	@Test
	@DisplayName("engine.identity that agrees with the answers changes nothing: the kind stays observed")
	void declarationThatAgrees() throws Exception {
		try (ProbedEngine engine = llamaServer()) {
			RungRecorder run = run(engine, "llama.cpp");
			TargetIdentity target = run.target(engine.baseUrl(), HarnessConstants.BASE_URL);
			assertThat(target.identity()).isEqualTo(TargetIdentity.OBSERVED);
			assertThat(target.identityOverride()).isNull();
			assertThat(run.pendings()).isEmpty();
		}
	}

	@Test
	@DisplayName("an unidentified engine named by engine.identity: declared, not observed, in the artifact's target and provenance")
	void declaredIsShownAsDeclared() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("")) {
			RungRecorder run = run(engine, "vllm");
			TargetIdentity target = run.target(engine.baseUrl(), HarnessConstants.BASE_URL);
			assertThat(target.declared()).isTrue();
			assertThat(run.pendings()).as("named, no longer unidentified").isEmpty();
			run.check("served_model", true, "m", "m");
			JsonNode doc = ArtifactDocument.build(run, ArtifactDocument.draft(run), RungOutcome.verdict(run, Optional.empty()),
					Optional.empty());
			assertThat(doc.path("target").path("engine").path("engine_kind").asText()).isEqualTo("vllm");
			assertThat(doc.path("target").path("engine").path("identity").asText()).isEqualTo("declared");
			assertThat(doc.path("provenance").path("engine_identity").asText()).isEqualTo("declared");
		}
	}

	private static RungRecorder run(ProbedEngine engine, Profile profile) {
		Map<String, String> values = Map.of(HarnessConstants.PROFILE, profile.id(), HarnessConstants.BASE_URL, engine.baseUrl().toString());
		return new RungRecorder(ArtifactId.RUN_CONTRACT, HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));
	}

	@Test
	@DisplayName("an engine nothing identified, none declared: pending engine.identity naming the fix under -Pgpu, not under -Pbattery")
	void unidentifiedIsPendingOnlyWhereARealEngineIsNeeded() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("")) {
			RungRecorder strict = run(engine, Profile.GPU);
			strict.target(engine.baseUrl(), HarnessConstants.BASE_URL);
			assertThat(strict.pendings()).singleElement().satisfies(p -> {
				assertThat(p.name()).isEqualTo(HarnessConstants.ENGINE_IDENTITY);
				assertThat(p.howToProvide()).isEqualTo("check what serves " + engine.baseUrl() + " and set -D"
						+ HarnessConstants.ENGINE_IDENTITY + "=NAME (vllm, sglang, llama.cpp), recorded as declared, not observed");
			});
			RungRecorder battery = run(engine, Profile.BATTERY);
			battery.target(engine.baseUrl(), HarnessConstants.BASE_URL);
			assertThat(battery.pendings()).isEmpty();
			assertThat(battery.simulatedBecause()).isEmpty();
		}
	}

	@Test
	@DisplayName("a rung that reached the engine double is marked simulated, saying so")
	void doubleReachedIsSimulated() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", "{\"version\":\"0.5.20" + dev.fakbattery.wire.EngineDoubleMarker.SUFFIX + "\"}")
				.on("/version", "{\"version\":\"0.5.20" + dev.fakbattery.wire.EngineDoubleMarker.SUFFIX + "\"}")) {
			RungRecorder run = run(engine, Profile.BATTERY);
			run.target(engine.baseUrl(), HarnessConstants.BASE_URL);
			assertThat(run.simulatedBecause()).hasValueSatisfying(why -> assertThat(why).startsWith("the engine at " + engine.baseUrl()
					+ " is the engine double: "));
		}
	}
}
