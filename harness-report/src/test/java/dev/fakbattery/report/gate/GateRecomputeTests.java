package dev.fakbattery.report.gate;

import static dev.fakbattery.report.gate.FinalGateTests.RUN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Verdict;
import dev.fakbattery.report.gate.FinalGateTests.ArtifactTestCase;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("final gate: a PASS counts only from a strict run, on a real engine, when it follows from its checks")
class GateRecomputeTests {

	private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

	private static final String NOT_STRICT = "PASS not counted: run profile battery is not strict (-Pgpu, -Pllamacpp)";

	@TempDir
	Path dir;

	@Test
	@DisplayName("a -Pbattery folder that passed every rung on a real engine is not COMPLETE: each row names the profile, -Pgate fails, no draft")
	void batteryFolderRefused() throws IOException {
		writeAll("battery", Verdict.PASS, FinalGateTests.vllm());
		Files.writeString(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD), "draft of an earlier run");
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.battery()).isEqualTo(GateResult.PENDING);
		assertThat(result.passed()).isZero();
		assertThat(result.rows()).allSatisfy(row -> {
			assertThat(row.verdict()).isEqualTo("PENDING_MEASUREMENT");
			assertThat(row.detail()).isEqualTo(NOT_STRICT);
		});
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD)).doesNotExist();
		JsonNode check = Json.MAPPER.readTree(dir.resolve(GateWriter.FINAL_CHECK_JSON).toFile());
		assertThat(check.path("summary").path("status").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(check.path("steps")).allSatisfy(step -> assertThat(step.path("artifact_detail").asText()).isEqualTo(NOT_STRICT));
		assertThat(dir.resolve(GateWriter.FINAL_CHECK_MD)).content()
				.contains(
						"| 3 tax | PENDING_MEASUREMENT | `" + dir.resolve(ArtifactId.TAX_WITNESS.fileName()) + "` | " + NOT_STRICT + " |");
		assertThatThrownBy(() -> enforce("gate")).isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("final gate PENDING_MEASUREMENT: failed [], missing [raw_fak_run_contract, preflight,");

		// the same rungs under a strict profile count
		writeAll("gpu", Verdict.PASS, FinalGateTests.vllm());
		assertThat(FinalGate.evaluate(dir).complete()).isTrue();
		enforce("gate");
	}

	@Test
	@DisplayName("an artifact without run.profile (an older version's), or with one that names no profile, is not counted, saying so")
	void noProfileRefused() {
		writeAll("llamacpp", Verdict.PASS, FinalGateTests.vllm());
		assertThat(FinalGate.evaluate(dir).complete()).as("-Pllamacpp is strict").isTrue();
		ObjectNode doc = read(ArtifactId.FLOORS);
		((ObjectNode) doc.get("run")).remove("profile");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), doc);
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.missing()).containsExactly("floors");
		assertThat(row(result, ArtifactId.FLOORS).detail())
				.isEqualTo("PASS not counted: no run profile (run.profile missing: written by an older version), not strict "
						+ "(-Pgpu, -Pllamacpp)");

		((ObjectNode) doc.get("run")).put("profile", "cpu");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), doc);
		assertThat(row(FinalGate.evaluate(dir), ArtifactId.FLOORS).detail())
				.isEqualTo("PASS not counted: run profile [cpu] is no profile, not strict (-Pgpu, -Pllamacpp)");
	}

	@Test
	@DisplayName("a hand-edited verdict does not follow from its checks: the row FAILs naming the check, and -Pgate fails")
	void handEditedVerdictRefused() throws IOException {
		writeAll("gpu", Verdict.PASS, FinalGateTests.vllm());
		new ArtifactTestCase(ArtifactId.TAX_WITNESS, Verdict.FAIL, RUN, "gpu", FinalGateTests.vllm()).writeTo(dir);
		ObjectNode tax = read(ArtifactId.TAX_WITNESS);
		tax.put("verdict", "PASS");
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.TAX_WITNESS.fileName()), tax);
		new ArtifactTestCase(ArtifactId.FLOORS, Verdict.PENDING_MEASUREMENT, RUN, "gpu", FinalGateTests.vllm()).writeTo(dir);
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.FLOORS.fileName()), read(ArtifactId.FLOORS).put("verdict", "PASS"));
		Files.writeString(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD), "draft of an earlier run");

		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.battery()).isEqualTo(GateResult.FAIL);
		assertThat(result.failed()).containsExactly("vllm_tax", "floors");
		assertThat(row(result, ArtifactId.TAX_WITNESS).verdict()).isEqualTo("FAIL");
		assertThat(row(result, ArtifactId.TAX_WITNESS).detail()).isEqualTo(
				"not counted: verdict PASS does not follow from its checks (check measured failed: expected a measurement, observed none)");
		assertThat(row(result, ArtifactId.FLOORS).verdict()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(row(result, ArtifactId.FLOORS).detail())
				.isEqualTo("not counted: verdict PASS does not follow from its checks (pending: base.url)");
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD)).doesNotExist();
		assertThat(dir.resolve(GateWriter.FINAL_CHECK_MD)).content()
				.contains("| not counted: verdict PASS does not follow from its checks (check measured failed:");
		assertThatThrownBy(() -> enforce("gate")).isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("final gate FAIL: failed [vllm_tax, floors]");
	}

	@Test
	@DisplayName("a PASS row carrying engine_double: true is SIMULATED, never counted: not COMPLETE, -Pgate fails naming the double")
	void engineDoublePassRefused() throws IOException {
		writeAll("gpu", Verdict.PASS, FinalGateTests.engine("vllm", "0.29.0+engine-double", true, "double"));
		Files.writeString(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD), "draft of an earlier run");
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.complete()).isFalse();
		assertThat(result.status()).isEqualTo(GateResult.PENDING);
		assertThat(result.battery()).isEqualTo(GateResult.SIMULATED);
		assertThat(result.passed()).isZero();
		assertThat(result.rows()).allSatisfy(row -> {
			assertThat(row.verdict()).isEqualTo("SIMULATED");
			assertThat(row.detail()).isEqualTo("PASS not counted: engine is the engine double (target.engine.engine_double)");
		});
		GateWriter.write(dir, result, "./mvnw verify -Pgate");
		assertThat(dir.resolve(GateWriter.AUTHORITY_DRAFT_MD)).doesNotExist();
		assertThatThrownBy(() -> enforce("gate")).isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("final gate SIMULATED under -Pgate: [raw_fak_run_contract (engine double (vllm dialect)");

		// from a -Pbattery run as well, the row names both reasons
		writeAll("battery", Verdict.PASS, FinalGateTests.engine("vllm", "0.29.0+engine-double", true, "double"));
		assertThat(row(FinalGate.evaluate(dir), ArtifactId.TAX_WITNESS).detail())
				.isEqualTo(NOT_STRICT + "; engine is the engine double (target.engine.engine_double)");
	}

	@Test
	@DisplayName("a FAIL of a -Pbattery run still fails the gate: a non-strict profile only keeps a PASS from counting")
	void batteryFailStillFails() {
		writeAll("battery", Verdict.PASS, FinalGateTests.vllm());
		new ArtifactTestCase(ArtifactId.PREFLIGHT, Verdict.FAIL, RUN, "battery", FinalGateTests.vllm()).writeTo(dir);
		GateResult result = FinalGate.evaluate(dir);
		assertThat(result.battery()).isEqualTo(GateResult.FAIL);
		assertThat(result.failed()).containsExactly("preflight");
	}

	private void writeAll(String profile, Verdict verdict, ObjectNode engine) {
		for (ArtifactId id : ArtifactId.requiredArtifacts()) {
			new ArtifactTestCase(id, verdict, RUN, profile, engine).writeTo(dir);
		}
	}

	private ObjectNode read(ArtifactId id) {
		try {
			return (ObjectNode) Json.MAPPER.readTree(dir.resolve(id.fileName()).toFile());
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
	}

	private void enforce(String profile) {
		FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=" + profile, "--allow-pending=false",
			"--root-dir=" + dir }, QUIET);
	}

	private static GateRow row(GateResult result, ArtifactId id) {
		return result.rows().get(id.ordinal());
	}
}
