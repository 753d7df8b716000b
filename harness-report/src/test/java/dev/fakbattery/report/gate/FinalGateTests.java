package dev.fakbattery.report.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactDocument;
import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;
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
	@DisplayName("reproduces fak's real final-check situation: preflight failed, live artifacts missing")
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
		assertThat(dir.resolve("FINAL-CHECK.md")).content()
				.contains("Status: **COMPLETE**, battery **COMPLETE** (" + ArtifactId.requiredArtifacts().size() + "/"
						+ ArtifactId.requiredArtifacts().size() + " required artifacts passed in run " + RUN + ")")
				.doesNotContain("STALE")
				.doesNotContain("Targets differ");
	}

	@Test
	@DisplayName("the draft lists what the run measured and what was pre-produced, with its provenance; never 'real measurements'")
	void draftNamesPreProduced() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		preProduced(ArtifactId.FLOORS, "fak floors");
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.status()).isEqualTo("COMPLETE");
		assertThat(result.preProduced()).containsExactly("floors");
		assertThat(result.measuredThisRun()).hasSize(ArtifactId.requiredArtifacts().size() - 1).doesNotContain("floors");
		GateWriter.write(dir, result, "./mvnw verify -Pgpu");
		String draft = Files.readString(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md"));
		assertThat(draft).doesNotContain("real measurements")
				.contains("Every required artifact passed in run " + RUN + ". Measured in run " + RUN + ": raw_fak_run_contract, ")
				.contains("Pre-produced, not measured in run " + RUN + " (judged on the provenance they name): floors.")
				.contains("- floors (PASS): /data/floors: turntax-airline.json (producer fak floors, version v0.9.1, generated_at "
						+ "2026-11-30T10:00:00Z, binary_sha256 " + "ab".repeat(32) + ")")
				.contains("| 5 floors | PASS (pre-produced) |");
		assertThat(dir.resolve("FINAL-CHECK.md")).content()
				.contains("Pre-produced inputs (not produced by this run), with their provenance:\n\n- floors (PASS): "
						+ "/data/floors: turntax-airline.json (producer fak floors");
		JsonNode check = Json.MAPPER.readTree(dir.resolve("final-check.json").toFile());
		assertThat(check.path("summary").path("pre_produced").get(0).asText()).isEqualTo("floors");
		assertThat(check.path("summary").path("measured_this_run")).hasSize(ArtifactId.requiredArtifacts().size() - 1);
		assertThat(check.path("steps").get(ArtifactId.FLOORS.ordinal()).path("pre_produced").path("source").asText())
				.isEqualTo("/data/floors");
		assertThat(check.path("steps").get(0).path("pre_produced").isNull()).isTrue();
		assertThat(check.path("summary").path("honesty").asText()).doesNotContain("real measurements");
		java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
		FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--root-dir=" + dir },
				new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
		assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("5 floors           PASS (pre-produced)")
				.contains("pre-produced (not measured in this run): [floors], authority draft written");

		assertThat(draft).contains("Engine: vllm 0.11.0 serving ").doesNotContain("override");

		// an engine kind declared by -Dengine.identity, not observed in what it answered, is listed as such in the draft
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS", RUN, vllm().put("identity", "declared").put("identity_override", "vllm"));
		}
		GateWriter.write(dir, FinalGate.evaluate(dir), "./mvnw verify -Pgpu");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).content()
				.contains("Declared, not observed (the engine kind was named by -Dengine.identity;")
				.contains("at http://127.0.0.1:8000/v1 (base.url), declared by -Dengine.identity=vllm, not observed in what it answered: "
						+ ArtifactId.requiredArtifacts().getFirst().id() + ", ")
				.doesNotContain("Engine: vllm");
		// an artifact from before target.engine.identity whose identity_override named the kind: declared too
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS", RUN, vllm().put("identity_override", "vllm"));
		}
		GateWriter.write(dir, FinalGate.evaluate(dir), "./mvnw verify -Pgpu");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).content().contains("Declared, not observed");
		// an observed identity is no declaration
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS", RUN, vllm().put("identity", "observed"));
		}
		GateWriter.write(dir, FinalGate.evaluate(dir), "./mvnw verify -Pgpu");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).content().contains("Engine: vllm 0.11.0").doesNotContain("Declared");

		// with nothing pre-produced, the draft says so
		write(ArtifactId.FLOORS, "PASS");
		GateWriter.write(dir, FinalGate.evaluate(dir), "./mvnw verify -Pgpu");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).content().contains("(judged on the provenance they name): none.");
	}

	@Test
	@DisplayName("a PASS over pre-produced inputs without their provenance is not counted: PENDING_MEASUREMENT naming what is missing")
	void preProducedWithoutProvenance() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		preProduced(ArtifactId.SWEBENCH_COMPARE, null);
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.missing()).containsExactly("swebench_verified_20");
		GateRowAssert row = new GateRowAssert(result, ArtifactId.SWEBENCH_COMPARE);
		assertThat(row.verdict()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(row.detail())
				.isEqualTo("PASS not counted: pre-produced without provenance: /data/floors/turntax-airline.json missing [producer]");
		GateWriter.write(dir, result, "./mvnw verify -Pgpu");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).doesNotExist();

		var doc = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(dir.resolve(ArtifactId.FLOORS.fileName()).toFile());
		doc.putObject("pre_produced").put("source", "/data/floors");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), doc);
		assertThat(new GateRowAssert(FinalGate.evaluate(dir), ArtifactId.FLOORS).detail())
				.startsWith("PASS not counted: pre-produced inputs listed without their provenance");
	}

	@Test
	@DisplayName("a pre-produced block over a test fixture fails the gate, whether its rung recorded the marker or it is on disk now")
	void preProducedFixtureFails() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		preProduced(ArtifactId.FLOORS, "fak floors");
		var doc = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(dir.resolve(ArtifactId.FLOORS.fileName()).toFile());
		((com.fasterxml.jackson.databind.node.ObjectNode) doc.path("pre_produced")).put("fixture", "FIXTURE file /data/floors/FIXTURE");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), doc);
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.failed()).containsExactly("floors");
		assertThat(new GateRowAssert(result, ArtifactId.FLOORS).detail())
				.isEqualTo("test fixture, not a measurement: FIXTURE file /data/floors/FIXTURE; verdict PASS not counted");

		Path floors = Files.createDirectories(dir.resolve("floors"));
		Files.writeString(floors.resolve("FIXTURE"), "test fixture, not a measurement");
		((com.fasterxml.jackson.databind.node.ObjectNode) doc.path("pre_produced")).put("source", floors.toString()).remove("fixture");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), doc);
		assertThat(new GateRowAssert(FinalGate.evaluate(dir), ArtifactId.FLOORS).detail())
				.startsWith("test fixture, not a measurement: FIXTURE file " + floors.resolve("FIXTURE"));
		Files.delete(floors.resolve("FIXTURE"));
		assertThat(FinalGate.evaluate(dir).complete()).as("the same block without the marker").isTrue();
	}

	/** The row of {@code id}. */
	private record GateRowAssert(String verdict, String detail) {
		GateRowAssert(GateResult result, ArtifactId id) {
			this(result.rows().get(id.ordinal()).verdict(), result.rows().get(id.ordinal()).detail());
		}
	}

	/** Adds a pre_produced block to the artifact of {@code id}: one floor file with its provenance, producer as given. */
	private void preProduced(ArtifactId id, String producer) throws IOException {
		var doc = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(dir.resolve(id.fileName()).toFile());
		var block = doc.putObject("pre_produced").put("source", "/data/floors");
		block.putArray("artifacts")
				.addObject()
				.put("file", "/data/floors/turntax-airline.json")
				.put("producer", producer)
				.put("version", "v0.9.1")
				.put("generated_at", "2026-11-30T10:00:00Z")
				.put("binary_sha256", "ab".repeat(32));
		ArtifactFiles.writeJson(dir.resolve(id.fileName()), doc);
	}

	@Test
	@DisplayName("one SIMULATED artifact: no authority draft, and a stale draft is removed")
	void oneSimulated() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, id == ArtifactId.TAX_WITNESS ? "SIMULATED" : "PASS");
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
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		JsonNode summary = Json.MAPPER.readTree(dir.resolve("final-check.json").toFile()).path("summary");
		assertThat(summary.path("required_missing")).extracting(JsonNode::asText).containsExactly("serving_witness");
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
		assertThat(result.rows().get(ArtifactId.FLOORS.ordinal()).detail())
				.isEqualTo("floors headline; pending: raw engine base URL is not configured (set -Dbase.url=http://HOST:8000/v1)");
	}

	@Test
	@DisplayName("one artifact failing: PENDING_MEASUREMENT with it in required_failed")
	void oneFailing() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, id == ArtifactId.TAX_WITNESS ? "FAIL" : "PASS");
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
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.TAX_WITNESS.fileName()),
				Json.MAPPER.createObjectNode().put("schema", "something.else").put("verdict", "PASS"));
		Files.writeString(dir.resolve(ArtifactId.FLOORS.fileName()), "{ not json");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.PREFLIGHT.fileName()),
				Json.MAPPER.createObjectNode().put("schema", ArtifactId.PREFLIGHT.schema()).put("verdict", "OK"));
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.failed()).containsExactly("preflight", "vllm_tax", "floors");
		assertThat(result.rows().get(ArtifactId.TAX_WITNESS.ordinal()).detail())
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
		FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--allow-pending=true", "--root-dir=" + dir },
				new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
		assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8))
				.contains("0 contract         PASS     raw-vllm-vs-fak-gateway-contract.json  raw_fak_run_contract headline")
				.contains("1 preflight        MISSING  glm52-vllm-preflight.json              missing: no glm52-vllm-preflight.json")
				.contains(
						"battery: PENDING_MEASUREMENT, final gate PENDING_MEASUREMENT, 1/9 required artifacts passed, no authority draft");
	}

	@Test
	@DisplayName("-Pgpu refuses a run without the fault rules' artifact, naming it, however the other rungs did")
	void faultArtifactRequiredUnderGpu() {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			if (id != ArtifactId.FAULT_RULES) {
				write(id, "PASS");
			}
		}
		assertThat(ArtifactId.requiredArtifacts()).contains(ArtifactId.FAULT_RULES);
		assertThat(FinalGate.evaluate(dir).missing()).containsExactly("fault_rules");
		assertThatThrownBy(
				() -> FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=gpu", "--allow-pending=false",
					"--root-dir=" + dir }, QUIET))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("final gate PENDING_MEASUREMENT: failed [], missing [fault_rules]");
		write(ArtifactId.FAULT_RULES, "PASS");
		FinalGateMain.run(
				new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=gpu", "--allow-pending=false", "--root-dir=" + dir },
				QUIET);
	}

	@Test
	@DisplayName("SIMULATED never completes: -Pgpu and -Pgate fail naming the rungs and the double; -Pbattery says SIMULATED and passes")
	void simulatedNeverCompletes() {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			boolean measuring = id == ArtifactId.TAX_WITNESS || id == ArtifactId.CONCURRENCY_SWEEP;
			write(id, measuring ? "SIMULATED" : "PASS", RUN, measuring ? engine("vllm", "0.29.0+engine-double", true, "double") : null);
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.battery()).isEqualTo("SIMULATED");
		for (String profile : new String[]{ "gpu", "gate" }) {
			assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=" + profile,
				"--allow-pending=true", "--root-dir=" + dir }, QUIET)).isInstanceOf(IllegalStateException.class)
					.hasMessage("final gate SIMULATED under -P" + profile
							+ ": [vllm_tax (engine double (vllm dialect) 0.29.0+engine-double "
							+ "serving  at http://127.0.0.1:8000/v1 (base.url)), concurrency_sweep (engine double (vllm dialect) "
							+ "0.29.0+engine-double serving  at http://127.0.0.1:8000/v1 (base.url))] measured the engine double, not a real "
							+ "engine; point -Dbase.url at the serving engine and run again; see FINAL-CHECK.md");
		}
		FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=battery", "--allow-pending=true",
			"--root-dir=" + dir }, QUIET);
	}

	@Test
	@DisplayName("artifacts of another run are STALE, never PASS: -Pgate judges the newest run and says so")
	void staleArtifactsDoNotCount() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS", OLD_RUN, vllm());
		}
		write(ArtifactId.TAX_WITNESS, "PASS", RUN, vllm());
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.runId()).hasValue(RUN);
		assertThat(result.passed()).isEqualTo(1);
		assertThat(result.stale()).hasSize(ArtifactId.requiredArtifacts().size() - 1).doesNotContain("vllm_tax");
		assertThat(result.rows().get(ArtifactId.RUN_CONTRACT.ordinal()).detail())
				.isEqualTo("from run " + OLD_RUN + " at 2026-11-29T09:00:00Z, verdict PASS; not counted for run " + RUN);
		assertThat(result.complete()).isFalse();
		assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=gate",
			"--root-dir=" + dir }, QUIET)).hasMessageContaining("(stale [raw_fak_run_contract, preflight,");
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(Json.MAPPER.readTree(dir.resolve("final-check.json").toFile()).path("summary").path("stale"))
				.extracting(JsonNode::asText)
				.containsExactlyElementsOf(result.stale());
		assertThat(dir.resolve("FINAL-CHECK.md")).content()
				.contains("STALE (another run's artifacts, not counted): raw_fak_run_contract, preflight, ");
	}

	@Test
	@DisplayName("a build judges its own run id: an older artifact with PASS is STALE, one without a run id too")
	void buildJudgesItsOwnRun() {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		write(ArtifactId.FLOORS, "PASS", null, null);
		GateResult own = FinalGate.evaluate(dir, java.util.Optional.of(RUN));
		assertThat(own.stale()).containsExactly("floors");
		assertThat(own.rows().get(ArtifactId.FLOORS.ordinal()).detail()).startsWith("written without a run id, verdict PASS");
		assertThat(FinalGate.evaluate(dir, java.util.Optional.of("20261201T000000Z")).passed()).isZero();
	}

	@Test
	@DisplayName("artifacts of one run that measured different targets never complete: the battery FAILs naming both")
	void differentTargetsFail() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS");
		}
		write(ArtifactId.CONCURRENCY_SWEEP, "PASS", RUN,
				engine("vllm", "0.12.0", false, "base.url|vllm|0.12.0|[m]|http://127.0.0.1:8000/v1"));
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.battery()).isEqualTo("FAIL");
		assertThat(result.targetProblem().orElseThrow()).contains("measured 2 different targets")
				.contains("[concurrency_sweep] vllm 0.12.0");
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(dir.resolve("FINAL-CHECK.md")).content()
				.contains("Targets differ: the artifacts of run " + RUN + " measured 2 different targets");
	}

	@Test
	@DisplayName("a COMPLETE battery on llama.cpp withholds the authority draft, naming the engine")
	void llamacppWithholdsDraft() throws IOException {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			write(id, "PASS", RUN,
					engine("llama.cpp", "b1-de3ff81", false, "engine.cmd|llama.cpp|b1-de3ff81|[tiny]|http://127.0.0.1:9/v1"));
		}
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isTrue();
		assertThat(result.draftWithheldBecause()).hasValueSatisfying(why -> assertThat(why)
				.startsWith("engine is llama.cpp b1-de3ff81")
				.endsWith("not the contract's vLLM model"));
		GateWriter.write(dir, result, "./mvnw verify -Pllamacpp");
		assertThat(dir.resolve("BENCHMARK-AUTHORITY-DRAFT.md")).doesNotExist();
		assertThat(dir.resolve("FINAL-CHECK.md")).content().contains("Authority draft withheld: engine is llama.cpp");
	}

	@Test
	@DisplayName("the write step produces final-check, FINAL-CHECK.md and the report environment")
	void writeStep() {
		new ArtifactTestCase(ArtifactId.RUN_CONTRACT, Verdict.SIMULATED, RUN, "battery", vllm()).writeTo(dir);
		Path results = dir.resolve("allure-results");
		FinalGateMain.run(new String[]{ "write", "--experiments-dir=" + dir, "--results-dir=" + results, "--profile=battery" }, QUIET,
				name -> Optional.empty());
		assertThat(dir.resolve("final-check.json")).exists();
		assertThat(dir.resolve("FINAL-CHECK.md")).content().contains("SIMULATED (engine double, not a vLLM number): raw_fak_run_contract");
		assertThat(results.resolve("categories.json")).content().contains("PENDING_MEASUREMENT (not measured");
		java.util.Properties env = environment(results);
		assertThat(env.getProperty("battery")).isEqualTo("SIMULATED, final gate PENDING_MEASUREMENT, 0/9 required artifacts passed; "
				+ "SIMULATED: raw_fak_run_contract");
		assertThat(env.getProperty("battery run")).isEqualTo(RUN + ", started 2026-11-30T20:15:00Z");
		assertThat(env.getProperty("rung 0 contract")).isEqualTo("SIMULATED: raw_fak_run_contract headline");
		assertThat(env.getProperty("rung 3 tax")).isEqualTo("MISSING: missing: no adjudication-tax-witness.json");
		assertThat(env.getProperty("target engine")).startsWith("vllm 0.11.0 serving");
		assertThat(env.getProperty("with machine")).matches("\\d+ cores, [0-9.]+ GiB memory, .*, JDK .*");
		assertThat(env.getProperty("with build command")).isEqualTo("./mvnw verify -Pbattery");
	}

	@Test
	@DisplayName("the environment names the build's command line, one space between words, or the reproduce command when the build gave none")
	void buildCommand() {
		new ArtifactTestCase(ArtifactId.RUN_CONTRACT, Verdict.SIMULATED, RUN, "battery", vllm()).writeTo(dir);
		Path results = dir.resolve("allure-results");
		FinalGateMain.run(new String[]{ "write", "--experiments-dir=" + dir, "--results-dir=" + results, "--profile=battery",
			"--build-command=./mvnw  -B verify -Pbattery -Dtax.count=4 " }, QUIET, name -> Optional.empty());
		assertThat(environment(results).getProperty("with build command")).isEqualTo("./mvnw -B verify -Pbattery -Dtax.count=4");
		assertThat(FinalGateMain.buildCommand("./mvnw ${env.MAVEN_CMD_LINE_ARGS}")).isEmpty();
	}

	@Test
	@DisplayName("the reproduce command names the profile and the configuration the build ran with, quoted")
	void reproduceCommand() throws IOException {
		write(ArtifactId.RUN_CONTRACT, "SIMULATED");
		FinalGateMain.run(new String[]{ "write", "--experiments-dir=" + dir, "--profile=gpu" }, QUIET,
				name -> name.equals("base.url") ? Optional.of("http://127.0.0.1:8000/v1") : Optional.empty());
		assertThat(Files.readString(dir.resolve("final-check.json")))
				.contains("\"reproduce_command\" : \"./mvnw verify -Pgpu -Dbase.url=http://127.0.0.1:8000/v1\"");
	}

	private static java.util.Properties environment(Path results) {
		java.util.Properties env = new java.util.Properties();
		try (InputStream in = Files.newInputStream(results.resolve("environment.properties"))) {
			env.load(in);
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
		return env;
	}

	static final String RUN = "20261130T201500Z";

	static final String OLD_RUN = "20261129T090000Z";

	private void write(ArtifactId id, String verdict) {
		write(id, verdict, RUN, vllm());
	}

	private void write(ArtifactId id, String verdict, String runId, com.fasterxml.jackson.databind.node.ObjectNode engine) {
		new ArtifactTestCase(id, Verdict.valueOf(verdict), runId, "gpu", engine).writeTo(dir);
	}

	/**
	 * A rung artifact as the harness writes it ({@link ArtifactDocument}): a rung of run {@code runId} (none when null)
	 * under {@code profile} records what gives {@code verdict} (a check passed or failed, a pending measurement, a dry
	 * run, the engine double's mark) and the headline {@code <id> headline}; its engine block is {@code engine}.
	 */
	record ArtifactTestCase(ArtifactId id, Verdict verdict, String runId, String profile,
			com.fasterxml.jackson.databind.node.ObjectNode engine) {

		com.fasterxml.jackson.databind.node.ObjectNode document() {
			java.util.Map<String, String> config = new java.util.HashMap<>();
			config.put(HarnessConstants.PROFILE, profile);
			if (runId != null) {
				config.put(HarnessConstants.RUN_ID, runId);
			}
			RungRecorder run = new RungRecorder(id, HarnessConfig.of(name -> Optional.ofNullable(config.get(name))));
			run.check("measured", verdict != Verdict.FAIL, "a measurement", verdict == Verdict.FAIL ? "none" : "one");
			switch (verdict) {
				case PENDING_MEASUREMENT -> run.pending("base.url", "raw engine base URL is not configured",
						"set -Dbase.url=http://HOST:8000/v1");
				case PLANNED -> run.planned("runner not given");
				case SIMULATED -> run.simulated("the engine at http://127.0.0.1:5/v1 is the engine double");
				case PASS, FAIL -> {
				}
			}
			run.headline(id.id() + " headline");
			var doc = ArtifactDocument.build(run, ArtifactDocument.draft(run), RungOutcome.verdict(run, Optional.empty()),
					Optional.empty());
			assertThat(doc.path("verdict").asText()).as("the fixture's computed verdict").isEqualTo(verdict.name());
			if (runId == null) {
				doc.remove("run");
			}
			((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("target")).set("engine", engine);
			return doc;
		}

		void writeTo(Path dir) {
			ArtifactFiles.writeJson(dir.resolve(id.fileName()), document());
		}
	}

	static com.fasterxml.jackson.databind.node.ObjectNode engine(String kind, String version, boolean engineDouble,
			String fingerprint) {
		return Json.MAPPER.createObjectNode()
				.put("origin", "base.url")
				.put("base_url", "http://127.0.0.1:8000/v1")
				.put("engine_kind", kind)
				.put("engine_version", version)
				.put("engine_double", engineDouble)
				.put("fingerprint", fingerprint);
	}

	static com.fasterxml.jackson.databind.node.ObjectNode vllm() {
		return engine("vllm", "0.11.0", false, "base.url|vllm|0.11.0|[m]|http://127.0.0.1:8000/v1");
	}
}
