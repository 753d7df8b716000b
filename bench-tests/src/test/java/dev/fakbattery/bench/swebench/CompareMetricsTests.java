package dev.fakbattery.bench.swebench;

import static dev.fakbattery.bench.swebench.RunDirFixture.agent;
import static dev.fakbattery.bench.swebench.RunDirFixture.grade;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.Measurement;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Per-arm metrics of the run contract from compare.json")
class CompareMetricsTests {

	private static final CompareExpectation SEED = CompareExpectation.seed();

	@TempDir
	Path temp;

	@Test
	@DisplayName("covers fak's contract's metrics_required, in order, for both arms")
	void coversTheContractMetrics() {
		List<String> contract = new ArrayList<>();
		SeedContract.read().path("metrics_required").forEach(m -> contract.add(m.asText()));

		assertThat(CompareMetrics.METRICS_REQUIRED).containsExactlyElementsOf(contract);
		List<ArmMetrics> metrics = CompareMetrics.extract(good(), SEED);
		assertThat(metrics).extracting(ArmMetrics::arm).containsExactly("raw-vllm", "fak-gateway");
		assertThat(metrics.get(1).metrics()).extracting(Measurement::name)
				.containsExactlyElementsOf(contract.stream().map(m -> "fak-gateway." + m).toList());
	}

	@Test
	@DisplayName("reads resolve rate, tool calls, latencies and wall seconds with their sources")
	void readsRecordedMetrics() {
		ArmMetrics raw = CompareMetrics.extract(good(), SEED).get(0);

		assertThat(raw.metric("pass_rate")).contains(Measurement.of("raw-vllm.pass_rate", 35.0, "%",
				"compare.json arms[raw-vllm].grade.resolve_pct"));
		assertThat(raw.metric("resolved")).contains(Measurement.of("raw-vllm.resolved", 7, "instances",
				"compare.json arms[raw-vllm].grade.resolved"));
		assertThat(raw.metric("tool_call_counts")).contains(Measurement.of("raw-vllm.tool_call_counts", 1, "calls",
				"compare.json tool_call_probes[raw-vllm].tool_calls (one probe request)"));
		assertThat(raw.metric("latency.agent_sec")).contains(Measurement.of("raw-vllm.latency.agent_sec", 5400.0, "s",
				"compare.json arms[raw-vllm].agent.agent_sec"));
		assertThat(raw.metric("cost_proxy.wall_seconds")).contains(Measurement.of("raw-vllm.cost_proxy.wall_seconds",
				6010.5, "s", "compare.json arms[raw-vllm].agent.agent_sec + grade.grade_sec"));
		assertThat(raw.metric("token_counts.completion_tokens")).contains(Measurement.of(
				"raw-vllm.token_counts.completion_tokens", 42, "tokens",
				"compare.json tool_call_probes[raw-vllm].completion_tokens (one probe request)"));
	}

	@Test
	@DisplayName("absent metrics are pending with the reason, never 0")
	void absentMetricsArePending() {
		ArmMetrics gateway = CompareMetrics.extract(good(), SEED).get(1);

		assertThat(gateway.pending()).extracting(Measurement::name)
				.containsExactly("fak-gateway.safe_completion_rate",
						"fak-gateway.token_counts.prompt_tokens", "fak-gateway.token_counts.total_tokens",
						"fak-gateway.latency.gateway_tax", "fak-gateway.cost_proxy.total_tokens", "fak-gateway.policy_blocks",
						"fak-gateway.evidence_completeness");
		assertThat(gateway.metric("policy_blocks").orElseThrow()).isEqualTo(Measurement.pending("fak-gateway.policy_blocks",
				"policy_blocks of arm fak-gateway is not recorded",
				"record the gateway's deny count per run; raw-vllm records 0 or n/a explicitly"));
	}

	@Test
	@DisplayName("run-level token counts and policy blocks are used when recorded")
	void runLevelCountsWin() {
		JsonNode compare = RunDirFixture.copyGood(temp).compare(c -> {
			agent(c, 1).putObject("token_counts").put("prompt_tokens", 1200).put("completion_tokens", 300).put("total_tokens", 1500);
			agent(c, 1).put("policy_blocks", 3);
		}).compareJson();

		ArmMetrics gateway = CompareMetrics.extract(compare, SEED).get(1);

		assertThat(gateway.metric("token_counts.completion_tokens")).contains(Measurement.of(
				"fak-gateway.token_counts.completion_tokens", 300, "tokens",
				"compare.json arms[fak-gateway].agent.token_counts.completion_tokens"));
		assertThat(gateway.metric("cost_proxy.total_tokens")).contains(Measurement.of("fak-gateway.cost_proxy.total_tokens",
				1500, "tokens", "compare.json arms[fak-gateway].agent.token_counts.total_tokens"));
		assertThat(gateway.metric("policy_blocks")).contains(Measurement.of("fak-gateway.policy_blocks", 3, "blocks",
				"compare.json arms[fak-gateway].agent.policy_blocks"));
	}

	@Test
	@DisplayName("an ungraded arm has no resolve rate, not a zero one")
	void ungradedArmHasNoResolveRate() {
		JsonNode compare = RunDirFixture.copyGood(temp).compare(c -> grade(c, 0).put("available", false)).compareJson();

		assertThat(CompareMetrics.extract(compare, SEED).get(0).metric("pass_rate").orElseThrow())
				.isEqualTo(Measurement.pending("raw-vllm.pass_rate", "the official grade of arm raw-vllm is not available",
						"grade the arm with the official SWE-bench harness (grade.available true)"));
	}

	@Test
	@DisplayName("an arm absent from compare.json is all pending")
	void absentArmIsAllPending() {
		JsonNode compare = RunDirFixture.copyGood(temp)
				.compare(c -> RunDirFixture.array(c, "arms").remove(1))
				.compare(c -> RunDirFixture.array(c, "tool_call_probes").remove(1))
				.compareJson();

		assertThat(CompareMetrics.extract(compare, SEED).get(1).pending()).hasSize(16);
	}

	private JsonNode good() {
		return RunDirFixture.copyGood(temp).compareJson();
	}
}
