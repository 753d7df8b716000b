package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("fak's committed preflight, re-evaluated from its own inputs")
class SeedPreflightTests {

	private final JsonNode seed = read();

	@Test
	@DisplayName("reads BLOCKED_ARCH with the same required_vram_gb 865.9")
	void reEvaluationGivesTheSeedVerdict() {
		PreflightReport report = reEvaluate();

		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
		assertThat(report.nodeVerdict().name()).isEqualTo(seed.path("summary").path("node_verdict").asText());
		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.requiredVramGb()).isEqualTo(865.9)
				.isEqualTo(seed.path("engines").get(0).path("required_vram_gb").asDouble());
		assertThat(vllm.requiredPerGpuVramGb()).isEqualTo(865.9);
	}

	@Test
	@DisplayName("serialises field for field like fak, in fak's order")
	void serialisesTheSeedFields() {
		ObjectNode written = reEvaluate().toJson();

		assertThat(JsonPaths.of(written)).containsExactlyElementsOf(JsonPaths.of(seed));
	}

	@Test
	@DisplayName("gives every value of fak's except the wording of the notes")
	void reproducesTheSeedValues() {
		ObjectNode written = reEvaluate().toJson();
		ObjectNode expected = seed.deepCopy();
		((ObjectNode) written.path("engines").get(0)).remove("notes");
		((ObjectNode) expected.path("engines").get(0)).remove("notes");

		assertThat(written).isEqualTo(expected);
	}

	@Test
	@DisplayName("a mislabelled copy (verdict READY) is caught by re-evaluation")
	void reEvaluationCatchesAnEditedVerdict() {
		ObjectNode edited = seed.deepCopy();
		((ObjectNode) edited.path("summary")).put("node_verdict", "READY");

		PreflightInputs inputs = PreflightInputs.read(edited);
		PreflightReport report = PreflightEvaluator.evaluate(inputs.config(), inputs.nvidiaSmi(), inputs.engineProbes(), clock());

		assertThat(report.nodeVerdict().name()).isNotEqualTo(edited.path("summary").path("node_verdict").asText());
	}

	@Test
	@DisplayName("refuses a report of another schema, naming it")
	void refusesAnotherSchema() {
		ObjectNode edited = seed.deepCopy();
		edited.put("schema", "fak.other.v1");

		assertThatIllegalArgumentException().isThrownBy(() -> PreflightInputs.read(edited))
				.withMessage("preflight report schema is [fak.other.v1], expected fak.glm52-serve-preflight.v1");
	}

	private PreflightReport reEvaluate() {
		PreflightInputs inputs = PreflightInputs.read(seed);
		return PreflightEvaluator.evaluate(inputs.config(), inputs.nvidiaSmi(), inputs.engineProbes(), clock());
	}

	private Clock clock() {
		return Clock.fixed(Instant.parse(seed.path("generated_at").asText()), ZoneOffset.UTC);
	}

	private static JsonNode read() {
		try {
			return Json.MAPPER.readTree(PreflightFixtures.resource("seed-glm52-vllm-preflight.json"));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
