package dev.fakbattery.bench.preflight;

import static dev.fakbattery.bench.preflight.PreflightFixtures.VLLM_MISSING;
import static dev.fakbattery.bench.preflight.PreflightFixtures.VLLM_PRESENT;
import static dev.fakbattery.bench.preflight.PreflightFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fakbattery.core.Check;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Preflight acceptance checks and the GPU-name guard")
class PreflightChecksTests {

	private final PreflightConfig h200Required = PreflightConfig.defaults().withRequiredGpuName("H200");

	@Test
	@DisplayName("a READY H200 node passes every check, the guard included")
	void readyH200NodePasses() {
		PreflightReport report = run(h200Required, "nvidia-smi-8xH200.csv", VLLM_PRESENT);

		assertThat(PreflightChecks.of(report, "vllm")).containsExactly(
				new Check("node_verdict", true, "READY or READY_PENDING_INSTALL", "READY"),
				new Check("engine_ready", true, "vllm row ready with quant fp8", "vllm READY with quant fp8"),
				new Check("gpu_name_guard", true, "every GPU name contains \"H200\"", "8 x NVIDIA H200"));
	}

	@Test
	@DisplayName("READY_PENDING_INSTALL is accepted, as in fak's battery")
	void pendingInstallIsAccepted() {
		PreflightReport report = run(PreflightConfig.defaults(), "nvidia-smi-8xH200.csv", VLLM_MISSING);

		assertThat(PreflightChecks.of(report, "vllm")).allMatch(Check::passed).hasSize(2);
	}

	@Test
	@DisplayName("without nvidia-smi the node checks are unmeasurable, naming why; with it, even blocked, they are measured")
	void noNvidiaSmiIsUnmeasurable() {
		PreflightReport cpu = run(PreflightConfig.defaults(), null, VLLM_PRESENT);
		assertThat(PreflightChecks.unmeasurable(cpu, "vllm")).contains("nvidia-smi is not installed here ("
				+ cpu.nvidiaSmi().detail() + "): the node verdict and the vllm row need the GPUs it reports");
		assertThat(PreflightChecks.unmeasurable(run(PreflightConfig.defaults(), "nvidia-smi-8xA100.csv", VLLM_PRESENT), "vllm")).isEmpty();
	}

	@Test
	@DisplayName("a blocked node fails node_verdict and engine_ready")
	void blockedNodeFails() {
		PreflightReport report = run(PreflightConfig.defaults(), "nvidia-smi-8xA100.csv", VLLM_PRESENT);

		assertThat(PreflightChecks.of(report, "vllm")).containsExactly(
				new Check("node_verdict", false, "READY or READY_PENDING_INSTALL", "BLOCKED_ARCH"),
				new Check("engine_ready", false, "vllm row ready with quant fp8", "vllm BLOCKED_ARCH with quant fp8"));
	}

	@Test
	@DisplayName("an engine that was not evaluated fails engine_ready")
	void missingEngineRowFails() {
		PreflightReport report = run(PreflightConfig.defaults(), "nvidia-smi-8xH200.csv", VLLM_PRESENT);

		assertThat(PreflightChecks.of(report, "sglang").get(1))
				.isEqualTo(new Check("engine_ready", false, "sglang row ready with quant fp8", "no sglang row"));
	}

	@Test
	@DisplayName("an A100 node labelled H200 fails the guard, naming expected and observed")
	void mislabelledNodeFailsTheGuard() {
		PreflightReport report = run(h200Required, "nvidia-smi-8xA100.csv", VLLM_PRESENT);

		Check guard = report.gpuNameGuard().orElseThrow();
		assertThat(guard.status()).isEqualTo("FAIL");
		assertThat(guard.describe())
				.isEqualTo("check gpu_name_guard: expected every GPU name contains \"H200\", observed 8 x NVIDIA A100-SXM4-80GB");
	}

	@Test
	@DisplayName("an H100 node passes the verdict but fails an H200 guard")
	void guardIsIndependentOfTheVerdict() {
		String smi = "0, NVIDIA H100 80GB HBM3, 81559, 9.0\n".repeat(12);
		PreflightReport report = PreflightEvaluator.run(h200Required, PreflightFixtures.probes(smi, VLLM_PRESENT),
				PreflightFixtures.CLOCK);

		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.READY);
		assertThat(PreflightChecks.of(report, "vllm")).filteredOn(c -> !c.passed())
				.containsExactly(
						new Check("gpu_name_guard", false, "every GPU name contains \"H200\"", "12 x NVIDIA H100 80GB HBM3"));
	}

	@Test
	@DisplayName("one foreign card among H200s fails the guard")
	void mixedNodeFailsTheGuard() {
		String smi = "0, NVIDIA H200, 143771, 9.0\n1, NVIDIA H100 80GB HBM3, 81559, 9.0\n";
		PreflightReport report = PreflightEvaluator.run(h200Required, PreflightFixtures.probes(smi, VLLM_PRESENT),
				PreflightFixtures.CLOCK);

		assertThat(report.gpuNameGuard().orElseThrow().observed()).isEqualTo("1 x NVIDIA H200, 1 x NVIDIA H100 80GB HBM3");
		assertThat(report.gpuNameGuard().orElseThrow().passed()).isFalse();
	}

	@Test
	@DisplayName("without GPUs the guard fails: the label cannot be confirmed")
	void noGpuFailsTheGuard() {
		PreflightReport report = run(h200Required, null, VLLM_PRESENT);

		assertThat(report.gpuNameGuard().orElseThrow()).isEqualTo(new Check("gpu_name_guard", false,
				"every GPU name contains \"H200\"", "no GPU reported (nvidia-smi UNAVAILABLE: nvidia-smi not found)"));
	}

	@Test
	@DisplayName("the guard is written to the report only when configured")
	void guardIsSerialisedOnlyWhenConfigured() {
		assertThat(run(h200Required, "nvidia-smi-8xA100.csv", VLLM_PRESENT).toJson().path("gpu_name_guard").toString())
				.isEqualTo("{\"required\":\"H200\",\"status\":\"FAIL\",\"expected\":\"every GPU name contains \\\"H200\\\"\","
						+ "\"observed\":\"8 x NVIDIA A100-SXM4-80GB\"}");
		assertThat(run(PreflightConfig.defaults(), "nvidia-smi-8xA100.csv", VLLM_PRESENT).toJson().has("gpu_name_guard"))
				.isFalse();
	}
}
