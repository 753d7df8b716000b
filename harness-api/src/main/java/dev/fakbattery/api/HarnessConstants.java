package dev.fakbattery.api;

/**
 * Every configuration name of the battery, in one place.
 *
 * <p>Each name is usable as {@code -Dname=value} on the Maven command line or as a JUnit
 * configuration parameter. {@link HarnessConfig} resolves them; a bad value fails with the
 * name, the value and the fix.
 *
 * @since 0.1
 */
public final class HarnessConstants {

	private HarnessConstants() {
	}

	/** Raw engine base URL, ending in {@code /v1}: {@value}. No default; a serving node must set it. */
	public static final String BASE_URL = "base.url";

	/** URL of an already running gateway under test, ending in {@code /v1}: {@value}. */
	public static final String GATEWAY_URL = "gateway.url";

	/**
	 * Command template that starts the gateway under test: {@value}. Placeholders {@code {port}},
	 * {@code {upstream}} and {@code {model}}.
	 */
	public static final String GATEWAY_CMD = "gateway.cmd";

	/** Served model name the client sends: {@value}. */
	public static final String MODEL = "model";

	/** Checkpoint the engine loaded (for example a Hugging Face id): {@value}. Defaults to {@link #MODEL}. */
	public static final String CHECKPOINT_MODEL = "checkpoint.model";

	/** NAME of the environment variable holding the API key, never the key: {@value}. */
	public static final String API_KEY_ENV = "api.key.env";

	/** Engine dialect: {@value}, one of {@code vllm}, {@code sglang}. Default {@code vllm}. */
	public static final String ENGINE = "engine";

	/** Engine context length in tokens: {@value}. Default 131072 (the seed's). */
	public static final String CONTEXT_LENGTH = "context.length";

	/** Weight precision / quantisation, for example {@code fp8}: {@value}. Default {@code fp8}. */
	public static final String QUANT = "quant";

	/** Batching regime disclosed on every row, for example {@code continuous}: {@value}. */
	public static final String BATCHING_REGIME = "batching.regime";

	/** GPU name the node must report (anti-mislabel guard), for example {@code H200}: {@value}. */
	public static final String GPU_NAME_REQUIRED = "gpu.name.required";

	/** Model id the preflight sizes memory for: {@value}. Default {@code zai-org/GLM-5.2}. */
	public static final String PREFLIGHT_MODEL = "preflight.model";

	/** Size of {@link #PREFLIGHT_MODEL} in billions of parameters: {@value}. Default 753. */
	public static final String PREFLIGHT_MODEL_PARAMS_B = "preflight.model.params.b";

	/** KV-cache headroom fraction of the preflight memory rule: {@value}. Default 0.15. */
	public static final String PREFLIGHT_KV_OVERHEAD = "preflight.kv.overhead";

	/**
	 * Engines compared head to head, each with its base URL and disclosed precision and batching
	 * regime: {@value}, for example
	 * {@code vllm=http://h:8000/v1,precision=fp8,batching=continuous;sglang=http://h:30000/v1,precision=fp8,batching=continuous}.
	 */
	public static final String ENGINE_COMPARE = "engine.compare";

	/** Samples per leg in the tax witness: {@value}. Default 8, like the seed. */
	public static final String TAX_COUNT = "tax.count";

	/** Concurrency levels of the sweep, comma separated: {@value}. Default {@code 1,8,64,128}. */
	public static final String SWEEP_CONCURRENCY = "sweep.concurrency";

	/** Folder the artifacts are written to: {@value}. */
	public static final String EXPERIMENTS_DIR = "experiments.dir";

	/** Whether PENDING_MEASUREMENT is reported and allowed instead of failing: {@value}. */
	public static final String ALLOW_PENDING = "allow.pending";

	/** Baseline file of the tax gate: {@value}. */
	public static final String BASELINE_FILE = "baseline.file";

	/** vLLM determinism mode token: {@value} (or env {@link #DETERMINISM_ENV}). */
	public static final String DETERMINISM = "determinism";

	/** Environment variable read when {@link #DETERMINISM} is unset: {@value}. */
	public static final String DETERMINISM_ENV = "FAK_VLLM_DETERMINISM";

	/** SWE-bench compare runner executable: {@value}. */
	public static final String SWEBENCH_RUNNER = "swebench.runner";

	/** SWE-bench compare run folder: {@value}. */
	public static final String SWEBENCH_RUN_DIR = "swebench.run.dir";

	/** SWE-bench selection, seed syntax: {@value}. Default {@code slice 0:20}. */
	public static final String SELECTION = "selection";

	/** fak binary for the floor commands: {@value}. */
	public static final String FLOORS_BIN = "floors.bin";

	/** Folder of pre-produced floor artifacts: {@value}. */
	public static final String FLOORS_DIR = "floors.dir";

	/** Engine container image for the Testcontainers launcher: {@value}. */
	public static final String ENGINE_IMAGE = "engine.image";

	/** Which profile runs: {@value}, one of default, battery, gpu, gate. Set by the Maven profile. */
	public static final String PROFILE = "harness.profile";

	/** Repository root, set by the build so artifacts paths can be shown relative to it: {@value}. */
	public static final String ROOT_DIR = "harness.root.dir";

	/** SWE-bench agent workers (run budget): {@value}. Default 1. */
	public static final String SWEBENCH_WORKERS = "swebench.workers";

	/** SWE-bench agent timeout per task in seconds (run budget): {@value}. Default 3600. */
	public static final String SWEBENCH_AGENT_TIMEOUT_SEC = "swebench.agent.timeout.sec";

	/** SWE-bench grading workers (run budget): {@value}. Default 2. */
	public static final String SWEBENCH_GRADE_WORKERS = "swebench.grade.workers";

	/** SWE-bench grading timeout in seconds (run budget): {@value}. Default 2400. */
	public static final String SWEBENCH_GRADE_TIMEOUT_SEC = "swebench.grade.timeout.sec";

	/** Seconds to wait for a gateway started from {@link #GATEWAY_CMD} to answer its health check: {@value}. Default 45 (the seed's). */
	public static final String GATEWAY_START_TIMEOUT_SEC = "gateway.start.timeout.sec";

	/** Whether the gateway under test emits the kit's adjudication record format: {@value}. Default false (the reference gateway always does). */
	public static final String GATEWAY_DECLARES_RECORD = "gateway.declares.record";

	/** Fixed loopback port of the kit's upstream double, so an operator can point a running gateway ({@link #GATEWAY_URL}) at it: {@value}. Default 0 (any free port). */
	public static final String KIT_UPSTREAM_PORT = "kit.upstream.port";

	// the engine container launcher: read only when engine.image is set

	/**
	 * Tool-call parser the engine container starts with ({@code --tool-call-parser}): {@value}.
	 * Default {@code hermes} for vLLM, {@code qwen25} for SGLang; the names are not portable
	 * between the two engines.
	 */
	public static final String ENGINE_TOOL_PARSER = "engine.tool.parser";

	/** Tensor-parallel size of the engine container ({@code --tensor-parallel-size} for vLLM, {@code --tp-size} for SGLang): {@value}. Default 1. */
	public static final String ENGINE_TP = "engine.tp";

	/** Seconds to wait for the engine container's {@code /health} to answer 200 after it started (model loading is slow; the image pull is not counted): {@value}. Default 1800. */
	public static final String ENGINE_STARTUP_TIMEOUT_SEC = "engine.startup.timeout.sec";

	/**
	 * NAME of the environment variable holding the Hugging Face token, never the token: {@value}.
	 * Its value reaches the engine container as {@code HF_TOKEN} and nothing else. Default none
	 * (public checkpoints).
	 */
	public static final String ENGINE_HF_TOKEN_ENV = "engine.hf.token.env";

	/**
	 * The gateway under test's documented upstream timeout in milliseconds, which fault rule F02 holds it to: {@value}.
	 * Give it with the other three {@code gateway.max.*} limits for a gateway that does not declare its limits (the
	 * reference gateway does); without them the limit rules are skipped naming these names.
	 */
	public static final String GATEWAY_UPSTREAM_TIMEOUT_MS = "gateway.upstream.timeout.ms";

	/** The gateway under test's documented request body limit in bytes (413 above it; fault rule F06): {@value}. */
	public static final String GATEWAY_MAX_BODY_BYTES = "gateway.max.body.bytes";

	/** The gateway under test's documented request header limit in bytes (431 above it; fault rule F07): {@value}. */
	public static final String GATEWAY_MAX_HEADER_BYTES = "gateway.max.header.bytes";

	/** The gateway under test's documented longest upstream line, event or answer in bytes (fault rule F04): {@value}. */
	public static final String GATEWAY_MAX_EVENT_BYTES = "gateway.max.event.bytes";

	/** Concurrent streams of the soak ({@code -Psoak}): {@value}. Default 256. */
	public static final String SOAK_STREAMS = "soak.streams";

	/** How long the soak runs, in seconds: {@value}. Default 600. */
	public static final String SOAK_DURATION_SEC = "soak.duration.sec";

	/** Seconds between two samples of heap after GC, threads and open file descriptors in the soak: {@value}. Default 10. */
	public static final String SOAK_SAMPLE_SEC = "soak.sample.sec";
}
