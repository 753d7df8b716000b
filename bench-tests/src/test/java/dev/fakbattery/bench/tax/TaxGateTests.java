package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("TaxGate")
class TaxGateTests {

	private static final String MODEL = "glm-5.2";

	private static final String KEY = "glm-5.2::vllm";

	@TempDir
	Path dir;

	private Path baselineFile() {
		return dir.resolve(".vllm-tax-baseline.json");
	}

	/** A baseline file as fak's Python writes it ({@code json.dumps(doc, indent=2)}). */
	private Path seedBaseline(double latencyTax) throws IOException {
		return Files.writeString(baselineFile(), """
				{
				  "schema": "fak.vllm-adjudication-tax-baseline.v1",
				  "baselines": {
				    "glm-5.2::vllm": {
				      "latency_tax": %s,
				      "model": "glm-5.2"
				    },
				    "other::no-cache": {
				      "latency_tax": 2.5,
				      "model": "other"
				    }
				  }
				}
				""".formatted(latencyTax));
	}

	@Test
	@DisplayName("NO_BASELINE, never KEEP, without a baseline; the measured tax is recorded when asked")
	void noBaselineRecords() throws IOException {
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(MODEL, "vllm", 1.123456, true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(result.ok()).isFalse();
		assertThat(result.baselineRecorded()).isTrue();
		assertThat(result.baselineLatencyTax()).isNaN();
		assertThat(result.reason()).contains("no baseline for glm-5.2::vllm").contains("recorded");
		JsonNode doc = Json.MAPPER.readTree(baselineFile().toFile());
		assertThat(doc.get("schema").asText()).isEqualTo(TaxBaselineFile.SCHEMA);
		assertThat(doc.at("/baselines/glm-5.2::vllm/latency_tax").asDouble()).isEqualTo(1.1235);
		assertThat(doc.at("/baselines/glm-5.2::vllm/model").asText()).isEqualTo(MODEL);
	}

	@Test
	@DisplayName("NO_BASELINE writes nothing unless asked to record")
	void noBaselineDoesNotRecordUnasked() {
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(MODEL, "vllm", 1.12, false);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(baselineFile()).doesNotExist();
	}

	@Test
	@DisplayName("KEEP within tolerance updates the baseline and keeps the other entries")
	void keepWithinTolerance() throws IOException {
		seedBaseline(1.10);

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(MODEL, "vllm", 1.30, true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.KEEP);
		assertThat(result.baselineLatencyTax()).isEqualTo(1.10);
		assertThat(result.ceilingLatencyTax()).isCloseTo(1.375, within(1e-12));
		assertThat(result.regressionPct()).isCloseTo(18.1818, within(1e-4));
		assertThat(result.baselineRecorded()).isTrue();
		JsonNode doc = Json.MAPPER.readTree(baselineFile().toFile());
		assertThat(doc.at("/baselines/glm-5.2::vllm/latency_tax").asDouble()).isEqualTo(1.30);
		assertThat(doc.at("/baselines/other::no-cache/latency_tax").asDouble()).isEqualTo(2.5);
	}

	@Test
	@DisplayName("exactly at the ceiling is KEEP (<=)")
	void ceilingIsInclusive() throws IOException {
		seedBaseline(1.0);

		assertThat(new TaxGate(baselineFile()).evaluate(MODEL, "vllm", 1.25, false).verdict())
				.isEqualTo(TaxVerdict.KEEP);
	}

	@Test
	@DisplayName("REVERT above the ceiling, and the baseline is left unchanged even when asked to record")
	void revertAboveCeiling() throws IOException {
		Path file = seedBaseline(1.10);
		byte[] before = Files.readAllBytes(file);

		TaxGateResult result = new TaxGate(file).evaluate(MODEL, "vllm", 1.40, true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.REVERT);
		assertThat(result.ok()).isFalse();
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(result.reason())
				.isEqualTo("latency_tax 1.4000 vs baseline 1.1000 (+27.3%, tolerance 25%) -> REVERT");
		assertThat(Files.readAllBytes(file)).isEqualTo(before);
	}

	@Test
	@DisplayName("the tolerance is configurable")
	void configurableTolerance() throws IOException {
		seedBaseline(1.0);

		assertThat(new TaxGate(baselineFile(), 10).evaluate(MODEL, "vllm", 1.2, false).verdict())
				.isEqualTo(TaxVerdict.REVERT);
		assertThatIllegalArgumentException().isThrownBy(() -> new TaxGate(baselineFile(), -1));
	}

	@Test
	@DisplayName("NO_BENCH when nothing was measured: not ok, nothing recorded")
	void noBench() {
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(MODEL, "vllm", Double.NaN, true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BENCH);
		assertThat(result.ok()).isFalse();
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(result.measuredLatencyTax()).isNaN();
		assertThat(baselineFile()).doesNotExist();
		assertThat(TaxVerdict.NO_BENCH.exitCode()).isEqualTo(4);
	}

	@ParameterizedTest(name = "[{index}] {0}")
	@ValueSource(strings = { "{not json", "[]", "{\"schema\": \"other.v1\", \"baselines\": {}}",
		"{\"schema\": \"fak.vllm-adjudication-tax-baseline.v1\"}",
		"{\"schema\": \"fak.vllm-adjudication-tax-baseline.v1\", \"baselines\": {\"glm-5.2::vllm\": {\"latency_tax\": \"1.1\"}}}",
		"{\"schema\": \"fak.vllm-adjudication-tax-baseline.v1\", \"baselines\": {\"glm-5.2::vllm\": {\"latency_tax\": 0}}}",
		"" })
	@DisplayName("a corrupt baseline file is an error naming the file, never a silent KEEP")
	void corruptBaselineIsAnError(String content) throws IOException {
		Path file = Files.writeString(baselineFile(), content);
		TaxGate gate = new TaxGate(file);

		assertThatIllegalStateException().isThrownBy(() -> gate.evaluate(MODEL, "vllm", 1.1, true))
				.withMessageContaining(file.toString())
				.withMessageContaining("is invalid");
		assertThat(Files.readString(file)).isEqualTo(content);
	}

	@Test
	@DisplayName("the key is <model>::<engine>, or <model>::no-cache without an engine")
	void key() throws IOException {
		seedBaseline(1.10);

		assertThat(TaxGate.key("m", "sglang")).isEqualTo("m::sglang");
		assertThat(TaxGate.key("m", "")).isEqualTo("m::no-cache");
		assertThat(new TaxGate(baselineFile()).evaluate("other", null, 4.0, false).verdict())
				.isEqualTo(TaxVerdict.REVERT);
	}

	@Test
	@DisplayName("writes every fak gate field, rounded as fak writes them, unknown as null")
	void writesSeedGateFields() throws IOException {
		seedBaseline(1.10);
		ObjectNode gate = Json.MAPPER.createObjectNode();
		ObjectNode noBench = Json.MAPPER.createObjectNode();

		new TaxGate(baselineFile()).evaluate(MODEL, "vllm", 1.234567, false).writeTo(gate);
		new TaxGate(baselineFile()).evaluate(MODEL, "vllm", Double.NaN, false).writeTo(noBench);

		assertThat(gate.properties()).extracting(java.util.Map.Entry::getKey)
				.containsExactly("verdict", "ok",
						"measured_latency_tax", "baseline_latency_tax", "ceiling_latency_tax", "tolerance_pct",
						"regression_pct", "baseline_recorded", "baseline_file", "reason");
		assertThat(gate.get("measured_latency_tax").asDouble()).isEqualTo(1.2346);
		assertThat(gate.get("ceiling_latency_tax").asDouble()).isEqualTo(1.375);
		assertThat(gate.get("regression_pct").asDouble()).isEqualTo(12.23);
		assertThat(gate.get("tolerance_pct").asDouble()).isEqualTo(25.0);
		assertThat(gate.get("baseline_file").asText()).isEqualTo(baselineFile().toString());
		assertThat(noBench.get("verdict").asText()).isEqualTo("NO_BENCH");
		assertThat(noBench.get("measured_latency_tax").isNull()).isTrue();
		assertThat(noBench.get("regression_pct").isNull()).isTrue();
	}
}
