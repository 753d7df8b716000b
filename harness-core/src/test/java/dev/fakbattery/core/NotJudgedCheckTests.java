package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A check with nothing observed to judge it by: NOT_JUDGED in the artifact, the rung PENDING_MEASUREMENT, never PASS. */
@DisplayName("RungRecorder.notJudged: a check nothing could judge")
class NotJudgedCheckTests {

	private static RungRecorder run() {
		return new RungRecorder(ArtifactId.RUN_CONTRACT, HarnessConfig.of(name -> Optional.empty()));
	}

	private static JsonNode artifact(RungRecorder run) {
		return ArtifactDocument.build(run, ArtifactDocument.draft(run), RungOutcome.verdict(run, Optional.empty()), Optional.empty());
	}

	@Test
	@DisplayName("beside passed checks, a not-judged check makes the rung PENDING_MEASUREMENT with its reason, and is written NOT_JUDGED")
	void notJudgedIsPending() {
		RungRecorder run = run();
		run.check("served_model", true, "model m", "serves [m]");
		run.notJudged("engine", "engine vllm (-Dengine) against the observed engine kind", "vllm, declared by -Dengine.identity",
				"the engine kind is declared, not observed", "serve an engine that identifies itself");
		assertThat(RungOutcome.verdict(run, Optional.empty())).isEqualTo(Verdict.PENDING_MEASUREMENT);
		assertThat(RungOutcome.pendingReason(run))
				.contains("check engine not judged: the engine kind is declared, not observed (serve an engine that identifies itself)");
		assertThat(run.checks()).extracting(Check::name).containsExactly("served_model");
		JsonNode doc = artifact(run);
		assertThat(doc.path("acceptance").path("engine").path("status").asText()).isEqualTo("NOT_JUDGED");
		assertThat(doc.path("acceptance").path("engine").path("observed").asText()).isEqualTo("vllm, declared by -Dengine.identity");
		assertThat(doc.path("acceptance").path("served_model").path("status").asText()).isEqualTo("PASS");
		assertThat(doc.path("summary").path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(doc.path("summary").path("passed").asInt()).isEqualTo(1);
	}

	@Test
	@DisplayName("a failed check beside a not-judged one still FAILs the rung")
	void failureStillFails() {
		RungRecorder run = run();
		run.check("served_model", false, "model m", "serves [n]");
		run.notJudged("engine", "engine vllm", "declared", "declared, not observed", "fix");
		assertThat(RungOutcome.verdict(run, Optional.empty())).isEqualTo(Verdict.FAIL);
	}
}
