package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.soak.ChildJvm;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.gateway.HttpFront;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.JsonNumbers;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reference gateway's own cost: added p50/p99 E2EL at 1,000 requests/s, non-stream, with the engine double
 * (instant timing) and each gateway server ({@link HttpFront}: {@code --server jdk}, {@code helidon}, {@code netty}; the JDK
 * front once more on ZGC, and the {@link #FLOOR} no gateway can go under, {@link #variants()}) each in its own JVM
 * ({@link ChildJvm}), any gateway {@code gateway.cmd} starts ({@link #CMD}) in its own process, and the load client
 * in the test JVM; see {@link CostRun} for the load and
 * {@link CostComparison} for the statistics and validity; with {@link #CMD} measured (the nginx floor), each other
 * server's CPU per request over its, with its interval ({@link CpuRatio}). Writes {@code gateway-added-latency.json} into
 * {@code experiments.dir}; the 1 ms target is recorded ({@code target_met}), never asserted. The load average at the
 * start says whether the machine was quiet (below 0.5) when the run began. On demand, in no profile:
 *
 * <pre>
 * ./mvnw -B -pl bench-tests -am verify -Dtest=GatewayCostBench -Dsurefire.failIfNoSpecifiedTests=false -Dexperiments.dir=$PWD/experiments/gateway-cost
 * </pre>
 */
@Tag("bench")
@DisplayName("reference gateway cost: added latency at 1,000 req/s, engine double and gateways in their own JVMs")
class GatewayCostBench {

	static final String COMMAND = "./mvnw -B -pl bench-tests -am verify -Dtest=GatewayCostBench -Dsurefire.failIfNoSpecifiedTests=false";

	/**
	 * The variant that is no gateway: {@link NettyProxyFloor}, measured beside the fronts so that one run says whether
	 * this machine could show the target at all. Never the {@code faster} server.
	 */
	static final String FLOOR = "netty-floor";

	/** The variant started from {@code gateway.cmd}: any gateway (or proxy) someone brings, measured beside the fronts. */
	static final String CMD = "cmd";

	/** The quiet-machine bar: a run that starts above this 1-minute load average is labelled busy. */
	static final double QUIET_LOAD = 0.5;

	private static final String MODEL = "m";

	private final HarnessConfig config = HarnessConfig.fromSystemProperties();

	@Test
	@DisplayName("added p50/p99 E2EL of each gateway server over the raw double, ABBA, with bootstrap 95% intervals")
	void addedLatency() throws Exception {
		double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		Path logs = Files.createDirectories(config.experimentsDir().resolve("logs"));
		int warmupBatches = config.get(ConfigKeys.COST_WARMUP_BATCHES);
		int rounds = config.get(ConfigKeys.COST_ROUNDS);
		Optional<String> template = config.string(HarnessConstants.GATEWAY_CMD);
		Map<String, List<String>> variants = variants(config.string(HarnessConstants.COST_SERVERS), template.isPresent());
		List<String> prefix = prefix(config, HarnessConstants.COST_GATEWAY_PREFIX);
		List<String> enginePrefix = prefix(config, HarnessConstants.COST_ENGINE_PREFIX);
		String command = COMMAND + BenchArtifact.experimentsDirArgument(config)
				+ prefixArgument(HarnessConstants.COST_GATEWAY_PREFIX, prefix)
				+ prefixArgument(HarnessConstants.COST_ENGINE_PREFIX, enginePrefix)
				+ (warmupBatches == CostRun.WARMUP_BATCHES ? "" : " -D" + HarnessConstants.COST_WARMUP_BATCHES + "=" + warmupBatches)
				+ (rounds == CostRun.ROUNDS ? "" : " -D" + HarnessConstants.COST_ROUNDS + "=" + rounds)
				+ config.string(HarnessConstants.COST_SERVERS).map(v -> " -D" + HarnessConstants.COST_SERVERS + "=" + v).orElse("")
				+ template.map(t -> commandArgument(t, config.string(HarnessConstants.ROOT_DIR).map(Path::of).orElse(Path.of(""))))
						.orElse("");
		BenchArtifact artifact = new BenchArtifact("fak-battery.gateway-added-latency.v2", "gateway-added-latency.json", command);
		ObjectNode body = artifact.body();
		body.put("simulated", "the engine double, each reference gateway server and the load client each in its own JVM on this "
				+ "machine: numbers about the gateway's own cost, never about a real engine");
		body.put("target", "gateway p99 E2EL - raw p99 E2EL <= " + CostComparison.TARGET_P99_MS + " ms at 1,000 req/s, non-stream");
		body.put("method", CostRun.method(warmupBatches, rounds));
		body.put("statistics", "added pXX = pXX of the gateway arm's batches merged - pXX of the raw arm's; 95 % interval: paired "
				+ "cluster bootstrap over the batch pairs (" + CostComparison.RESAMPLES + " resamples, harness-api BootstrapCi"
				+ ".percentileDifference); valid only when the client's lag p99 (each arm) and the double's lag p99 (every block) "
				+ "stay within 1 ms and no request fails");
		JsonNumbers.put(body, "load_average_at_start", loadAtStart, 2);
		body.put("machine", loadAtStart < QUIET_LOAD
				? "quiet at start (1-minute load average below " + QUIET_LOAD + ")"
				: String.format(java.util.Locale.ROOT,
						"BUSY at start (1-minute load average %.2f, at or above %.1f): the numbers are a busy "
								+ "machine's",
						loadAtStart, QUIET_LOAD));
		List<String> servers = List.copyOf(variants.keySet());
		body.set("servers_measured", body.arrayNode().addAll(servers.stream().map(body::textNode).toList()));
		body.put("gateway_prefix", String.join(" ", prefix));
		body.put("engine_prefix", String.join(" ", enginePrefix));
		body.put("client_cpus", Runtime.getRuntime().availableProcessors());
		List<AutoCloseable> children = new ArrayList<>();
		try {
			ChildJvm engine = ChildJvm.start("engine double", enginePrefix, List.of("-Xmx512m", "-XX:+UseSerialGC"),
					"dev.fakbattery.engine.Main",
					List.of("--dialect", "vllm", "--port", "0", "--model", MODEL, "--timing", "instant"),
					logs.resolve("cost-engine-double.log"));
			children.add(engine);
			body.put("engine_double", engine.announcement() + " (own JVM, -Xmx512m, serial GC, instant timing)");
			Map<String, Front> gateways = new LinkedHashMap<>();
			for (String server : servers) {
				List<String> flags = variants.get(server);
				Path log = logs.resolve("cost-gateway-" + server + ".log");
				if (CMD.equals(server)) {
					gateways.put(server, command(template.orElseThrow(), prefix, engine.baseUrl(), log, children));
					continue;
				}
				ChildJvm gateway = FLOOR.equals(server)
						? ChildJvm.start("netty proxy floor " + flags, prefix, flags, NettyProxyFloor.class.getName(),
								List.of("--upstream", engine.baseUrl(), "--port", "0"), log)
						: ChildJvm.start("reference gateway " + server + " " + flags, prefix, flags, "dev.fakbattery.gateway.Main",
								List.of("--upstream", engine.baseUrl(), "--port", "0", "--server", server.replaceFirst("-zgc$", "")), log);
				children.add(gateway);
				gateways.put(server, new Front(gateway.baseUrl(), gateway.announcement(), () -> ProcessCpu.seconds(gateway.pid())));
			}
			measure(body, engine, gateways, warmupBatches, rounds);
		}
		finally {
			for (AutoCloseable child : children.reversed()) {
				child.close();
			}
		}
		Path file = artifact.write(config);
		System.out.println("[bench] wrote " + file);
		assertThat(body.path("servers")).hasSize(servers.size());
	}

	/** The words of a {@code cost.*.prefix} parameter, split at spaces; none when unset. */
	static List<String> prefix(HarnessConfig config, String name) {
		return config.string(name).map(p -> List.of(p.split("\\s+"))).orElse(List.of());
	}

	/** {@code -Dname='words'} for the reproduce command; empty when there are none. */
	static String prefixArgument(String name, List<String> prefix) {
		return prefix.isEmpty() ? "" : " -D" + name + "='" + String.join(" ", prefix) + "'";
	}

	/**
	 * {@code -Dgateway.cmd=...} for the reproduce command: a path under the repository {@code root} written as
	 * {@code $PWD/...} (then in double quotes, so that the shell expands it), else the template as given, in single quotes.
	 */
	static String commandArgument(String template, Path root) {
		String prefix = root.toAbsolutePath().normalize() + "/";
		return template.contains(prefix) && !template.contains("\"") && !template.contains("$")
				? " -D" + HarnessConstants.GATEWAY_CMD + "=\"" + template.replace(prefix, "$PWD/") + "\""
				: " -D" + HarnessConstants.GATEWAY_CMD + "='" + template + "'";
	}

	/**
	 * Each HTTP front with the JVM's default collector (G1), the JDK front once more with ZGC, whose pauses stay
	 * under a millisecond (G1's young pauses, 3.6 to 7.5 ms every few seconds, were the largest single cost in the
	 * profile), and {@link #FLOOR}: what any gateway costs here at the least.
	 */
	static Map<String, List<String>> variants() {
		Map<String, List<String>> variants = new LinkedHashMap<>();
		HttpFront.names().forEach(name -> variants.put(name, List.of("-Xmx512m")));
		variants.put("jdk-zgc", List.of("-Xmx512m", "-XX:+UseZGC"));
		variants.put(FLOOR, List.of("-Xmx512m"));
		return variants;
	}

	/**
	 * The variants {@code cost.servers} names (comma-separated, in its order), every one when unset; {@link #CMD} among
	 * them only when {@code command} ({@code gateway.cmd} is set).
	 *
	 * @throws IllegalArgumentException naming the parameter, the value and the choices
	 */
	static Map<String, List<String>> variants(Optional<String> named, boolean command) {
		Map<String, List<String>> all = variants();
		if (command) {
			all.put(CMD, List.of());
		}
		if (named.isEmpty()) {
			return all;
		}
		Map<String, List<String>> chosen = new LinkedHashMap<>();
		for (String name : named.get().split(",")) {
			List<String> flags = all.get(name.strip());
			if (flags == null && CMD.equals(name.strip())) {
				throw new IllegalArgumentException(HarnessConstants.COST_SERVERS + " names " + CMD + " but " + HarnessConstants.GATEWAY_CMD
						+ " is unset: give the gateway's command template, e.g. -D" + HarnessConstants.GATEWAY_CMD
						+ "='my-gateway --port {port} --upstream {upstream}'");
			}
			if (flags == null) {
				throw new IllegalArgumentException("Unable to parse " + HarnessConstants.COST_SERVERS + " value [" + named.get()
						+ "]: use a comma-separated list of " + all.keySet() + ", e.g. -D" + HarnessConstants.COST_SERVERS + "=jdk,netty");
			}
			chosen.put(name.strip(), flags);
		}
		return chosen;
	}

	/** The reference gateway's valid front with the lowest added p99 estimate (no floor, no cmd); null when none is valid. */
	static String faster(ArrayNode rows) {
		String faster = null;
		double best = Double.POSITIVE_INFINITY;
		for (JsonNode row : rows) {
			boolean front = !row.path("floor").asBoolean() && !CMD.equals(row.path("server").asText());
			if (front && row.path("valid").asBoolean() && row.path("added_p99_ms").asDouble() < best) {
				best = row.path("added_p99_ms").asDouble();
				faster = row.path("server").asText();
			}
		}
		return faster;
	}

	/**
	 * The {@link #CMD} variant: {@code gateway.cmd} rendered ({@code {port}} a free port, {@code {upstream}} the double,
	 * {@code {model}} {@value #MODEL}, {@code {engine}} {@code vllm}), the prefix's words before it, started and
	 * health-checked as the wire kit starts it; its CPU is the process tree's.
	 */
	private Front command(String template, List<String> prefix, String upstream, Path log, List<AutoCloseable> children) {
		ManagedProcess process = ManagedProcess.startOnFreePort(HarnessConstants.GATEWAY_CMD,
				port -> String.join(" ", prefix) + (prefix.isEmpty() ? "" : " ")
						+ GatewayLauncher.command(template, port, URI.create(upstream), MODEL, Dialect.VLLM),
				port -> log, port -> List.of(URI.create("http://127.0.0.1:" + port + "/healthz"),
						URI.create("http://127.0.0.1:" + port + "/v1/models")),
				Duration.ofSeconds(config.get(ConfigKeys.GATEWAY_START_TIMEOUT_SEC)));
		children.add(process);
		String root = "http://127.0.0.1:" + process.port();
		return new Front(root + "/v1", process.description(), process::cpuSeconds);
	}

	/** A started gateway: where it listens, how it announced itself, and its CPU seconds so far. */
	record Front(String baseUrl, String announcement, DoubleSupplier cpuSeconds) {
	}

	private void measure(ObjectNode body, ChildJvm engine, Map<String, Front> gateways, int warmupBatches, int rounds) {
		Map<String, TargetClient> clients = new LinkedHashMap<>();
		try (TargetClient raw = TargetClient.open("raw", URI.create(engine.baseUrl()))) {
			Map<String, DoubleSupplier> cpu = new LinkedHashMap<>();
			gateways.forEach((server, gateway) -> {
				clients.put(server, TargetClient.open("gateway " + server, URI.create(gateway.baseUrl())));
				cpu.put(server, gateway.cpuSeconds());
			});
			HttpUpstreamLag lag = new HttpUpstreamLag(URI.create(engine.baseUrl().replaceFirst("/v1$", "")));
			CostRun run = new CostRun(raw, clients, cpu, ChatPayload.nonStreaming(MODEL, "hi", 16), lag, TaxSettings.SEED, warmupBatches,
					rounds);
			run.warmUp();
			JsonNumbers.put(body, "load_average_after_warmup", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), 2);
			Map<String, CostRun.Arms> arms = run.measure();
			ArrayNode rows = body.putArray("servers");
			for (Map.Entry<String, CostRun.Arms> entry : arms.entrySet()) {
				CostComparison comparison = new CostComparison(entry.getKey(), gateways.get(entry.getKey()).announcement(),
						entry.getValue());
				ObjectNode row = rows.addObject();
				comparison.writeTo(row, TaxSettings.SEED);
				boolean floor = FLOOR.equals(entry.getKey());
				row.put("floor", floor);
				if (floor) {
					row.put("what", NettyProxyFloor.WHAT);
				}
				String ratio = "";
				if (arms.containsKey(CMD) && !CMD.equals(entry.getKey())) {
					ConfidenceInterval cpuRatio = CpuRatio.ratio(entry.getKey(), entry.getValue(), CMD, arms.get(CMD), TaxSettings.SEED);
					CpuRatio.writeTo(row, cpuRatio);
					ratio = " (" + CpuRatio.words(cpuRatio) + ")";
				}
				boolean valid = row.path("valid").asBoolean();
				JsonNode numbers = valid ? row : row.path("not_a_result");
				System.out.printf("[bench] %s: added p50 %s ms %s, p99 %s ms %s, CPU %s ms per request%s, %s%n", entry.getKey(),
						numbers.path("added_p50_ms"), numbers.path("added_p50_ms_ci95"), numbers.path("added_p99_ms"),
						numbers.path("added_p99_ms_ci95"), row.path("gateway_cpu_ms_per_request"), ratio,
						valid ? "valid" : "NOT A RESULT, " + row.path("pending").asText());
			}
			body.put("cpu_ratio_method", CpuRatio.METHOD);
			body.put("cpu_ratio_denominator", arms.containsKey(CMD) ? gateways.get(CMD).announcement() : null);
			if (!arms.containsKey(CMD)) {
				body.put("cpu_ratio_not_measured", "no " + CMD + " server in this run: for the ratio to nginx add " + CMD + " and its "
						+ "command, e.g. -D" + HarnessConstants.COST_SERVERS + "=jdk," + CMD + " -D" + HarnessConstants.GATEWAY_CMD
						+ "=\"$PWD/tools/nginx-floor/nginx-floor.sh {port} {upstream}\"");
			}
			body.put("faster", faster(rows));
			body.put("faster_rule", "the reference gateway's valid front with the lowest added p99 estimate (neither the floor nor "
					+ CMD + "); null when none is valid");
			body.put("floor_rule", "the " + FLOOR + " row is no gateway but the least one costs here: when its target_met_whole_ci is "
					+ "not true, this run did not show the target even for that least, so it could not for a gateway");
		}
		finally {
			clients.values().forEach(TargetClient::close);
		}
	}
}
