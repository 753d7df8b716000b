package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * Every configuration name of the battery, in one place.
 *
 * <p>Each name is usable as {@code -Dname=value} on the Maven command line or as a JUnit
 * configuration parameter. Its type, default (per profile) and one-line doc are in {@link ConfigKeys}, the one
 * registry, and in the table generated from it, {@code docs/configuration.md}; no default is repeated here. {@link HarnessConfig} resolves them; a bad value fails with the
 * name, the value and the fix.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public final class HarnessConstants {

	private HarnessConstants() {
	}

	/** Raw engine base URL, ending in {@code /v1}: {@value}. No default; a serving node must set it. */
	public static final String BASE_URL = "base.url";

	/** URL of an already running gateway under test, ending in {@code /v1}: {@value}. */
	public static final String GATEWAY_URL = "gateway.url";

	/**
	 * Command template that starts the gateway under test: {@value}. Placeholders {@code {port}},
	 * {@code {upstream}}, {@code {model}} and {@code {engine}} (the upstream's dialect: {@code vllm},
	 * {@code sglang}, {@code llamacpp}; the wire kit starts one gateway per dialect).
	 */
	public static final String GATEWAY_CMD = "gateway.cmd";

	/** Served model name the client sends: {@value}. */
	public static final String MODEL = "model";

	/** Checkpoint the engine loaded (for example a Hugging Face id): {@value}. */
	public static final String CHECKPOINT_MODEL = "checkpoint.model";

	/** NAME of the environment variable holding the API key, never the key: {@value}. */
	public static final String API_KEY_ENV = "api.key.env";

	/**
	 * Request headers for the gateway under test, one {@code Name: value} per line: {@value}. Each kit client and load
	 * client sends them to the gateway (never to the engine); {@code gateway.header.NAME} names one header a key ({@code GatewayHeaders#PREFIX}).
	 *
	 * @since 0.10
	 */
	public static final String GATEWAY_HEADERS = "gateway.headers";

	/** Engine dialect: {@value}, one of {@code vllm}, {@code sglang}, {@code llamacpp}. */
	public static final String ENGINE = "engine";

	/**
	 * The engine kind behind the raw engine URL when nothing it answers identifies it (no version from {@code /version},
	 * {@code /get_server_info} or {@code /props}, no engine metric families on {@code /metrics}, no engine
	 * {@code system_fingerprint} on {@code /v1}): {@value}, for example {@code vllm}. Unset, such an engine is
	 * PENDING_MEASUREMENT "unidentified engine" under the profiles that need a real one. A declaration, never an
	 * observation: every artifact shows it as {@code declared} ({@code target.engine.identity}) beside
	 * {@code target.engine.identity_override}; against an engine its answers identified as another kind it is a
	 * misconfiguration naming both.
	 *
	 * @since 0.5
	 */
	public static final String ENGINE_IDENTITY = "engine.identity";

	/** Engine context length in tokens: {@value}. */
	public static final String CONTEXT_LENGTH = "context.length";

	/** Weight precision / quantisation, for example {@code fp8}: {@value}. */
	public static final String QUANT = "quant";

	/** Batching regime disclosed on every row, for example {@code continuous}: {@value}. */
	public static final String BATCHING_REGIME = "batching.regime";

	/** GPU name the node must report (anti-mislabel guard), for example {@code H200}: {@value}. */
	public static final String GPU_NAME_REQUIRED = "gpu.name.required";

	/** Model id the preflight sizes memory for: {@value}. */
	public static final String PREFLIGHT_MODEL = "preflight.model";

	/** Size of {@link #PREFLIGHT_MODEL} in billions of parameters: {@value}. */
	public static final String PREFLIGHT_MODEL_PARAMS_B = "preflight.model.params.b";

	/** KV-cache headroom fraction of the preflight memory rule: {@value}. */
	public static final String PREFLIGHT_KV_OVERHEAD = "preflight.kv.overhead";

	/**
	 * Engines compared head to head, each with its base URL and disclosed precision and batching
	 * regime: {@value}, for example
	 * {@code vllm=http://h:8000/v1,precision=fp8,batching=continuous;sglang=http://h:30000/v1,precision=fp8,batching=continuous}.
	 */
	public static final String ENGINE_COMPARE = "engine.compare";

	/**
	 * Samples per arm in the tax witness: {@value}. Below
	 * {@link dev.fakbattery.core.stats.BootstrapCi#MIN_SAMPLES_PER_ARM} the witness is PENDING_MEASUREMENT.
	 */
	public static final String TAX_COUNT = "tax.count";

	/**
	 * Warm-up conversations per target before the tax witness measures, excluded from every result: {@value}. A JVM
	 * gateway needs a few hundred before its JIT stops moving its latency.
	 */
	public static final String TAX_WARMUP = "tax.warmup";

	/**
	 * Whether rung 3 (the tax witness and the sweeps) runs at the smoke run's sizes under any profile: {@value}. Its
	 * artifacts then say so ({@code provenance.sample_sizes}) and are PENDING_MEASUREMENT outside the smoke profile, so
	 * no gate, baseline or authority draft takes them for a full run.
	 */
	public static final String TAX_SMOKE = "tax.smoke";

	/** Concurrency levels of the sweep, comma separated: {@value}. */
	public static final String SWEEP_CONCURRENCY = "sweep.concurrency";

	/** Most measured requests per arm at the concurrency sweep's A/A level; unset, {@link #SWEEP_REQUESTS}'s. */
	public static final String SWEEP_NOISE_REQUESTS = "sweep.noise.requests";

	/**
	 * The most measured requests per arm at each sweep level, the cap of its sequential stop, never fewer than 6 x the
	 * level (at least 6 batches per arm, the fewest an interval takes): {@value}.
	 */
	public static final String SWEEP_REQUESTS = "sweep.requests";

	/**
	 * Requests in one batch of a sweep level, at least the level (one request per stream): {@value}. Fewer per batch
	 * put the two batches of an ABBA pair closer in time.
	 */
	public static final String SWEEP_BATCH = "sweep.batch";

	/**
	 * The most seconds a sweep warms up before its first level, until the load client's lag is steady: {@value}.
	 *
	 */
	public static final String SWEEP_WARMUP_S = "sweep.warmup.s";

	/**
	 * Sweep levels run at full size whatever the host calibration reads, comma separated, {@code witness} for the tax
	 * witness, or {@code all} (every level, the witness and every rate): {@value}. A forced level also never stops for
	 * futility.
	 */
	public static final String CALIBRATION_FORCE = "calibration.force";

	/**
	 * Rate sweep rates (requests/s) run whatever the host calibration reads, comma separated, or {@code all}: {@value}.
	 *
	 * @since 0.9
	 */
	public static final String CALIBRATION_FORCE_RATES = "calibration.force.rates";

	/**
	 * The half-width of a ratio's interval at which the tax witness and each sweep level stop adding samples: {@value}.
	 */
	public static final String STOP_HALF_WIDTH = "stop.halfwidth";

	/** The most planned looks of the sequential stop (each interval at 1 - 0.05 / looks): {@value}. */
	public static final String STOP_LOOKS = "stop.looks";

	/**
	 * Keep the load client's CPUs from halting while rung 3 measures (a spinner at idle priority on each CPU the
	 * harness JVM may run on): {@value}.
	 */
	public static final String CLIENT_KEEPAWAKE = "client.keepawake";

	/** Folder the artifacts are written to: {@value}. */
	public static final String EXPERIMENTS_DIR = "experiments.dir";

	/** Whether PENDING_MEASUREMENT is reported and allowed instead of failing: {@value}. */
	public static final String ALLOW_PENDING = "allow.pending";

	/** Baseline file of the tax gate: {@value}. */
	public static final String BASELINE_FILE = "baseline.file";

	/** Allowed regression of the tax gate, a fraction of the baseline's latency tax: {@value}. */
	public static final String TAX_TOLERANCE = "tax.tolerance";

	/** vLLM determinism mode token: {@value} (or env {@link #DETERMINISM_ENV}). */
	public static final String DETERMINISM = "determinism";

	/** Environment variable read when {@link #DETERMINISM} is unset: {@value}. */
	public static final String DETERMINISM_ENV = "FAK_VLLM_DETERMINISM";

	/** SWE-bench compare runner executable: {@value}. */
	public static final String SWEBENCH_RUNNER = "swebench.runner";

	/** SWE-bench compare run folder: {@value}. */
	public static final String SWEBENCH_RUN_DIR = "swebench.run.dir";

	/** SWE-bench selection, seed syntax: {@value}. */
	public static final String SELECTION = "selection";

	/** fak binary for the floor commands: {@value}. */
	public static final String FLOORS_BIN = "floors.bin";

	/**
	 * Folder of pre-produced floor artifacts: {@value}. They count as measured only with their own provenance
	 * ({@link PreProduced}); a test fixture is refused.
	 */
	public static final String FLOORS_DIR = "floors.dir";

	/**
	 * Whether a rung may read a test fixture (a folder holding a {@code FIXTURE} file, a JSON file with a
	 * {@code _fixture} field) as its input: {@value}.
	 *
	 * @since 0.5
	 */
	public static final String FIXTURES_ALLOWED = "fixtures.allowed";

	/** Engine container image for the Testcontainers launcher: {@value}. */
	public static final String ENGINE_IMAGE = "engine.image";

	/** Which profile runs: {@value}, one of default, battery, gpu, llamacpp, gate. Set by the Maven profile. */
	public static final String PROFILE = "harness.profile";

	/**
	 * Id of the battery run, the same in every module of one build: {@value}. Set by the build from its start time
	 * ({@link RunContext#RUN_ID_FORMAT}) and a random part, {@code 20261130T201500Z-3fa9c2}, so two builds never share
	 * one; a JVM started without it makes its own. The final gate counts only the artifacts of one run.
	 */
	public static final String RUN_ID = "harness.run.id";

	/** Repository root, set by the build so artifacts paths can be shown relative to it: {@value}. */
	public static final String ROOT_DIR = "harness.root.dir";

	/** SWE-bench agent workers (run budget): {@value}. */
	public static final String SWEBENCH_WORKERS = "swebench.workers";

	/** SWE-bench agent timeout per task in seconds (run budget): {@value}. */
	public static final String SWEBENCH_AGENT_TIMEOUT_SEC = "swebench.agent.timeout.sec";

	/** SWE-bench grading workers (run budget): {@value}. */
	public static final String SWEBENCH_GRADE_WORKERS = "swebench.grade.workers";

	/** SWE-bench grading timeout in seconds (run budget): {@value}. */
	public static final String SWEBENCH_GRADE_TIMEOUT_SEC = "swebench.grade.timeout.sec";

	/** Seconds to wait for a gateway started from {@link #GATEWAY_CMD} to answer its health check: {@value}. */
	public static final String GATEWAY_START_TIMEOUT_SEC = "gateway.start.timeout.sec";

	/**
	 * The HTTP front of the embedded reference gateway: {@value} ({@code jdk}, {@code helidon} or
	 * {@code netty}); a system property, read by the gateway itself when it is built (its
	 * {@code HttpFront.SERVER_PROPERTY}), so the wire and fault kits and the battery can judge any front:
	 * {@code -Dreference.gateway.server=netty}.
	 */
	public static final String REFERENCE_GATEWAY_SERVER = "reference.gateway.server";

	/** Whether the gateway under test emits the kit's adjudication record format: {@value}. */
	public static final String GATEWAY_DECLARES_RECORD = "gateway.declares.record";

	/**
	 * The conformance classes the gateway under test claims (a comma list of {@code relay}, {@code adjudication},
	 * {@code record}, {@code resilience}, {@code clients}): a rule outside them is reported but fails nothing: {@value}.
	 */
	public static final String GATEWAY_CLASSES = "gateway.classes";

	/** Fixed loopback port of the kit's upstream double, so an operator can point a running gateway ({@link #GATEWAY_URL}) at it: {@value}. */
	public static final String KIT_UPSTREAM_PORT = "kit.upstream.port";

	/**
	 * Folder of captured engine answers the wire kit replays besides its own fixtures: {@value}. Every chat answer
	 * under it ({@code NAME.sse}, {@code NAME.json}, {@code curl -si} output {@code NAME.http}, any depth), and every
	 * error answer its {@code NAME.provenance.json} sidecar gives a status, with the engine that sidecar names (or,
	 * without one, the nearest {@code vllm}, {@code sglang} or {@code llamacpp} folder on its path) becomes scenarios:
	 * each captured tool call renamed to {@code allow_}, {@code deny_} and {@code transform_} variants, each judged by
	 * the rules that apply.
	 *
	 * @since 0.2
	 */
	public static final String WIRE_CAPTURES = "wire.captures";

	/**
	 * Folder the opt-in capture step of {@code -Pgpu} writes a live engine's answers to the kit's capture prompts,
	 * with provenance sidecars; the wire rung of the same run replays them: {@value}.
	 *
	 * @since 0.2
	 */
	public static final String WIRE_CAPTURE_DIR = "wire.capture.dir";
	// the raw engine started from a command: read only when engine.cmd is set and base.url is not

	/**
	 * Command template that starts the raw engine when {@link #BASE_URL} is not set: {@value}.
	 * Placeholders {@code {port}} (required: a free loopback port the harness picks) and
	 * {@code {model}} ({@link #MODEL}). Run with {@code /bin/sh -c}, logged to
	 * {@code <experiments.dir>/logs/engine-<port>.log}, healthy when {@code GET /health} (else
	 * {@code GET /v1/models}) answers 200, stopped when the JVM exits; {@link #BASE_URL} then points at
	 * it. For example {@code llama-server -m tiny.gguf --host 127.0.0.1 --port {port} --jinja -a {model}}.
	 */
	public static final String ENGINE_CMD = "engine.cmd";

	/** Seconds an {@link #ENGINE_CMD} engine may take to answer its health check: {@value}. */
	public static final String ENGINE_CMD_TIMEOUT_SEC = "engine.cmd.timeout.sec";

	/**
	 * The {@code llama-server} binary the {@code llamacpp} profile runs: {@value}; unset, {@code llama-server} on
	 * {@code PATH}, else the one {@code tools/llamacpp/build-llama-server.sh} builds into its cache.
	 */
	public static final String LLAMACPP_SERVER = "llamacpp.server";

	/**
	 * The llama.cpp source folder the {@code llamacpp} profile takes the vocabulary ({@code models/ggml-vocab-qwen2.gguf})
	 * and chat template ({@code models/templates/}) of its tiny model from: {@value}; unset, the one
	 * {@code tools/llamacpp/build-llama-server.sh} unpacks into its cache.
	 */
	public static final String LLAMACPP_SOURCE = "llamacpp.source";

	/**
	 * Words put before each gateway JVM's command by the gateway cost bench ({@code GatewayCostBench}), split at
	 * spaces: {@value}. Example {@code taskset -c 1}, so that on a 2-core machine the gateways have a core of their own
	 * while the bench runs under {@code taskset -c 0}.
	 */
	public static final String COST_GATEWAY_PREFIX = "cost.gateway.prefix";

	/**
	 * Words put before the engine double's JVM command by the gateway cost bench, split at spaces: {@value}. With
	 * {@link #COST_GATEWAY_PREFIX} the same {@code taskset -c 1} and the bench under {@code taskset -c 0}, the load
	 * client has a core to itself and the serving side (engine and gateway) the other, as on a serving node: the
	 * placement in which the client's lag stayed within its limit on 2 cores.
	 */
	public static final String COST_ENGINE_PREFIX = "cost.engine.prefix";

	/**
	 * Warm-up batches of 1,000 requests per target before the gateway cost bench measures: {@value}.
	 */
	public static final String COST_WARMUP_BATCHES = "cost.warmup.batches";

	/**
	 * Measured rounds of the gateway cost bench: {@value}. Each round is one ABBA or BAAB block per gateway server, so
	 * each server gets two raw/gateway batch pairs per round.
	 */
	public static final String COST_ROUNDS = "cost.rounds";

	/**
	 * The gateway servers the gateway cost bench measures, comma-separated: {@value}, among every HTTP front
	 * ({@code jdk}, {@code helidon}, {@code netty}), {@code jdk-zgc}, {@code netty-floor} (a bare proxy, no gateway:
	 * the least one costs on the machine) and {@code cmd} (any gateway or proxy started from {@link #GATEWAY_CMD}, e.g.
	 * {@code tools/nginx-floor/nginx-floor.sh {port} {upstream}}); e.g. {@code jdk,netty-floor} for a long run of one
	 * front beside the floor.
	 */
	public static final String COST_SERVERS = "cost.servers";

	// the engine container launcher: read only when engine.image is set

	/**
	 * Tool-call parser the engine container starts with ({@code --tool-call-parser}): {@value}.
	 *
	 */
	public static final String ENGINE_TOOL_PARSER = "engine.tool.parser";

	/** Tensor-parallel size of the engine container ({@code --tensor-parallel-size} for vLLM, {@code --tp-size} for SGLang): {@value}. */
	public static final String ENGINE_TP = "engine.tp";

	/** Seconds to wait for the engine container's {@code /health} to answer 200 after it started (model loading is slow; the image pull is not counted): {@value}. */
	public static final String ENGINE_STARTUP_TIMEOUT_SEC = "engine.startup.timeout.sec";

	/**
	 * Seconds a pull of the engine image (or Testcontainers' reaper image) may take when it is not on the Docker engine
	 * yet; a pull that fails or takes longer fails the engine's start, naming the image and the cause: {@value}.
	 */
	public static final String ENGINE_PULL_TIMEOUT_SEC = "engine.pull.timeout.sec";

	/**
	 * CPUs the engine container may run on, a Docker cpuset ({@code --cpuset-cpus}: {@code 1}, {@code 2-7},
	 * {@code 0,2}): {@value}. Unset: every CPU of the Docker host.
	 */
	public static final String ENGINE_CPUSET = "engine.cpuset";

	/**
	 * NAME of the environment variable holding the Hugging Face token, never the token: {@value}.
	 * Its value reaches the engine container as {@code HF_TOKEN} and nothing else.
	 */
	public static final String ENGINE_HF_TOKEN_ENV = "engine.hf.token.env";

	// workloads and load shapes of the tax witness, the sweeps and the load benches

	/**
	 * What the load rungs send: {@value}, one of {@code fixed} (fak's counting prompt, {@code max_tokens}
	 * 64), {@code random}, {@code sharegpt}, {@code prefix}, {@code agentic}. Recorded with its parameters and seed in
	 * every artifact.
	 *
	 * @since 0.3
	 */
	public static final String WORKLOAD = "workload";

	/** Seed of the workload's lengths, words and order: {@value}. @since 0.3 */
	public static final String WORKLOAD_SEED = "workload.seed";

	/** Mean prompt length in tokens of the {@code random} workload: {@value}. @since 0.3 */
	public static final String INPUT_LEN = "input.len";

	/** Mean {@code max_tokens} of the {@code random}, {@code prefix} and {@code agentic} workloads: {@value}. @since 0.3 */
	public static final String OUTPUT_LEN = "output.len";

	/** Spread of the {@code random} workload's lengths, in [0, 1): {@value}. @since 0.3 */
	public static final String RANGE_RATIO = "range.ratio";

	/** Whether {@code random} requests carry {@code ignore_eos: true}: {@value}. @since 0.3 */
	public static final String IGNORE_EOS = "ignore.eos";

	/** The ShareGPT-format JSON file of the {@code sharegpt} workload, never downloaded: {@value}. @since 0.3 */
	public static final String DATASET_PATH = "dataset.path";

	/** Distinct shared prefixes of the {@code prefix} workload: {@value}. @since 0.3 */
	public static final String PREFIX_COUNT = "prefix.count";

	/** Length in tokens of each shared prefix: {@value}. @since 0.3 */
	public static final String PREFIX_LEN = "prefix.len";

	/** Length in tokens of each request's unique suffix after its prefix: {@value}. @since 0.3 */
	public static final String PREFIX_SUFFIX_LEN = "prefix.suffix.len";

	/** Rounds of tool calls per conversation of the {@code agentic} workload: {@value}. @since 0.3 */
	public static final String AGENTIC_TURNS = "agentic.turns";

	/** Share of the {@code agentic} workload's tool results that carry the kit's injection marker: {@value}. @since 0.3 */
	public static final String AGENTIC_INJECTION_SHARE = "agentic.injection.share";

	/**
	 * Offered request rates of the rate sweep, requests per second, comma separated: {@value}.
	 *
	 * @since 0.3
	 */
	public static final String RATE_SWEEP = "rate.sweep";

	/** Gamma shape of the open loop's inter-arrival times: {@value}. @since 0.3 */
	public static final String BURSTINESS = "burstiness";

	/** Seconds of arrivals in one batch of a rate sweep level, each batch drained before the next: {@value}. @since 0.7 */
	public static final String RATE_BATCH_SECONDS = "rate.batch.seconds";

	/** Most requests in flight in the open loop: {@value}. @since 0.3 */
	public static final String MAX_CONCURRENCY = "max.concurrency";

	/** TTFT objective of goodput, ms: {@value}. @since 0.3 */
	public static final String SLO_TTFT_MS = "slo.ttft.ms";

	/** TPOT objective of goodput, ms: {@value}. @since 0.3 */
	public static final String SLO_TPOT_MS = "slo.tpot.ms";

	/** E2EL objective of goodput, ms: {@value}. @since 0.3 */
	public static final String SLO_E2EL_MS = "slo.e2el.ms";

	/** Share of requests that must meet every SLO for a rate to count as met: {@value}. @since 0.3 */
	public static final String SLO_ATTAINMENT = "slo.attainment";
	// the report and the comparison of runs: read by the build's report steps, not by rungs

	/**
	 * Folder that keeps the history of one experiments folder across battery runs (run index, archived artifacts,
	 * Allure history for Trend, ratios across runs): {@value}; unset, {@code <experiments.dir>/../history/<name of
	 * experiments.dir>}, which {@code -Pbattery} does not empty.
	 */
	public static final String HISTORY_DIR = "history.dir";

	/**
	 * The earlier run of {@code -Pcompare}: {@value}, an experiments folder or an archived run
	 * ({@code experiments/history/embedded/runs/RUN_ID}).
	 */
	public static final String COMPARE_BASE = "compare.base";

	/** The later run of {@code -Pcompare}: {@value}. */
	public static final String COMPARE_HEAD = "compare.head";

	/** Where {@code -Pcompare} writes compare.md, compare.json and compare.png: {@value}. */
	public static final String COMPARE_OUT = "compare.out";

	/** Chromium binary of the {@code -Pbrowser} report check: {@value}. */
	public static final String REPORT_CHROMIUM = "report.chromium";

	/** ChromeDriver of the {@code -Pbrowser} report check: {@value}. */
	public static final String REPORT_CHROMEDRIVER = "report.chromedriver";
	/**
	 * The gateway under test's documented upstream timeout in milliseconds, which fault rule F02 holds it to: {@value}.
	 * Give it with the other three {@code gateway.max.*} limits for a gateway that does not declare its limits (the
	 * reference gateway does); without them the limit rules F02, F04, F06, F07 are PENDING_MEASUREMENT naming these
	 * names (failing the build under {@code -Pgpu}).
	 */
	public static final String GATEWAY_UPSTREAM_TIMEOUT_MS = "gateway.upstream.timeout.ms";

	/** The gateway under test's documented request body limit in bytes (413 above it; fault rule F06): {@value}. */
	public static final String GATEWAY_MAX_BODY_BYTES = "gateway.max.body.bytes";

	/** The gateway under test's documented request header limit in bytes (431 above it; fault rule F07): {@value}. */
	public static final String GATEWAY_MAX_HEADER_BYTES = "gateway.max.header.bytes";

	/** The gateway under test's documented longest upstream line, event or answer in bytes (fault rule F04): {@value}. */
	public static final String GATEWAY_MAX_EVENT_BYTES = "gateway.max.event.bytes";

	/** Concurrent streams of the soak ({@code -Psoak}): {@value}. */
	public static final String SOAK_STREAMS = "soak.streams";

	/** How long the soak runs, in seconds: {@value}. */
	public static final String SOAK_DURATION_SEC = "soak.duration.sec";

	/** Seconds between two samples of heap after GC, threads and open file descriptors in the soak: {@value}. */
	public static final String SOAK_SAMPLE_SEC = "soak.sample.sec";
}
