package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.ClientLagProbe;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.metrics.MetricsScrape;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.JsonNumbers;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The load client's own ceiling: how many streams it holds, how many events per second it reads and how late its own
 * threads run (client lag p99, goal <= 1 ms at 512 streams), against the engine double in another JVM
 * ({@code java -jar engine-double/target/engine-double.jar}), so the double's work does not share the client's JIT,
 * GC and carriers. Paced at 100 ms to the first token and 50 ms per token with no batching slowdown (20 events per
 * stream per second), 32 tokens per request, four rounds per level after two warm-up rounds, after a reading of the
 * lag probe with no load at all (the machine's floor), after a JIT warm-up of 8 rounds of 64 streams. Records the client
 * JVM's CPU time per token event and per request, and beside each level the same streams read by a bare Netty event
 * loop ({@link NettyReadFloor}): what reading them costs this machine at the least. Writes
 * {@code harness-client-ceiling.json} into {@code experiments.dir}; the goal is recorded beside the readings, never
 * asserted. On demand, in no profile:
 *
 * <pre>
 * ./mvnw -B -pl bench-tests -am verify -Dtest=ClientCeilingBench -Dsurefire.failIfNoSpecifiedTests=false [-Dsweep.concurrency=64,256,512,1024]
 * </pre>
 */
@Tag("bench")
@DisplayName("harness client ceiling against an out-of-process engine double")
class ClientCeilingBench {

	static final String COMMAND = "./mvnw -B -pl bench-tests -am verify -Dtest=ClientCeilingBench -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int TOKENS = 32;

	private static final int IDLE_SECONDS = 5;

	/** A warm-up before the first level, so that no level measures the JIT compiling the client: 8 rounds of 64 streams. */
	private static final int JIT_WARMUP_STREAMS = 64;

	private static final int JIT_WARMUP_ROUNDS = 8;

	/** Seconds each level's Netty floor is measured, after 3 s of its own warm-up ({@link NettyReadFloor}). */
	private static final int FLOOR_SECONDS = 6;

	private final HarnessConfig config = HarnessConfig.fromSystemProperties();

	@Test
	@DisplayName("streams held, events per second and client lag p99 at 64, 256, 512 and 1024 streams")
	void ceiling() throws Exception {
		List<Integer> levels = config.positiveInts(HarnessConstants.SWEEP_CONCURRENCY, List.of(64, 256, 512, 1024));
		BenchArtifact artifact = new BenchArtifact("fak-battery.harness-client-ceiling.v1", "harness-client-ceiling.json", COMMAND
				+ " -D" + HarnessConstants.SWEEP_CONCURRENCY + "="
				+ levels.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))
				+ BenchArtifact.experimentsDirArgument(config));
		ObjectNode body = artifact.body();
		body.put("simulated", "the load client against the engine double in its own JVM on this machine: numbers about the client");
		body.put("goal", "client lag p99 <= 1000 us at 512 streams");
		body.put("double", "java -jar engine-double.jar --timing instant --ttft-ms 100 --itl-ms 50 --batch-alpha 0 (own JVM, serial GC); "
				+ TOKENS + " tokens per request: 20 token events per stream per second");
		body.put("jit_warmup", "before the first level: " + JIT_WARMUP_ROUNDS + " rounds of " + JIT_WARMUP_STREAMS
				+ " streams on their own connections (about 13 s), so no level measures the JIT compiling the client; then "
				+ IDLE_SECONDS + " s of the lag probe with no load (idle_client_lag)");
		body.put("client_cpu", "this JVM's CPU time (OperatingSystemMXBean.getProcessCpuTime: load client, lag probe, metrics scraper, "
				+ "GC, JIT) over each level's measured phase; per event above idle subtracts idle_client_cpu_cores (the probe and the "
				+ "JVM's own background) over the same time");
		body.put("per_level", "closed loop at c streams: 2c warm-up requests (opens the connections, warms the JIT), then 4c measured "
				+ "requests (about 6.6 s); then netty_floor: the same c streams read by one bare Netty event loop that only splits "
				+ "them into SSE events and parses each chunk's JSON, 3 s warm-up, " + FLOOR_SECONDS + " s measured, its loop's lag "
				+ "probed every 1 ms (after a first floor run of " + JIT_WARMUP_STREAMS + " streams for its JIT)");
		ArrayNode rows = body.putArray("levels");
		Path jar = ProcessUpstream.jar(config).orElseThrow(() -> new IllegalStateException(ProcessUpstream.JAR + " is not built"));
		String javaBin = ChildJava.executable();
		try (ManagedProcess process = ManagedProcess.startOnFreePort("engine double", port -> "'" + javaBin + "' -XX:+UseSerialGC -jar '"
				+ jar + "' --dialect vllm --port " + port + " --model m --timing instant --ttft-ms 100 --itl-ms 50 --batch-alpha 0",
				port -> config.experimentsDir().resolve("logs").resolve("ceiling-double-" + port + ".log"),
				port -> List.of(URI.create("http://127.0.0.1:" + port + "/health")), Duration.ofSeconds(60))) {
			URI root = URI.create("http://127.0.0.1:" + process.port());
			HttpUpstreamLag lag = new HttpUpstreamLag(root);
			ChatPayload payload = ChatPayload.streaming("m", ChatPayload.COUNTING_PROMPT, TOKENS);
			try (TargetClient warm = TargetClient.open("warm-up", URI.create(root + "/v1"), java.util.Map.of(), Duration.ofSeconds(120))) {
				LoadRunner.run(warm, payload, new ClosedLoop(JIT_WARMUP_STREAMS, JIT_WARMUP_ROUNDS * JIT_WARMUP_STREAMS, 0,
						Duration.ofMinutes(2)), Progress.start("bench", "JIT warm-up", (long) JIT_WARMUP_ROUNDS * JIT_WARMUP_STREAMS));
			}
			double idleCores = idleFloor(body);
			NettyReadFloor jitWarmup = new NettyReadFloor(root, payload);
			jitWarmup.run(JIT_WARMUP_STREAMS, Duration.ofSeconds(2), Duration.ofSeconds(FLOOR_SECONDS), body.objectNode());
			try (TargetClient client = TargetClient.open("raw", URI.create(root + "/v1"), java.util.Map.of(), Duration.ofSeconds(120))) {
				for (int c : levels) {
					rows.add(level(client, payload, c, lag, root, idleCores));
				}
			}
		}
		Path file = artifact.write(config);
		System.out.println("[bench] wrote " + file);
		assertThat(rows).hasSize(levels.size());
	}

	/**
	 * The probe's reading with no load at all, for {@value #IDLE_SECONDS} s: the floor this machine's timers and
	 * scheduler set under every level's reading.
	 */
	private static double idleFloor(ObjectNode body) throws InterruptedException {
		try (ClientLagProbe probe = ClientLagProbe.start()) {
			long cpuBefore = processCpuNanos();
			Thread.sleep(IDLE_SECONDS * 1_000L);
			double idleCores = (processCpuNanos() - cpuBefore) / 1e9 / IDLE_SECONDS;
			ClientLag idle = probe.read();
			ObjectNode floor = body.putObject("idle_client_lag");
			floor.put("seconds", IDLE_SECONDS);
			idle.writeTo(floor);
			JsonNumbers.put(body, "idle_client_cpu_cores", idleCores, 3);
			System.out.printf("[bench] idle (no streams): client lag %s, client CPU %.3f cores%n", idle, idleCores);
			return idleCores;
		}
	}

	/** CPU time of this JVM (every thread: load client, lag probe, GC, JIT), in ns. */
	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
	}

	private static ObjectNode level(TargetClient client, ChatPayload payload, int c, HttpUpstreamLag lag, URI root, double idleCores)
			throws Exception {
		double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		LoadRunner.run(client, payload, new ClosedLoop(c, 2 * c, 0, Duration.ofMinutes(2)), Progress.silent());
		lag.reset();
		AtomicLong held = new AtomicLong();
		AtomicBoolean running = new AtomicBoolean(true);
		Thread watcher = Thread.ofVirtual().start(() -> {
			while (running.get()) {
				MetricsScrape.of(URI.create(root + "/v1"))
						.sum("vllm:num_requests_running")
						.ifPresent(v -> held.accumulateAndGet((long) v, Math::max));
				try {
					Thread.sleep(250);
				}
				catch (InterruptedException e) {
					return;
				}
			}
		});
		long cpuBefore = processCpuNanos();
		LoadResult result = LoadRunner.run(client, payload, new ClosedLoop(c, 4 * c, 0, Duration.ofMinutes(3)),
				Progress.start("bench", "client ceiling c=" + c, 4L * c));
		double cpuMs = (processCpuNanos() - cpuBefore) / 1e6;
		running.set(false);
		watcher.join();
		UpstreamLag.Reading doubleLag = lag.read();
		long chunks = result.ok().stream().mapToLong(o -> o.itlMs().length + 1).sum();
		ObjectNode row = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
		row.put("streams", c);
		row.put("streams_held_peak", held.get());
		row.put("requests", result.outcomes().size());
		row.put("failed", result.failed().size());
		JsonNumbers.put(row, "duration_s", result.durationS(), 3);
		JsonNumbers.put(row, "token_events_per_s", chunks / result.durationS(), 1);
		JsonNumbers.put(row, "client_cpu_cores", cpuMs / 1e3 / result.durationS(), 3);
		JsonNumbers.put(row, "client_cpu_us_per_event", cpuMs * 1e3 / chunks, 1);
		double aboveIdle = (cpuMs - idleCores * result.durationS() * 1e3) * 1e3 / chunks;
		JsonNumbers.put(row, "client_cpu_us_per_event_above_idle", aboveIdle, 1);
		result.clientLag().writeTo(row.putObject("client_lag"));
		doubleLag.writeTo(row.putObject("engine_double_lag"));
		JsonNumbers.put(row, "client_cpu_ms_per_request", cpuMs / result.outcomes().size(), 3);
		row.put("client_lag_goal_met", result.clientLag().withinLimit());
		row.put("valid", result.clientLag().withinLimit() && doubleLag.withinLimit() && result.failed().isEmpty());
		JsonNumbers.put(row, "load_average_before", loadBefore, 2);
		JsonNumbers.put(row, "load_average_after", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), 2);
		LoadSummary.of(result, Optional.empty()).writeTo(row.putObject("summary"));
		((ObjectNode) row.path("summary")).remove(List.of("tokens", "tool_calls"));
		System.out.printf(
				"[bench] c=%d held %d, %.0f events/s, client CPU %.1f us/event above idle, client lag %s, double lag %s, failed %d%n",
				c, held.get(), chunks / result.durationS(), aboveIdle, result.clientLag(), doubleLag, result.failed().size());
		ObjectNode floor = row.putObject("netty_floor");
		new NettyReadFloor(root, payload).run(c, Duration.ofSeconds(3), Duration.ofSeconds(FLOOR_SECONDS), floor);
		System.out.printf(
				"[bench] c=%d client %.3f cores, %s ms CPU/request; netty floor %s cores, %s ms CPU/request, loop lag p99 %s us, failed %s%n",
				c, cpuMs / 1e3 / result.durationS(), row.path("client_cpu_ms_per_request"), floor.path("cpu_cores"),
				floor.path("cpu_ms_per_request"),
				floor.path("loop_lag").path("p99_us"), floor.path("failed"));
		return row;
	}

}
