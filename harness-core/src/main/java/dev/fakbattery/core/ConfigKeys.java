package dev.fakbattery.core;

import static dev.fakbattery.core.ConfigKey.boolKey;
import static dev.fakbattery.core.ConfigKey.decimalKey;
import static dev.fakbattery.core.ConfigKey.decimalsKey;
import static dev.fakbattery.core.ConfigKey.intKey;
import static dev.fakbattery.core.ConfigKey.intsKey;
import static dev.fakbattery.core.ConfigKey.nonNegativeIntKey;
import static dev.fakbattery.core.ConfigKey.pathKey;
import static dev.fakbattery.core.ConfigKey.stringKey;
import static dev.fakbattery.core.ConfigKey.v1UrlKey;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.fakbattery.core.stats.BootstrapCi;

import org.apiguardian.api.API;

/**
 * The one registry of configuration keys: each key once, with its type, its default (per {@link Profile} where a
 * profile changes it) and a one-line doc. The names are {@link HarnessConstants}'; the defaults live only here, read
 * with {@link HarnessConfig#get(ConfigKey)}; {@code docs/configuration.md} is generated from this class
 * ({@link ConfigDocs}), and {@link #checkSpelling(Collection)} turns a {@code -D} name one edit away from a key into a
 * misconfiguration.
 *
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ConfigKeys {

	private ConfigKeys() {
	}

	// the target: engine, gateway, model

	public static final ConfigKey<java.net.URI> BASE_URL = v1UrlKey(HarnessConstants.BASE_URL)
			.doc("raw engine, `http(s)://HOST:PORT/v1`; under `-Pgpu` required unless `engine.cmd` or `engine.image` starts one");

	public static final ConfigKey<String> ENGINE_CMD = stringKey(HarnessConstants.ENGINE_CMD)
			.doc("command template that starts the raw engine when `base.url` is unset: `{port}` (required), `{model}`; run with `/bin/sh -c`, logged to `<experiments.dir>/logs/engine-<port>.log`, healthy when `GET /health` (else `/v1/models`) answers 200, stopped at exit; see [node.md](node.md#starting-the-raw-engine-from-a-command)");

	public static final ConfigKey<Integer> ENGINE_CMD_TIMEOUT_SEC = intKey(HarnessConstants.ENGINE_CMD_TIMEOUT_SEC, 300)
			.profileDefault(Profile.LLAMACPP, 120)
			.doc("seconds an `engine.cmd` engine may take to answer its health check");

	public static final ConfigKey<String> LLAMACPP_SERVER = stringKey(HarnessConstants.LLAMACPP_SERVER)
			.defaultText("`llama-server` on `PATH`, else built into `~/.cache/fak-battery/llamacpp`")
			.doc("the `llama-server` binary `-Pllamacpp` runs");

	public static final ConfigKey<String> LLAMACPP_SOURCE = stringKey(HarnessConstants.LLAMACPP_SOURCE)
			.defaultText("fetched into the same cache")
			.doc("llama.cpp source folder `-Pllamacpp` takes the vocabulary and chat template of its tiny model from");

	public static final ConfigKey<String> LLAMACPP_ENGINE_PREFIX = stringKey("llamacpp.engine.prefix")
			.doc("a build property: words `-Pllamacpp` puts before `llama-server`'s command, for example `taskset -c 1` to give the engine a core of its own");

	public static final ConfigKey<String> LLAMACPP_GATEWAY_PREFIX = stringKey("llamacpp.gateway.prefix")
			.profileDefault(Profile.LLAMACPP, "nice -n 10")
			.doc("a build property: words `-Pllamacpp` puts before the gateway's command: niced, so a load client sharing its core is never queued behind it (the gateway can only lose by it)");

	public static final ConfigKey<java.net.URI> GATEWAY_URL = v1UrlKey(HarnessConstants.GATEWAY_URL)
			.doc("an already running gateway under test, ending in `/v1`");

	public static final ConfigKey<String> GATEWAY_CMD = stringKey(HarnessConstants.GATEWAY_CMD)
			.doc("command template that starts the gateway: `{port}`, `{upstream}`, `{model}`, `{engine}` (the upstream's dialect: `vllm`, `sglang`, `llamacpp`); run with `/bin/sh -c`, logged, health-checked, stopped");

	public static final ConfigKey<String> GATEWAY_HEADERS = stringKey(HarnessConstants.GATEWAY_HEADERS)
			.doc("request headers every kit client and load client sends the gateway under test (never the engine), one `Name: value` per line; `gateway.header.NAME=value` adds one; `{api.key}` and `{upstream}` in a value, and which values are guarded like the API key: [wire-kit.md](wire-kit.md#headers-for-the-gateway-under-test)");

	public static final ConfigKey<Integer> GATEWAY_START_TIMEOUT_SEC = intKey(HarnessConstants.GATEWAY_START_TIMEOUT_SEC, 45)
			.doc("seconds a `gateway.cmd` gateway may take to answer `/healthz` or `/v1/models` (fak's gateway default)");

	public static final ConfigKey<String> REFERENCE_GATEWAY_SERVER = stringKey(HarnessConstants.REFERENCE_GATEWAY_SERVER, "jdk")
			.doc("the embedded reference gateway's HTTP front: `jdk`, `helidon` or `netty` (a system property the gateway reads; `-Dreference.gateway.server=netty` runs the kit and the battery against the Netty front)");

	public static final ConfigKey<Boolean> GATEWAY_DECLARES_RECORD = boolKey(HarnessConstants.GATEWAY_DECLARES_RECORD, false)
			.doc("the gateway emits the kit's adjudication record when a request carries `X-Adjudication-Record: include` (enables wire rules W17, W18; the reference gateway always does)");

	public static final ConfigKey<String> GATEWAY_CLASSES = stringKey(HarnessConstants.GATEWAY_CLASSES,
			"relay,adjudication,record,resilience,clients")
			.doc("the conformance classes the gateway claims, by commas: `relay`, `adjudication`, `record`, `resilience`, `clients`, or `all`; a rule of a class not claimed still runs and is reported (`NOT_CLAIMED`), failing neither the build nor the kit jar ([wire-kit.md](wire-kit.md#conformance-classes)); the battery's rungs claim every class");

	public static final ConfigKey<Integer> KIT_UPSTREAM_PORT = nonNegativeIntKey(HarnessConstants.KIT_UPSTREAM_PORT, 0)
			.doc("fixed loopback port of the kit's upstream (vLLM dialect; SGLang on the next port; llama.cpp captures on the one after), to point a running gateway at; `0`: any free port");

	public static final ConfigKey<String> WIRE_CAPTURES = stringKey(HarnessConstants.WIRE_CAPTURES)
			.doc("folder of captured engine answers (`NAME.sse`, `NAME.json`, `NAME.provenance.json`, or `curl -si` output `NAME.http`, any depth) the wire kit replays besides its own fixtures; relative to the repository root. `-Pllamacpp` passes `fixtures/wire/llamacpp`");

	public static final ConfigKey<String> KIT_NODE_CLIENTS = stringKey("kit.node.clients", "auto")
			.doc("the wire kit's client rules C02..C04 (the Node clients): `auto` runs them where `node` 20 or newer and the clients in `kit.node.dir` are found, else skips them naming what is missing; `required` fails them instead (`-Pgpu` alone does not); `off` skips them ([wire-kit.md](wire-kit.md#how-the-battery-runs-the-kit))");

	public static final ConfigKey<String> KIT_LAUNCHER = stringKey("kit.launcher", "maven")
			.doc("how the kit was started, for the fix its messages name: `maven` (`-DKEY=VALUE`) or `standalone` (`--config KEY=VALUE`; the kit jar sets it)");

	public static final ConfigKey<Path> KIT_NODE_DIR = pathKey("kit.node.dir", "conformance-tests/target/node-clients")
			.doc("folder holding the client rules' JavaScript clients: the kit writes its scripts, `package.json` and `package-lock.json` there; `npm ci` in it installs them (the build does this into the default); relative to the repository root");

	public static final ConfigKey<String> WIRE_CAPTURE_DIR = stringKey(HarnessConstants.WIRE_CAPTURE_DIR)
			.doc("opt-in capture step: records the engine at `base.url` (`model`, `engine`, `engine.tool.parser`) into this folder with `wire-capture` before the tests, and the wire rung replays it");

	public static final ConfigKey<Integer> GATEWAY_UPSTREAM_TIMEOUT_MS = intKey(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, null)
			.doc("the gateway's documented upstream timeout (fault rule F02); give all four `gateway.max.*`/`gateway.upstream.*` limits for a gateway that does not declare its own, else F02, F04, F06, F07 are PENDING_MEASUREMENT naming them (under `-Pgpu` the build fails)");

	public static final ConfigKey<Integer> GATEWAY_MAX_BODY_BYTES = intKey(HarnessConstants.GATEWAY_MAX_BODY_BYTES, null)
			.doc("the gateway's documented request body limit, 413 above it (fault rule F06)");

	public static final ConfigKey<Integer> GATEWAY_MAX_HEADER_BYTES = intKey(HarnessConstants.GATEWAY_MAX_HEADER_BYTES, null)
			.doc("the gateway's documented request header limit, 431 above it (fault rule F07)");

	public static final ConfigKey<Integer> GATEWAY_MAX_EVENT_BYTES = intKey(HarnessConstants.GATEWAY_MAX_EVENT_BYTES, null)
			.doc("the gateway's documented longest upstream line, event or answer (fault rule F04)");

	public static final ConfigKey<String> MODEL = stringKey(HarnessConstants.MODEL)
			.doc("served model name the client sends; required with `base.url` (the engine double serves `Qwen/Qwen2.5-7B-Instruct`)");

	public static final ConfigKey<String> CHECKPOINT_MODEL = stringKey(HarnessConstants.CHECKPOINT_MODEL)
			.defaultText("`model`")
			.doc("checkpoint the engine loaded, for example a Hugging Face id (contract `checkpoint_model`)");

	public static final ConfigKey<String> API_KEY_ENV = stringKey(HarnessConstants.API_KEY_ENV)
			.doc("NAME of the environment variable holding the API key; no file the harness writes holds the key raw, JSON-escaped, URL-encoded or base64: an artifact, report or capture that would is refused, and engine, gateway and container logs, Allure results and the test JVM's console are redacted ([REDACTED api.key.env]); see docs/reports.md");

	public static final ConfigKey<String> ENGINE = stringKey(HarnessConstants.ENGINE, "vllm")
			.doc("engine dialect: `vllm`, `sglang` or `llamacpp` (llama.cpp's `llama-server`); the contract rung FAILs when the engine identifies as another");

	public static final ConfigKey<String> ENGINE_IDENTITY = stringKey(HarnessConstants.ENGINE_IDENTITY)
			.doc("declares the engine behind `base.url` where nothing it answers identifies it: every artifact shows it as `declared`, the contract's `engine` check is NOT_JUDGED and the authority draft lists it under \"Declared, not observed\"; naming another kind than the engine's answers identify is a misconfiguration ([verdicts.md](verdicts.md#one-run-one-target))");

	public static final ConfigKey<Integer> CONTEXT_LENGTH = intKey(HarnessConstants.CONTEXT_LENGTH, null).example("131072")
			.defaultText(
					"the engine's reported context length (`max_model_len`, `context_length`, `n_ctx`), else PENDING_MEASUREMENT; an engine container is started without one")
			.doc("engine context length in tokens (contract); when set, the contract rung FAILs if the engine reports another, naming both");

	public static final ConfigKey<String> QUANT = stringKey(HarnessConstants.QUANT)
			.defaultText("none (the double: `none (engine double, no weights)`); the preflight sizes memory for `fp8`")
			.doc("weight precision / quantisation, disclosed as `precision` on every artifact; the contract is pending without it on a real engine");

	public static final ConfigKey<String> BATCHING_REGIME = stringKey(HarnessConstants.BATCHING_REGIME)
			.doc("batching regime disclosed on every artifact, for example `continuous`");

	public static final ConfigKey<String> GPU_NAME_REQUIRED = stringKey(HarnessConstants.GPU_NAME_REQUIRED)
			.doc("GPU name the node must report (anti-mislabel guard), for example `H200`");

	public static final ConfigKey<String> PREFLIGHT_MODEL = stringKey(HarnessConstants.PREFLIGHT_MODEL, "zai-org/GLM-5.2")
			.doc("model id the preflight sizes memory for (weights x (1 + kv overhead), per GPU + 7 GB)");

	public static final ConfigKey<Double> PREFLIGHT_MODEL_PARAMS_B = decimalKey(HarnessConstants.PREFLIGHT_MODEL_PARAMS_B, 753.0,
			Double.MIN_VALUE, Double.MAX_VALUE)
			.doc("size of `preflight.model` in billions of parameters");

	public static final ConfigKey<Double> PREFLIGHT_KV_OVERHEAD = decimalKey(HarnessConstants.PREFLIGHT_KV_OVERHEAD, 0.15, 0,
			Double.MAX_VALUE)
			.doc("KV-cache headroom fraction of the preflight memory rule");

	public static final ConfigKey<String> ENGINE_COMPARE = stringKey(HarnessConstants.ENGINE_COMPARE)
			.doc("engines compared head to head: `vllm=http://h:8000/v1,precision=fp8,batching=continuous;sglang=...`; a row without `precision` and `batching` is refused");

	// the engine container launcher: read only when engine.image is set

	public static final ConfigKey<String> ENGINE_IMAGE = stringKey(HarnessConstants.ENGINE_IMAGE)
			.doc("engine container image (pinned tag or digest) started with Testcontainers as the raw engine; see [node.md](node.md#starting-the-raw-engine-as-a-container)");

	public static final ConfigKey<String> ENGINE_TOOL_PARSER = stringKey(HarnessConstants.ENGINE_TOOL_PARSER)
			.defaultText("`hermes` (vllm), `qwen25` (sglang)")
			.doc("`--tool-call-parser` of the engine container; the names differ between vLLM and SGLang");

	public static final ConfigKey<Integer> ENGINE_TP = intKey(HarnessConstants.ENGINE_TP, 1)
			.doc("tensor-parallel size of the engine container (`--tensor-parallel-size` for vLLM, `--tp-size` for SGLang)");

	public static final ConfigKey<Integer> ENGINE_STARTUP_TIMEOUT_SEC = intKey(HarnessConstants.ENGINE_STARTUP_TIMEOUT_SEC, 1800)
			.doc("seconds the engine container's `/health` may take to answer 200 (model loading is slow; the image pull is not counted)");

	public static final ConfigKey<Integer> ENGINE_PULL_TIMEOUT_SEC = intKey(HarnessConstants.ENGINE_PULL_TIMEOUT_SEC, 1800)
			.doc("seconds the pull of an engine image (or Testcontainers' Ryuk image) that is not on the Docker engine may take; checked locally first, a failed or longer pull fails the start once for all rungs, naming the image and the cause");

	public static final ConfigKey<String> ENGINE_CPUSET = stringKey(HarnessConstants.ENGINE_CPUSET)
			.defaultText("every CPU of the Docker host")
			.doc("CPUs the engine container may run on, a Docker cpuset (`1`, `2-7`, `0,2`), checked against the Docker host's before the start; keeps the load client off the engine's cores ([container.md](container.md#pinning-the-engine)); recorded as `engine_cpuset`");

	public static final ConfigKey<String> ENGINE_HF_TOKEN_ENV = stringKey(HarnessConstants.ENGINE_HF_TOKEN_ENV)
			.doc("NAME of the environment variable holding the Hugging Face token, copied into the container as a file named by `HF_TOKEN_PATH` (never its environment, which Testcontainers prints on a failed start), never printed; unset: public checkpoints");

	// the tax witness and the sweeps

	public static final ConfigKey<Integer> TAX_COUNT = intKey(HarnessConstants.TAX_COUNT, 8)
			.profileDefault(Profile.DEFAULT, BootstrapCi.MIN_SAMPLES_PER_ARM)
			.profileDefault(Profile.LLAMACPP, 512)
			.doc("samples per arm in the tax witness; below 6 (the fewest an interval takes, see [rungs.md](rungs.md#intervals-and-the-aa-floor)) the witness is PENDING_MEASUREMENT naming `tax.count`; `-Pllamacpp` takes 512, as with fewer the A/A floor of its fast engine is wider than +/-1 %");

	public static final ConfigKey<Integer> TAX_WARMUP = nonNegativeIntKey(HarnessConstants.TAX_WARMUP, 4)
			.profileDefault(Profile.DEFAULT, 1)
			.profileDefault(Profile.LLAMACPP, 256)
			.doc("warm-up conversations per target (raw engine, gateway, the A/A's second client) before the tax witness, excluded from every result (`interleaving.warmup_per_target`); `-Pllamacpp` takes 256, as after 4 the gateway's JIT is still compiling through the first measured conversations ([llamacpp.md](llamacpp.md))");

	public static final ConfigKey<Boolean> TAX_SMOKE = boolKey(HarnessConstants.TAX_SMOKE, false)
			.doc("rung 3 (witness, sweeps) at the smoke run's sizes under any profile, for a quick run of the battery's writers; outside the default profile its artifacts are PENDING_MEASUREMENT (`sample_sizes`), never counted nor kept as a baseline ([rungs.md](rungs.md#rung-3-the-tax-and-the-sweeps))");

	public static final ConfigKey<List<Integer>> SWEEP_CONCURRENCY = intsKey(HarnessConstants.SWEEP_CONCURRENCY, List.of(1, 8, 64, 128))
			.profileDefault(Profile.DEFAULT, List.of(1, 4))
			.profileDefault(Profile.LLAMACPP, List.of(1, 2, 4))
			.doc("concurrency levels of the sweep, at most 512; a level whose client or engine double lags past 1 ms is PENDING_MEASUREMENT ([host calibration](rungs.md#host-calibration-and-futility))");

	public static final ConfigKey<Integer> SWEEP_REQUESTS = intKey(HarnessConstants.SWEEP_REQUESTS, null)
			.profileDefault(Profile.LLAMACPP, 512)
			.defaultText("`6 x max(level, 8)` (`6 x max(level, 2)` in the smoke run)")
			.doc("the most measured requests per arm at each sweep level (the cap of its [sequential stop](rungs.md#sequential-stopping)), never fewer than 6 x the level; more narrows the sweep's A/A floor (`-Pllamacpp`: [battery-container](../experiments/battery-container/README.md))");

	public static final ConfigKey<Integer> SWEEP_NOISE_REQUESTS = intKey(HarnessConstants.SWEEP_NOISE_REQUESTS, null)
			.profileDefault(Profile.LLAMACPP, 2048)
			.defaultText("`sweep.requests`")
			.doc("the most measured requests per arm at the concurrency sweep's A/A level (raw against raw at the highest level, or 64), the cap of its sequential stop; the A/A floor must lie within +/-1 % whole, so it needs more than a level's own ratio (`-Pllamacpp` takes 2048, as 512 read wider than +/-1 %: [battery-container](../experiments/battery-container/README.md))");

	public static final ConfigKey<Integer> SWEEP_BATCH = intKey(HarnessConstants.SWEEP_BATCH, null)
			.profileDefault(Profile.LLAMACPP, 1)
			.defaultText("`max(16, 4 x level)` with `sweep.requests`, else one wave of `max(level, 2)`")
			.doc("requests in one batch of a sweep level, at least the level (one request per stream); fewer put a pair's two batches closer in time, so an engine that wanders cancels more in their ratio ([rungs.md](rungs.md#paired-ratios-an-engine-that-wanders-cancels)); `-Pllamacpp`: [battery-container](../experiments/battery-container/README.md)");

	public static final ConfigKey<Integer> SWEEP_WARMUP_S = intKey(HarnessConstants.SWEEP_WARMUP_S, 120)
			.profileDefault(Profile.DEFAULT, 1)
			.doc("the most seconds each sweep warms up before its first level, until the client's lag p99 reads within 1 ms over about a second of probe samples (`warmup` in the artifact)");

	public static final ConfigKey<String> CALIBRATION_FORCE = stringKey(HarnessConstants.CALIBRATION_FORCE)
			.profileDefault(Profile.DEFAULT, "all")
			.defaultText("none: each level runs as the host calibration says (`all` in the smoke run, which runs its pipeline whole)")
			.doc("concurrency sweep levels that run at full size whatever the host calibration reads (`1,64`), `witness` for the tax witness, or `all` (every level, the witness, every rate); what is forced never stops for futility ([rungs.md](rungs.md#host-calibration-and-futility))");

	public static final ConfigKey<String> CALIBRATION_FORCE_RATES = stringKey(HarnessConstants.CALIBRATION_FORCE_RATES)
			.defaultText("none: each rate runs as the host calibration says (`calibration.force=all` forces them too)")
			.doc("rate sweep rates (req/s) that run whatever the host calibration reads (`16,32`, or `all`); a rate the calibration finds beyond this host is otherwise PENDING_MEASUREMENT with its reading (see [rungs.md](rungs.md#host-calibration-and-futility))");

	public static final ConfigKey<Double> STOP_HALF_WIDTH = decimalKey(HarnessConstants.STOP_HALF_WIDTH, 0.005, 0, 1)
			.doc("target half-width of the ratio's interval (0.005 = +/-0.5 %): the tax witness and each sweep level stop at the first planned look where every interval they judge is that narrow, else at the cap (`tax.count`, `sweep.requests`); 0 always runs to the cap (see [rungs.md](rungs.md#sequential-stopping))");

	public static final ConfigKey<Integer> STOP_LOOKS = intKey(HarnessConstants.STOP_LOOKS, 3)
			.doc("most planned looks of the sequential stop; each look's interval is at 1 - 0.05 / looks (Bonferroni alpha spending), so the reported interval keeps 95 % whichever look stops; 1 is the fixed-size run (a rate sweep level: looks at 2 and 4 batches per arm, one at 4 with 1)");

	public static final ConfigKey<Boolean> CLIENT_KEEPAWAKE = boolKey(HarnessConstants.CLIENT_KEEPAWAKE, false)
			.doc("rung 3 (witness, sweeps): keep the load client's CPUs from halting while it measures, one busy loop at idle priority per CPU, recorded as `client_keepawake`; for a virtual machine whose idle CPUs halt ([rungs.md](rungs.md#the-client-is-never-the-bottleneck)); Linux with `chrt` and `taskset`");

	public static final ConfigKey<Path> BASELINE_FILE = pathKey(HarnessConstants.BASELINE_FILE)
			.defaultText("`experiments/baselines/<experiments folder name>/.vllm-tax-baseline.json`")
			.doc("tax gate baseline (`fak.vllm-adjudication-tax-baseline.v1`), one entry per gateway, engine and version, model, workload and host class; a valid run's reading is kept in its entry, and becomes the baseline only where there was none or where it is lower (KEEP never raises it); kept outside the folder `-Pbattery` empties (see [rungs.md](rungs.md#the-regression-gate))");

	public static final ConfigKey<Double> TAX_TOLERANCE = decimalKey(HarnessConstants.TAX_TOLERANCE, 0.25, 0.001, 10)
			.doc("tax gate tolerance, a fraction of the baseline's latency tax (> 0; 0.25 = 25 %): KEEP when the upper bound of the measured latency_tax's 95 % interval is at most `baseline x (1 + tax.tolerance)`, else REVERT");

	public static final ConfigKey<String> DETERMINISM = stringKey(HarnessConstants.DETERMINISM)
			.defaultText("env `FAK_VLLM_DETERMINISM`, else unavailable")
			.doc("vLLM determinism mode: `batch_invariance`, `deterministic_offline_scheduler`; anything else is `unavailable`");

	// the gateway cost bench

	public static final ConfigKey<String> COST_GATEWAY_PREFIX = stringKey(HarnessConstants.COST_GATEWAY_PREFIX)
			.doc("gateway cost bench: words before each gateway JVM's command, split at spaces, e.g. `taskset -c 1` with the bench under `taskset -c 0`");

	public static final ConfigKey<String> COST_ENGINE_PREFIX = stringKey(HarnessConstants.COST_ENGINE_PREFIX)
			.doc("gateway cost bench: words before the engine double's JVM command; with `cost.gateway.prefix` the same `taskset -c 1`, the client has a core of its own and the serving side the other");

	public static final ConfigKey<Integer> COST_WARMUP_BATCHES = intKey(HarnessConstants.COST_WARMUP_BATCHES, 40)
			.doc("gateway cost bench: warm-up batches of 1,000 requests per target (after 6 the gateway's JIT was unfinished on 2 cores)");

	public static final ConfigKey<Integer> COST_ROUNDS = intKey(HarnessConstants.COST_ROUNDS, 8)
			.doc("gateway cost bench: measured rounds, one ABBA or BAAB block per server each (two raw/gateway batch pairs); more narrows the intervals");

	public static final ConfigKey<String> COST_SERVERS = stringKey(HarnessConstants.COST_SERVERS)
			.defaultText("all: `jdk`, `helidon`, `netty`, `jdk-zgc`, `netty-floor`, and `cmd` when `gateway.cmd` is set")
			.doc("gateway cost bench: the servers to measure, comma separated (`netty-floor`: a bare Netty proxy, no gateway; `cmd`: the gateway `gateway.cmd` starts)");

	// workloads and load shapes

	public static final ConfigKey<String> WORKLOAD = stringKey(HarnessConstants.WORKLOAD, "fixed")
			.doc("what the load rungs send: `fixed` (fak's counting prompt, `max_tokens` 64), `random`, `sharegpt`, `prefix`, `agentic` (see [rungs.md](rungs.md#workloads-and-load-shapes)); recorded with its parameters and seed in every artifact");

	public static final ConfigKey<String> WORKLOAD_SEED = stringKey(HarnessConstants.WORKLOAD_SEED)
			.defaultText("`20260807` (the tax seed)")
			.doc("seed of the workload's lengths, words, order and injections (an integer)");

	public static final ConfigKey<Integer> INPUT_LEN = intKey(HarnessConstants.INPUT_LEN, 1024)
			.doc("`random`: mean prompt length in tokens, as words (vLLM's default)");

	public static final ConfigKey<Integer> OUTPUT_LEN = intKey(HarnessConstants.OUTPUT_LEN, 64)
			.doc("mean `max_tokens` of the `random`, `prefix` and `agentic` workloads");

	public static final ConfigKey<Double> RANGE_RATIO = decimalKey(HarnessConstants.RANGE_RATIO, 0.0, 0, 0.999)
			.doc("`random`: spread of the lengths, in [0, 1) (vLLM's default)");

	public static final ConfigKey<Boolean> IGNORE_EOS = boolKey(HarnessConstants.IGNORE_EOS, true)
			.doc("`random`: whether requests carry `ignore_eos: true`");

	public static final ConfigKey<Path> DATASET_PATH = pathKey(HarnessConstants.DATASET_PATH)
			.doc("`sharegpt`: a ShareGPT-format JSON file (relative to the repository root), never downloaded; a tiny sample: `fixtures/workloads/sharegpt-sample.json`");

	public static final ConfigKey<Integer> PREFIX_COUNT = intKey(HarnessConstants.PREFIX_COUNT, 4)
			.doc("`prefix`: distinct shared prefixes");

	public static final ConfigKey<Integer> PREFIX_LEN = intKey(HarnessConstants.PREFIX_LEN, 256)
			.doc("`prefix`: length in tokens of each shared prefix");

	public static final ConfigKey<Integer> PREFIX_SUFFIX_LEN = intKey(HarnessConstants.PREFIX_SUFFIX_LEN, 32)
			.doc("`prefix`: length in tokens of each request's unique suffix");

	public static final ConfigKey<Integer> AGENTIC_TURNS = intKey(HarnessConstants.AGENTIC_TURNS, 3)
			.doc("`agentic`: rounds of tool calls per conversation");

	public static final ConfigKey<Double> AGENTIC_INJECTION_SHARE = decimalKey(HarnessConstants.AGENTIC_INJECTION_SHARE, 0.25, 0, 1)
			.doc("`agentic`: share of tool results carrying the kit's injection marker");

	public static final ConfigKey<List<Double>> RATE_SWEEP = decimalsKey(HarnessConstants.RATE_SWEEP,
			List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0))
			.profileDefault(Profile.DEFAULT, List.of(16.0, 32.0))
			.doc("offered request rates (req/s) of the rate sweep, then bisection between the highest rate that met the SLOs and the next (3 steps; 1 in the smoke run); on the engine double the battery offers `4,8,16,32`");

	public static final ConfigKey<Double> RATE_BATCH_SECONDS = decimalKey(HarnessConstants.RATE_BATCH_SECONDS, 2.0, 0.1, 3600)
			.profileDefault(Profile.DEFAULT, 0.5)
			.doc("seconds of arrivals in one batch of a rate sweep level (rate x this requests, at least 8), after a ramp of twice this; longer batches mix the two arms' requests less in the engine's queue ([rungs.md](rungs.md#workloads-and-load-shapes))");

	public static final ConfigKey<Double> BURSTINESS = decimalKey(HarnessConstants.BURSTINESS, 1.0, 0.01, 100)
			.doc("gamma shape of the open loop's inter-arrival times: 1 is Poisson, below 1 burstier");

	public static final ConfigKey<Integer> MAX_CONCURRENCY = nonNegativeIntKey(HarnessConstants.MAX_CONCURRENCY, 0)
			.doc("most requests in flight in the open loop, `0`: no cap; a request waiting for a slot shows as client queue time");

	public static final ConfigKey<Double> SLO_TTFT_MS = decimalKey(HarnessConstants.SLO_TTFT_MS, 1000.0, 0, Double.MAX_VALUE)
			.doc("TTFT objective of goodput (`<=`), ms");

	public static final ConfigKey<Double> SLO_TPOT_MS = decimalKey(HarnessConstants.SLO_TPOT_MS, 50.0, 0, Double.MAX_VALUE)
			.doc("TPOT objective of goodput (`<=`), ms");

	public static final ConfigKey<Double> SLO_E2EL_MS = decimalKey(HarnessConstants.SLO_E2EL_MS, null, 0, Double.MAX_VALUE)
			.doc("E2EL objective of goodput (`<=`), ms; unset: none");

	public static final ConfigKey<Double> SLO_ATTAINMENT = decimalKey(HarnessConstants.SLO_ATTAINMENT, 0.9, 0.01, 1)
			.doc("share of requests that must meet every SLO for a rate to count as met");

	// the soak

	public static final ConfigKey<Integer> SOAK_STREAMS = intKey(HarnessConstants.SOAK_STREAMS, 256)
			.doc("concurrent streams of the soak (`-Psoak`)");

	public static final ConfigKey<Integer> SOAK_DURATION_SEC = intKey(HarnessConstants.SOAK_DURATION_SEC, 600)
			.doc("how long the soak runs, seconds");

	public static final ConfigKey<Integer> SOAK_SAMPLE_SEC = intKey(HarnessConstants.SOAK_SAMPLE_SEC, 10)
			.doc("seconds between two samples of heap after GC, threads and open file descriptors in the soak");

	// the run, its artifacts and what it may read

	public static final ConfigKey<String> PROFILE = stringKey(HarnessConstants.PROFILE, "default")
			.doc("which profile runs: `default`, `battery`, `gpu`, `llamacpp`, `gate`; set by the Maven profile (`-Pbattery` ...)");

	public static final ConfigKey<String> GROUPS = stringKey("harness.groups")
			.profileDefault(Profile.BATTERY, "battery")
			.profileDefault(Profile.GPU, "battery")
			.profileDefault(Profile.LLAMACPP, "battery")
			.doc("a build property: the JUnit tag expression of the test classes surefire and failsafe run, empty for every class; the measuring profiles take `battery`, the tag of every rung (`@Rung`) and of the kit's rule classes the battery report shows (`@WireRuleReport`), and leave the harness's unit tests and self-tests to `./mvnw verify` (`-Dharness.groups=` runs them too)");

	public static final ConfigKey<Boolean> ALLOW_PENDING = boolKey(HarnessConstants.ALLOW_PENDING, false)
			.doc("report PENDING_MEASUREMENT instead of failing; fails closed when unset, and the build passes it: `true` under the default profile, `-Pbattery` and `-Pllamacpp`, `false` under `-Pgpu` and `-Pgate`");

	public static final ConfigKey<Path> EXPERIMENTS_DIR = pathKey(HarnessConstants.EXPERIMENTS_DIR, "experiments/embedded")
			.doc("artifact folder, relative to the working directory; the build passes `experiments/embedded` under the repository root (`experiments/node` under `-Pgpu`, `experiments/llamacpp` under `-Pllamacpp`)");

	public static final ConfigKey<String> RUN_ID = stringKey(HarnessConstants.RUN_ID)
			.defaultText(
					"the build's UTC start and a random part, `yyyyMMdd'T'HHmmss'Z'-xxxxxx` (made once per build by the root pom's `harness-run-id` execution); a JVM started without it makes its own")
			.doc("the run every artifact of one build carries; the final gate counts only this run's artifacts");

	public static final ConfigKey<Path> ROOT_DIR = pathKey(HarnessConstants.ROOT_DIR)
			.doc("repository root, set by the build, so relative paths resolve against it and artifact paths show relative to it");

	public static final ConfigKey<Boolean> FIXTURES_ALLOWED = boolKey(HarnessConstants.FIXTURES_ALLOWED, false)
			.doc("whether a rung may read a test fixture (a folder holding a `FIXTURE` file, a JSON file with a `_fixture` field) as `floors.dir` or `swebench.run.dir`; set only by the harness's self-tests and honoured only in the default profile");

	// SWE-bench and the floors

	public static final ConfigKey<String> SELECTION = stringKey(HarnessConstants.SELECTION, "slice 0:20")
			.doc("SWE-bench selection, seed syntax (contract)");

	public static final ConfigKey<String> SWEBENCH_RUNNER = stringKey(HarnessConstants.SWEBENCH_RUNNER)
			.doc("SWE-bench compare runner executable");

	public static final ConfigKey<Path> SWEBENCH_RUN_DIR = pathKey(HarnessConstants.SWEBENCH_RUN_DIR)
			.doc("SWE-bench compare run folder; without `swebench.runner` it is pre-produced and counts only with its `PROVENANCE.json` (`producer`, `version`, `generated_at`), else PENDING_MEASUREMENT naming what is missing");

	public static final ConfigKey<Integer> SWEBENCH_WORKERS = intKey(HarnessConstants.SWEBENCH_WORKERS, 1)
			.doc("SWE-bench agent workers (run budget, contract)");

	public static final ConfigKey<Integer> SWEBENCH_AGENT_TIMEOUT_SEC = intKey(HarnessConstants.SWEBENCH_AGENT_TIMEOUT_SEC, 3600)
			.doc("SWE-bench agent timeout per task in seconds (run budget, contract)");

	public static final ConfigKey<Integer> SWEBENCH_GRADE_WORKERS = intKey(HarnessConstants.SWEBENCH_GRADE_WORKERS, 2)
			.doc("SWE-bench grading workers (run budget, contract)");

	public static final ConfigKey<Integer> SWEBENCH_GRADE_TIMEOUT_SEC = intKey(HarnessConstants.SWEBENCH_GRADE_TIMEOUT_SEC, 2400)
			.doc("SWE-bench grading timeout in seconds (run budget, contract)");

	public static final ConfigKey<String> FLOORS_BIN = stringKey(HarnessConstants.FLOORS_BIN)
			.doc("fak binary that produces the floor artifacts");

	public static final ConfigKey<Path> FLOORS_DIR = pathKey(HarnessConstants.FLOORS_DIR)
			.doc("folder of pre-produced floor artifacts; they count only with their provenance (`producer`, `version`, `generated_at` and `binary_sha256`, or the artifact's own `run.run_id` and `run.git_commit`), else PENDING_MEASUREMENT naming what is missing");

	// the report and the comparison of runs: read by the build's report steps, not by rungs

	public static final ConfigKey<Path> HISTORY_DIR = pathKey(HarnessConstants.HISTORY_DIR)
			.defaultText("`experiments/history/<name of experiments.dir>`")
			.doc("run index, archived runs, Allure history (Trend) and ratios across runs of one experiments folder");

	public static final ConfigKey<Path> COMPARE_BASE = pathKey(HarnessConstants.COMPARE_BASE)
			.defaultText("the newest archived run other than the head's")
			.doc("the earlier run of `-Pcompare`: an experiments folder or an archived run `experiments/history/embedded/runs/RUN_ID`");

	public static final ConfigKey<Path> COMPARE_HEAD = pathKey(HarnessConstants.COMPARE_HEAD)
			.defaultText("`experiments.dir`")
			.doc("the later run of `-Pcompare`");

	public static final ConfigKey<Path> COMPARE_OUT = pathKey(HarnessConstants.COMPARE_OUT, "reports/compare")
			.doc("where `-Pcompare` writes `compare.md`, `compare.json`, `compare.png` (under the repository root)");

	public static final ConfigKey<String> REPORT_CHROMIUM = stringKey(HarnessConstants.REPORT_CHROMIUM, "/usr/bin/chromium")
			.doc("the browser of `-Pbrowser` (Debian's `chromium`)");

	public static final ConfigKey<String> REPORT_CHROMEDRIVER = stringKey(HarnessConstants.REPORT_CHROMEDRIVER, "/usr/bin/chromedriver")
			.doc("the ChromeDriver of `-Pbrowser` (Debian's `chromium-driver`)");

	private static final List<ConfigKey<?>> ALL = collect();

	/** Every key, in declaration order. */
	public static List<ConfigKey<?>> all() {
		return ALL;
	}

	/** The key named {@code name}, if any. */
	public static Optional<ConfigKey<?>> named(String name) {
		return ALL.stream().filter(key -> key.name().equals(name)).findFirst();
	}

	private static List<ConfigKey<?>> collect() {
		List<ConfigKey<?>> keys = new ArrayList<>();
		for (Field field : ConfigKeys.class.getDeclaredFields()) {
			if (field.getType() == ConfigKey.class && Modifier.isStatic(field.getModifiers())) {
				try {
					keys.add((ConfigKey<?>) field.get(null));
				}
				catch (IllegalAccessException e) {
					throw new IllegalStateException(e);
				}
			}
		}
		return List.copyOf(keys);
	}

	// "did you mean": a -D name one edit away from a key

	private static final List<String> FOREIGN_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "os.", "user.", "file.",
			"line.", "path.", "native.", "stdout.", "stderr.", "maven.", "surefire.", "junit.", "org.", "com.", "net.", "io.",
			"awt.", "socksNonProxyHosts", "http.", "https.", "ftp.", "guice.", "classworlds.", "library.", "idea.",
			GatewayHeaders.PREFIX);

	/**
	 * The names among {@code names} that are no key but one edit (a letter or a dot added, dropped, changed, or two
	 * neighbours swapped) away from one, each with that key: {@code tax.coutn -> tax.count}. Names of the JVM, Maven,
	 * Surefire and JUnit, and names far from every key, are not reported.
	 */
	public static Map<String, String> misspelled(Collection<String> names) {
		Map<String, String> found = new TreeMap<>();
		for (String name : names) {
			if (name == null || named(name).isPresent() || FOREIGN_PREFIXES.stream().anyMatch(name::startsWith)) {
				continue;
			}
			for (ConfigKey<?> key : ALL) {
				if (oneEditApart(name.toLowerCase(Locale.ROOT), key.name())) {
					found.put(name, key.name());
					break;
				}
			}
		}
		return found;
	}

	/**
	 * Fails when a name among {@code names} is a misspelled key ({@link #misspelled(Collection)}).
	 *
	 * @throws ConfigurationException naming the parameter and the key it was probably meant to be
	 */
	public static void checkSpelling(Collection<String> names) {
		Map<String, String> misspelled = misspelled(names);
		if (!misspelled.isEmpty()) {
			StringBuilder message = new StringBuilder();
			misspelled.forEach((name, key) -> message.append(message.isEmpty() ? "" : " ")
					.append("Unknown configuration parameter ")
					.append(name)
					.append(": did you mean ")
					.append(key)
					.append("? Fix: pass -D")
					.append(key)
					.append("=... instead of -D")
					.append(name)
					.append("."));
			throw new ConfigurationException(message.toString());
		}
	}

	/** Whether {@code a} and {@code b} differ by exactly one insertion, deletion, substitution or adjacent swap. */
	static boolean oneEditApart(String a, String b) {
		if (a.equals(b) || Math.abs(a.length() - b.length()) > 1) {
			return false;
		}
		int prefix = 0;
		while (prefix < a.length() && prefix < b.length() && a.charAt(prefix) == b.charAt(prefix)) {
			prefix++;
		}
		if (a.length() != b.length()) {
			String longer = a.length() > b.length() ? a : b;
			String shorter = a.length() > b.length() ? b : a;
			return longer.substring(prefix + 1).equals(shorter.substring(prefix));
		}
		if (a.substring(prefix + 1).equals(b.substring(prefix + 1))) {
			return true;
		}
		return prefix + 1 < a.length() && a.charAt(prefix) == b.charAt(prefix + 1) && a.charAt(prefix + 1) == b.charAt(prefix)
				&& a.substring(prefix + 2).equals(b.substring(prefix + 2));
	}
}
