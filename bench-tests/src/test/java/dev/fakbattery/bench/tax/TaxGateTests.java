package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("TaxGate")
class TaxGateTests {

	private static final TaxBaselineKey KEY = new TaxBaselineKey("cmd fak serve --addr 127.0.0.1:{port}", "vllm", "0.11.0",
			"glm-5.2", "chat-short seed 1", "Linux amd64, 16 cpus, AMD EPYC 7R13 Processor");

	@TempDir
	Path dir;

	private Path baselineFile() {
		return dir.resolve(".vllm-tax-baseline.json");
	}

	/** A reading of {@code estimate} with an interval of +/-{@code halfWidth}. */
	static ConfidenceInterval tax(double estimate, double halfWidth) {
		return ConfidenceInterval.ofBounds("latency_tax", estimate, estimate - halfWidth, estimate + halfWidth, 0.95);
	}

	static ConfidenceInterval tax(double estimate) {
		return tax(estimate, 0.0);
	}

	/** A baseline file holding {@code latencyTax} under {@link #KEY}, and fak's own {@code <model>::<engine>} entry. */
	private Path seedBaseline(double latencyTax) throws IOException {
		return Files.writeString(baselineFile(), """
				{
				  "schema": "fak.vllm-adjudication-tax-baseline.v1",
				  "baselines": {
				    "%s": {
				      "latency_tax": %s,
				      "model": "glm-5.2"
				    },
				    "other::no-cache": {
				      "latency_tax": 2.5,
				      "model": "other"
				    }
				  }
				}
				""".formatted(KEY.id(), latencyTax));
	}

	private JsonNode entry() throws IOException {
		return Json.MAPPER.readTree(baselineFile().toFile()).path("baselines").path(KEY.id());
	}

	@Test
	@DisplayName("NO_BASELINE, never KEEP, without a baseline; the measured tax is recorded with the key's parts when asked")
	void noBaselineRecords() throws IOException {
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.123456, 0.01), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(result.ok()).isFalse();
		assertThat(result.baselineRecorded()).isTrue();
		assertThat(result.baselineLatencyTax()).isNaN();
		assertThat(result.reason()).contains("no baseline for " + KEY.id()).contains("recorded");
		JsonNode doc = Json.MAPPER.readTree(baselineFile().toFile());
		assertThat(doc.get("schema").asText()).isEqualTo(TaxBaselineFile.SCHEMA);
		JsonNode entry = entry();
		assertThat(entry.path("latency_tax").asDouble()).isEqualTo(1.1235);
		assertThat(entry.path("model").asText()).isEqualTo("glm-5.2");
		assertThat(entry.path("gateway").asText()).isEqualTo(KEY.gateway());
		assertThat(entry.path("engine_version").asText()).isEqualTo("0.11.0");
		assertThat(entry.path("workload").asText()).isEqualTo(KEY.workload());
		assertThat(entry.path("host_class").asText()).isEqualTo(KEY.hostClass());
		assertThat(entry.path("readings")).hasSize(1);
		assertThat(entry.at("/readings/0/latency_tax_ci95/1").asDouble()).isEqualTo(1.1335);
	}

	@Test
	@DisplayName("NO_BASELINE writes nothing unless asked to record")
	void noBaselineDoesNotRecordUnasked() {
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.12), false);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(baselineFile()).doesNotExist();
	}

	@Test
	@DisplayName("KEEP of a worse reading inside tolerance keeps it as a reading; the baseline is not raised, the other entries kept")
	void keepNeverRaisesTheBaseline() throws IOException {
		seedBaseline(1.10);

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.30, 0.01), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.KEEP);
		assertThat(result.baselineLatencyTax()).isEqualTo(1.10);
		assertThat(result.ceilingLatencyTax()).isCloseTo(1.375, within(1e-12));
		assertThat(result.regressionPct()).isCloseTo(18.1818, within(1e-4));
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(result.reason()).contains("kept as a reading, the baseline unchanged");
		assertThat(entry().path("latency_tax").asDouble()).isEqualTo(1.10);
		assertThat(entry().path("readings")).hasSize(1);
		assertThat(entry().at("/readings/0/latency_tax").asDouble()).isEqualTo(1.30);
		assertThat(entry().at("/readings/0/verdict").asText()).isEqualTo("KEEP");
		assertThat(Json.MAPPER.readTree(baselineFile().toFile()).at("/baselines/other::no-cache/latency_tax").asDouble())
				.isEqualTo(2.5);
	}

	@Test
	@DisplayName("a better KEEP reading becomes the new, lower baseline")
	void betterReadingLowersTheBaseline() throws IOException {
		seedBaseline(1.10);

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.05, 0.01), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.KEEP);
		assertThat(result.baselineRecorded()).isTrue();
		assertThat(entry().path("latency_tax").asDouble()).isEqualTo(1.05);
	}

	@Test
	@DisplayName("a tax creeping 20 % a run, each reading within tolerance of the last, ends in REVERT (fak's gate kept it forever)")
	void creepingTaxEndsInRevert() {
		TaxGate gate = new TaxGate(baselineFile(), 0.25);
		List<TaxVerdict> verdicts = new ArrayList<>();
		double reading = 1.0;
		for (int run = 0; run < 6; run++) {
			verdicts.add(gate.evaluate(KEY, tax(reading), true).verdict());
			reading *= 1.20;
		}

		assertThat(verdicts).startsWith(TaxVerdict.NO_BASELINE, TaxVerdict.KEEP).contains(TaxVerdict.REVERT);
		assertThat(verdicts.get(2)).as("1.44 against the first reading's ceiling 1.25").isEqualTo(TaxVerdict.REVERT);
		assertThat(verdicts.subList(2, verdicts.size())).containsOnly(TaxVerdict.REVERT);
	}

	@Test
	@DisplayName("a point estimate inside the tolerance whose interval's upper bound is outside it is REVERT, not KEEP")
	void upperBoundIsJudged() throws IOException {
		seedBaseline(1.0);

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.20, 0.10), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.REVERT);
		assertThat(result.judgedLatencyTax()).isCloseTo(1.30, within(1e-12));
		assertThat(result.reason()).contains("upper bound 1.3000 > ceiling 1.2500");
		assertThat(new TaxGate(baselineFile()).evaluate(KEY, tax(1.20, 0.04), false).verdict()).as("upper bound 1.24 inside")
				.isEqualTo(TaxVerdict.KEEP);
	}

	@ParameterizedTest(name = "[{index}] another {0}")
	@ValueSource(strings = { "gateway", "engine", "engine version", "model", "workload", "host class" })
	@DisplayName("a baseline of another gateway, engine, engine version, model, workload or host class is not used")
	void otherKeyIsNotUsed(String part) throws IOException {
		seedBaseline(1.0);
		TaxBaselineKey other = switch (part) {
			case "gateway" -> new TaxBaselineKey("url http://127.0.0.1:9/v1", KEY.engine(), KEY.engineVersion(), KEY.model(),
					KEY.workload(), KEY.hostClass());
			case "engine" -> new TaxBaselineKey(KEY.gateway(), "sglang", KEY.engineVersion(), KEY.model(), KEY.workload(),
					KEY.hostClass());
			case "engine version" -> new TaxBaselineKey(KEY.gateway(), KEY.engine(), "0.12.0", KEY.model(), KEY.workload(),
					KEY.hostClass());
			case "model" -> new TaxBaselineKey(KEY.gateway(), KEY.engine(), KEY.engineVersion(), "other", KEY.workload(),
					KEY.hostClass());
			case "workload" -> new TaxBaselineKey(KEY.gateway(), KEY.engine(), KEY.engineVersion(), KEY.model(), "agentic seed 1",
					KEY.hostClass());
			default -> new TaxBaselineKey(KEY.gateway(), KEY.engine(), KEY.engineVersion(), KEY.model(), KEY.workload(),
					"Linux amd64, 2 cpus, cpu model unknown");
		};

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(other, tax(1.9), false);

		assertThat(other.id()).isNotEqualTo(KEY.id());
		assertThat(result.verdict()).as("1.9 would be REVERT against the 1.0 baseline of " + KEY.id())
				.isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(new TaxGate(baselineFile()).evaluate(KEY, tax(1.9), false).verdict()).isEqualTo(TaxVerdict.REVERT);
	}

	@Test
	@DisplayName("fak's <model>::<engine> entries stay readable and kept, are never matched, and the reason names them")
	void legacyEntriesAreNotMatched() throws IOException {
		Files.writeString(baselineFile(), """
				{"schema": "fak.vllm-adjudication-tax-baseline.v1",
				 "baselines": {"glm-5.2::vllm": {"latency_tax": 1.0, "model": "glm-5.2"}}}
				""");

		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, tax(1.9), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.NO_BASELINE);
		assertThat(result.reason()).contains("[glm-5.2::vllm] are not used");
		JsonNode doc = Json.MAPPER.readTree(baselineFile().toFile());
		assertThat(doc.at("/baselines/glm-5.2::vllm/latency_tax").asDouble()).isEqualTo(1.0);
		assertThat(entry().path("latency_tax").asDouble()).isEqualTo(1.9);
	}

	@Test
	@DisplayName("an engine that reported no version is keyed version-unreported, never as another version")
	void unreportedVersion() {
		TaxBaselineKey unreported = new TaxBaselineKey(KEY.gateway(), KEY.engine(), null, KEY.model(), KEY.workload(),
				KEY.hostClass());

		assertThat(unreported.id()).contains("engine=vllm " + TaxBaselineKey.VERSION_UNREPORTED + "|").isNotEqualTo(KEY.id());
	}

	@Test
	@DisplayName("REVERT above the ceiling, and the baseline file is left unchanged even when asked to record")
	void revertAboveCeiling() throws IOException {
		Path file = seedBaseline(1.10);
		byte[] before = Files.readAllBytes(file);

		TaxGateResult result = new TaxGate(file).evaluate(KEY, tax(1.40), true);

		assertThat(result.verdict()).isEqualTo(TaxVerdict.REVERT);
		assertThat(result.ok()).isFalse();
		assertThat(result.baselineRecorded()).isFalse();
		assertThat(result.reason()).isEqualTo("latency_tax 1.4000 [1.4000, 1.4000] vs baseline 1.1000 (+27.3%); upper bound 1.4000 > "
				+ "ceiling 1.3750 (tolerance 25%) -> REVERT");
		assertThat(Files.readAllBytes(file)).isEqualTo(before);
	}

	@Test
	@DisplayName("the tolerance is configurable and must be > 0")
	void configurableTolerance() throws IOException {
		seedBaseline(1.0);

		assertThat(new TaxGate(baselineFile(), 0.10).evaluate(KEY, tax(1.2), false).verdict()).isEqualTo(TaxVerdict.REVERT);
		assertThat(new TaxGate(baselineFile(), 0.30).evaluate(KEY, tax(1.2), false).verdict()).isEqualTo(TaxVerdict.KEEP);
		assertThatIllegalArgumentException().isThrownBy(() -> new TaxGate(baselineFile(), 0))
				.withMessageContaining("tax.tolerance")
				.withMessageContaining("-Dtax.tolerance=0.25");
		assertThatIllegalArgumentException().isThrownBy(() -> new TaxGate(baselineFile(), -1));
	}

	@Test
	@DisplayName("NO_BENCH when nothing was measured: not ok, nothing recorded")
	void noBench() {
		ConfidenceInterval undefined = ConfidenceInterval.undefined("latency_tax", "no numerator samples", 0.95, 1000, 1L);
		TaxGateResult result = new TaxGate(baselineFile()).evaluate(KEY, undefined, true);

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
		"{\"schema\": \"fak.vllm-adjudication-tax-baseline.v1\", \"baselines\": {\"KEY\": {\"latency_tax\": \"1.1\"}}}",
		"{\"schema\": \"fak.vllm-adjudication-tax-baseline.v1\", \"baselines\": {\"KEY\": {\"latency_tax\": 0}}}",
		"" })
	@DisplayName("a corrupt baseline file is an error naming the file, never a silent KEEP")
	void corruptBaselineIsAnError(String content) throws IOException {
		String written = content.replace("KEY", KEY.id());
		Path file = Files.writeString(baselineFile(), written);
		TaxGate gate = new TaxGate(file);

		assertThatIllegalStateException().isThrownBy(() -> gate.evaluate(KEY, tax(1.1), true))
				.withMessageContaining(file.toString())
				.withMessageContaining("is invalid");
		assertThat(Files.readString(file)).isEqualTo(written);
	}

	@Test
	@DisplayName("writes every fak gate field, rounded as fak writes them, unknown as null, then the interval judged and the key")
	void writesSeedGateFields() throws IOException {
		seedBaseline(1.10);
		ObjectNode gate = Json.MAPPER.createObjectNode();
		ObjectNode noBench = Json.MAPPER.createObjectNode();

		new TaxGate(baselineFile()).evaluate(KEY, tax(1.234567, 0.01), false).writeTo(gate);
		new TaxGate(baselineFile()).evaluate(KEY, ConfidenceInterval.undefined("latency_tax", "none", 0.95, 1000, 1L), false)
				.writeTo(noBench);

		assertThat(gate.properties()).extracting(java.util.Map.Entry::getKey)
				.containsExactly("verdict", "ok",
						"measured_latency_tax", "baseline_latency_tax", "ceiling_latency_tax", "tolerance_pct",
						"regression_pct", "baseline_recorded", "baseline_file", "reason", "measured_latency_tax_ci95",
						"judged_latency_tax", "baseline_key");
		assertThat(gate.get("measured_latency_tax").asDouble()).isEqualTo(1.2346);
		assertThat(gate.get("judged_latency_tax").asDouble()).isEqualTo(1.2446);
		assertThat(gate.get("ceiling_latency_tax").asDouble()).isEqualTo(1.375);
		assertThat(gate.get("regression_pct").asDouble()).isEqualTo(12.23);
		assertThat(gate.get("tolerance_pct").asDouble()).isEqualTo(25.0);
		assertThat(gate.get("baseline_file").asText()).isEqualTo(baselineFile().toString());
		assertThat(gate.get("baseline_key").asText()).isEqualTo(KEY.id());
		assertThat(gate.get("measured_latency_tax_ci95")).extracting(com.fasterxml.jackson.databind.JsonNode::asDouble)
				.containsExactly(1.2246, 1.2446);
		assertThat(noBench.get("verdict").asText()).isEqualTo("NO_BENCH");
		assertThat(noBench.get("measured_latency_tax_ci95")).allMatch(com.fasterxml.jackson.databind.JsonNode::isNull).hasSize(2);
		assertThat(noBench.get("measured_latency_tax").isNull()).isTrue();
		assertThat(noBench.get("judged_latency_tax").isNull()).isTrue();
		assertThat(noBench.get("regression_pct").isNull()).isTrue();
	}

	@Test
	@DisplayName("an upper bound exactly at the ceiling is kept, a hair above it reverted; a tax of 0 is refused; the tolerance is the one given")
	void ceilingIsInclusive() throws IOException {
		seedBaseline(1.0);
		TaxGate gate = new TaxGate(baselineFile(), 0.25);
		assertThat(gate.tolerance()).isEqualTo(0.25);
		assertThat(gate.evaluate(KEY, tax(1.2, 0.05), false).verdict()).as("hi 1.25 = 1.0 x 1.25").isEqualTo(TaxVerdict.KEEP);
		assertThat(gate.evaluate(KEY, tax(1.2, 0.0501), false).verdict()).isEqualTo(TaxVerdict.REVERT);
		assertThatIllegalArgumentException().isThrownBy(() -> gate.evaluate(KEY, tax(0.0), false))
				.withMessageContaining("a latency tax is a positive finite ratio");
	}

	@Test
	@DisplayName("the baseline keeps each valid reading, the most recent " + TaxBaselineFile.MAX_READINGS + " of them")
	void readingsKept() throws IOException {
		TaxBaselineFile file = new TaxBaselineFile(baselineFile());
		file.record(KEY, 1.1, tax(1.1), TaxVerdict.NO_BASELINE);
		file.record(KEY, 1.1, tax(1.12), TaxVerdict.KEEP);
		assertThat(entry().path("readings")).extracting(n -> n.path("latency_tax").asDouble()).containsExactly(1.1, 1.12);
		for (int i = 0; i < TaxBaselineFile.MAX_READINGS; i++) {
			file.record(KEY, 1.1, tax(1.0 + i / 100.0), TaxVerdict.KEEP);
		}
		assertThat(entry().path("readings")).hasSize(TaxBaselineFile.MAX_READINGS);
		assertThat(entry().at("/readings/0/latency_tax").asDouble()).as("the oldest ones dropped").isEqualTo(1.0);
	}
}
