package dev.fakbattery.conformance.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.ArtifactFiles;
import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.gate.FinalGate;
import dev.fakbattery.api.gate.FinalGateMain;
import dev.fakbattery.api.gate.GateResult;
import dev.fakbattery.api.gate.GateWriter;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("final gate")
class FinalGateTests {

	private static final java.io.PrintStream QUIET = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

	@TempDir
	Path dir;

	@Test
	@DisplayName("reproduces the seed's real final-check situation: preflight failed, live artifacts missing")
	void seedSituation() throws IOException {
		write(ArtifactId.RUN_CONTRACT, "PASS");
		write(ArtifactId.PREFLIGHT, "FAIL");
		write(ArtifactId.FLOORS, "PASS");
		GateResult result = FinalGate.evaluate(dir);
		JsonNode seed;
		try (InputStream in = getClass().getResourceAsStream("/seed/final-check.json")) {
			seed = Json.MAPPER.readTree(in).path("summary");
		}
		assertThat(result.status()).isEqualTo(seed.path("status").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(result.complete()).isEqualTo(seed.path("complete").asBoolean()).isFalse();
		List<String> seedFailed = new ArrayList<>();
		seed.path("required_failed").forEach(n -> seedFailed.add(n.asText()));
		assertThat(result.failed()).isEqualTo(seedFailed).containsExactly("preflight");
		List<String> seedMissing = new ArrayList<>();
		seed.path("required_missing").forEach(n -> seedMissing.add(n.asText()));
		assertThat(result.missing()).contains("serving_witness", "vllm_tax", "swebench_verified_20")
			.containsAll(seedMissing.stream().filter(id -> !id.equals("swebench_compare_preflight")).toList());
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		JsonNode check = Json.MAPPER.readTree(dir.resolve("final-check.json").toFile());
		assertThat(check.path("schema").asText()).isEqualTo("fak.glm52-vllm-agentic-battery.v1");
		assertThat(check.path("summary").path("required_failed").get(0).asText()).isEqualTo("preflight");
		assertThat(check.path("summary").path("required_artifacts").asInt()).isEqualTo(ArtifactId.requiredArtifacts().size());
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).doesNotExist();
	}

	@Test
	@DisplayName("all passed on real measurements: COMPLETE with an authority draft")
	void allPass() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.status()).isEqualTo("COMPLETE");
		assertThat(result.authorityDraftAllowed()).isTrue();
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).content().contains("| 3 tax | PASS |");
		assertThat(dir.resolve("FINAL-CHECK.md")).content().contains("Status: **COMPLETE**");
	}

	@Test
	@DisplayName("one SIMULATED artifact: no authority draft, and a stale draft is removed")
	void oneSimulated() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, id == ArtifactId.VLLM_TAX ? "SIMULATED" : "PASS");
		}
		Files.writeString(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md"), "stale draft from an earlier run");
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.simulated()).containsExactly("vllm_tax");
		assertThat(result.authorityDraftAllowed()).isFalse();
		GateWriter.write(dir, result, "./mvnw verify -Pbattery");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).doesNotExist();
		JsonNode summary = Json.MAPPER.readTree(dir.resolve("final-check.json").toFile()).path("summary");
		assertThat(summary.path("simulated").get(0).asText()).isEqualTo("vllm_tax");
		assertThat(summary.path("authority_draft_allowed").asBoolean()).isFalse();
	}

	@Test
	@DisplayName("one artifact missing: PENDING_MEASUREMENT naming it")
	void oneMissing() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			if (id != ArtifactId.SERVING_WITNESS) {
				write(id, "PASS");
			}
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.status()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(result.missing()).containsExactly("serving_witness");
		assertThat(result.failed()).isEmpty();
	}

	@Test
	@DisplayName("a PENDING_MEASUREMENT or PLANNED artifact counts as missing, never passed")
	void pendingAndPlannedAreMissing() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, switch (id) {
				case FLOORS -> "PENDING_MEASUREMENT";
				case SWEBENCH_COMPARE -> "PLANNED";
				default -> "PASS";
			});
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.missing()).containsExactly("swebench_verified_20", "floors");
		assertThat(result.rows().get(ArtifactId.FLOORS.ordinal()).detail()).isEqualTo("floors headline; pending: ");
	}

	@Test
	@DisplayName("one artifact failing: PENDING_MEASUREMENT with it in required_failed")
	void oneFailing() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, id == ArtifactId.VLLM_TAX ? "FAIL" : "PASS");
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.failed()).containsExactly("vllm_tax");
	}

	@Test
	@DisplayName("a mislabelled or unreadable artifact fails: the file name alone proves nothing")
	void wrongSchemaOrGarbageFails() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.VLLM_TAX.fileName()),
				Json.MAPPER.createObjectNode().put("schema", "something.else").put("verdict", "PASS"));
		Files.writeString(dir.resolve(ArtifactId.FLOORS.fileName()), "{ not json");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.PREFLIGHT.fileName()),
				Json.MAPPER.createObjectNode().put("schema", ArtifactId.PREFLIGHT.schema()).put("verdict", "OK"));
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.failed()).containsExactly("preflight", "vllm_tax", "floors");
		assertThat(result.rows().get(ArtifactId.VLLM_TAX.ordinal()).detail())
			.isEqualTo("schema [something.else], expected [fak.vllm-adjudication-tax.v1]");
	}

	@Test
	@DisplayName("-Pgate fails when not COMPLETE, unless allow.pending")
	void enforceFailsUnlessAllowed() {
		write(ArtifactId.RUN_CONTRACT, "PASS");
		String[] strict = { "enforce", "--experiments-dir=" + dir, "--allow-pending=false", "--root-dir=" + dir };
		assertThatThrownBy(() -> FinalGateMain.run(strict, QUIET)).isInstanceOf(IllegalStateException.class)
			.hasMessageStartingWith("final gate PENDING_MEASUREMENT: failed [], missing [preflight, serving_witness,")
			.hasMessageEndingWith("see FINAL-CHECK.md (set -Dallow.pending=true to report without failing)");
		java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
		FinalGateMain.run(new String[] { "enforce", "--experiments-dir=" + dir, "--allow-pending=true", "--root-dir=" + dir },
				new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
		assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8))
			.contains("0 contract         PASS     raw-vllm-vs-fak-gateway-contract.json  raw_fak_run_contract headline")
			.contains("1 preflight        MISSING  glm52-vllm-preflight.json              missing: no glm52-vllm-preflight.json")
			.contains("final gate: PENDING_MEASUREMENT, 1/8 required artifacts passed, no authority draft");
	}

	@Test
	@DisplayName("the write step produces final-check, FINAL-CHECK.md and the report environment")
	void writeStep() {
		write(ArtifactId.RUN_CONTRACT, "SIMULATED");
		Path results = dir.resolve("allure-results");
		FinalGateMain.run(new String[] { "write", "--experiments-dir=" + dir, "--results-dir=" + results, "--profile=battery" }, QUIET);
		assertThat(dir.resolve("final-check.json")).exists();
		assertThat(dir.resolve("FINAL-CHECK.md")).content().contains("SIMULATED (engine double, not a vLLM number): raw_fak_run_contract");
		assertThat(results.resolve("categories.json")).content().contains("PENDING_MEASUREMENT (not measured");
		assertThat(results.resolve("environment.properties")).content().contains("battery.status=PENDING_MEASUREMENT");
	}

	private void write(ArtifactId id, String verdict) {
		var doc = Json.MAPPER.createObjectNode().put("schema", id.schema()).put("verdict", verdict);
		doc.putObject("summary").put("headline", id.id() + " headline");
		ArtifactFiles.writeJson(dir.resolve(id.fileName()), doc);
	}
}
