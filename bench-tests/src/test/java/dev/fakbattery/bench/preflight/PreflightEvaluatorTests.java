package dev.fakbattery.bench.preflight;

import static dev.fakbattery.bench.preflight.PreflightFixtures.VLLM_MISSING;
import static dev.fakbattery.bench.preflight.PreflightFixtures.VLLM_PRESENT;
import static dev.fakbattery.bench.preflight.PreflightFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.process.CommandResult;
import dev.fakbattery.core.process.CommandRunner;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Preflight verdicts on recorded nvidia-smi outputs")
class PreflightEvaluatorTests {

	private final PreflightConfig glm52 = PreflightConfig.defaults();

	@Test
	@DisplayName("8 x H200 with vLLM installed is READY for a 753B fp8 model")
	void h200NodeWithVllmIsReady() {
		PreflightReport report = run(glm52, "nvidia-smi-8xH200.csv", VLLM_PRESENT);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.READY);
		assertThat(vllm.requiredVramGb()).isEqualTo(865.9);
		assertThat(vllm.totalVramGb()).isEqualTo(1123.2);
		assertThat(vllm.requiredPerGpuVramGb()).isEqualTo(115.2);
		assertThat(vllm.perGpuVramGb()).isEqualTo(140.4);
		assertThat(vllm.engineVersion()).isEqualTo("0.11.0");
		assertThat(vllm.notes()).containsExactly("vllm 0.11.0 present; arch and memory OK for fp8.");
		assertThat(report.node().computeCap()).isEqualTo(9.0);
		assertThat(report.node().computeCapSource()).isEqualTo("nvidia-smi");
		assertThat(report.node().arch()).isEqualTo("Hopper (sm_90)");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.READY);
		assertThat(report.recommendedQuant()).contains("fp8");
	}

	@Test
	@DisplayName("8 x A100 is BLOCKED_ARCH: Ampere is below the DSA floor 9.0")
	void a100NodeIsBlockedByArch() {
		PreflightReport report = run(glm52, "nvidia-smi-8xA100.csv", VLLM_PRESENT);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
		assertThat(vllm.archOk()).isFalse();
		assertThat(vllm.notes()).containsExactly("Ampere (sm_80/86) (cc 8.0) is below the DSA kernel floor cc 9.0; "
				+ "stock vLLM/SGLang cannot serve this model here. Target Hopper (H100/H200) or Blackwell (B200/B300/GB200/GB300).");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
	}

	@Test
	@DisplayName("2 x H100 is BLOCKED_MEMORY: 159.3 GB total against 865.9 GB required")
	void twoH100sAreBlockedByMemory() {
		PreflightReport report = run(glm52, "nvidia-smi-2xH100.csv", VLLM_PRESENT);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.BLOCKED_MEMORY);
		assertThat(vllm.archOk()).isTrue();
		assertThat(vllm.memoryOk()).isFalse();
		assertThat(vllm.totalVramGb()).isEqualTo(159.3);
		assertThat(vllm.recommendedQuant()).isEmpty();
		assertThat(vllm.notes()).containsExactly("fp8 needs 865.9 GB but the node has 159.3 GB; no known quant fits: add GPUs.");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_MEMORY);
	}

	@Test
	@DisplayName("11 x H100 clears the total but not the per-GPU shard: BLOCKED_MEMORY")
	void perGpuShardThatDoesNotFitBlocksByMemory() {
		String smi = "0, NVIDIA H100 80GB HBM3, 81559, 9.0\n".repeat(11);
		PreflightReport report = PreflightEvaluator.run(glm52, PreflightFixtures.probes(smi, VLLM_PRESENT),
				PreflightFixtures.CLOCK);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.totalVramGb()).isEqualTo(876.1);
		assertThat(vllm.requiredPerGpuVramGb()).isEqualTo(85.7);
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.BLOCKED_MEMORY);
		assertThat(vllm.notes()).containsExactly("total VRAM fits but the per-GPU shard needs 85.7 GB (incl. 7 GB "
				+ "per-rank reserve) and the smallest card has 79.6 GB: it would run out of memory at load.");
	}

	@Test
	@DisplayName("without nvidia-smi the node is BLOCKED_ARCH and nvidia-smi is UNAVAILABLE")
	void missingNvidiaSmiBlocksByArch() {
		PreflightReport report = run(glm52, null, VLLM_PRESENT);

		assertThat(report.nvidiaSmi().status()).isEqualTo(SmiStatus.UNAVAILABLE);
		assertThat(report.nvidiaSmi().detail()).isEqualTo("nvidia-smi not found");
		assertThat(report.node().computeCap()).isNull();
		assertThat(report.node().arch()).isEqualTo("unknown");
		assertThat(report.engine("vllm").orElseThrow().verdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
	}

	@Test
	@DisplayName("8 x H200 without vLLM is READY_PENDING_INSTALL")
	void missingVllmIsPendingInstall() {
		PreflightReport report = run(glm52, "nvidia-smi-8xH200.csv", VLLM_MISSING);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.READY_PENDING_INSTALL);
		assertThat(vllm.ready()).isTrue();
		assertThat(report.engineProbes().get("vllm").detail()).endsWith("ModuleNotFoundError: No module named 'vllm'");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.READY_PENDING_INSTALL);
	}

	@Test
	@DisplayName("nvfp4 on H200 is BLOCKED_QUANT_ARCH and recommends fp8")
	void nvfp4OnHopperIsBlockedByQuantArch() {
		PreflightReport report = run(glm52.withQuant("nvfp4"), "nvidia-smi-8xH200.csv", VLLM_PRESENT);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.BLOCKED_QUANT_ARCH);
		assertThat(vllm.requiredVramGb()).isEqualTo(433.0);
		assertThat(vllm.notes()).containsExactly("nvfp4 needs compute capability 10.0; Hopper (sm_90) cannot run it: use quant fp8.");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_QUANT_ARCH);
	}

	@Test
	@DisplayName("nvfp4 on B200 is READY")
	void nvfp4OnBlackwellIsReady() {
		PreflightReport report = run(glm52.withQuant("nvfp4"), "nvidia-smi-8xB200.csv", VLLM_PRESENT);

		assertThat(report.node().arch()).isEqualTo("Blackwell (sm_100)");
		assertThat(report.engine("vllm").orElseThrow().verdict()).isEqualTo(EngineVerdict.READY);
	}

	@Test
	@DisplayName("an older driver without compute_cap falls back to the name map")
	void fallbackQueryUsesTheNameMap() {
		String threeColumns = PreflightFixtures.resource("nvidia-smi-8xH200-no-compute-cap.csv");
		CommandRunner runner = argv -> {
			if (argv.equals(NvidiaSmi.QUERY_COMMAND)) {
				return new CommandResult(2, "",
						"Field \"compute_cap\" is not a valid field to query.\n");
			}
			if (argv.equals(NvidiaSmi.FALLBACK_COMMAND)) {
				return new CommandResult(0, threeColumns, "");
			}
			return VLLM_PRESENT;
		};
		PreflightReport report = PreflightEvaluator.run(glm52,
				new SystemPreflightProbes(runner, HttpClient.newHttpClient(), "python",
						Duration.ofSeconds(1)),
				PreflightFixtures.CLOCK);

		assertThat(report.nvidiaSmi().gpus()).hasSize(8).allSatisfy(g -> assertThat(g.computeCap()).isEmpty());
		assertThat(report.node().computeCap()).isEqualTo(9.0);
		assertThat(report.node().computeCapSource()).isEqualTo("name-map");
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.READY);
	}

	@Test
	@DisplayName("a node with one GPU of unknown capability fails closed")
	void oneUnknownGpuMakesTheNodeUnknown() {
		String smi = "0, NVIDIA H200, 143771, 9.0\n1, Mystery Accelerator, 143771, N/A\n";
		PreflightReport report = PreflightEvaluator.run(glm52, PreflightFixtures.probes(smi, VLLM_PRESENT),
				PreflightFixtures.CLOCK);

		assertThat(report.node().computeCap()).isNull();
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.BLOCKED_ARCH);
	}

	@Test
	@DisplayName("the model size is configurable: a 70B fp8 model is READY on 2 x H100")
	void modelSizeIsConfigurable() {
		PreflightReport report = run(glm52.withModel("example/70b", 70), "nvidia-smi-2xH100.csv", VLLM_PRESENT);

		EngineEvaluation vllm = report.engine("vllm").orElseThrow();
		assertThat(vllm.requiredVramGb()).isEqualTo(80.5);
		assertThat(vllm.requiredPerGpuVramGb()).isEqualTo(47.2);
		assertThat(vllm.verdict()).isEqualTo(EngineVerdict.READY);
	}

	@Test
	@DisplayName("the node verdict is READY when one engine is READY and another is pending")
	void nodeVerdictPrefersReady() {
		PreflightConfig both = glm52.withEngines(List.of("sglang", "vllm"));
		CommandRunner runner = argv -> argv.get(0).equals("nvidia-smi")
				? new CommandResult(0, PreflightFixtures.resource("nvidia-smi-8xH200.csv"), "")
				: argv.get(2).contains("import vllm") ? VLLM_PRESENT : VLLM_MISSING;
		PreflightReport report = PreflightEvaluator.run(both, new SystemPreflightProbes(runner,
				HttpClient.newHttpClient(), "python", Duration.ofSeconds(1)), PreflightFixtures.CLOCK);

		assertThat(report.engine("sglang").orElseThrow().verdict()).isEqualTo(EngineVerdict.READY_PENDING_INSTALL);
		assertThat(report.nodeVerdict()).isEqualTo(EngineVerdict.READY);
		assertThat(report.readyEngines()).containsExactly("sglang", "vllm");
		assertThat(report.gpuNameGuard()).isEqualTo(Optional.empty());
	}
}
