package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.JsonNumbers;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On-demand benches of the harness and the reference gateway against the engine double; each writes
 * its artifact into {@code experiments.dir} (default {@code experiments/embedded}) and records its
 * target beside the measurement, never asserting a number. Not part of any profile: the class name
 * does not match Surefire's includes and it is tagged {@code bench}. Run:
 *
 * <pre>
 * ./mvnw -B -pl bench-tests -am verify -Dtest=GatewayOverheadBench -Dsurefire.failIfNoSpecifiedTests=false
 * ./mvnw -B -pl bench-tests -am verify -Dtest='GatewayOverheadBench#aaNoiseFloor' -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * The gateway's added latency at 1,000 requests/s, each process in its own JVM, is {@link GatewayCostBench}.
 */
@Tag("bench")
@DisplayName("gateway and harness overhead benches (engine double)")
class GatewayOverheadBench {

	static final String COMMAND = "./mvnw -B -pl bench-tests -am verify -Dtest=GatewayOverheadBench -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int OVERHEAD_REQUESTS = 3_000;

	private static final int OVERHEAD_WARMUP = 3_000;

	private final HarnessConfig config = HarnessConfig.fromSystemProperties();

	private final TaxSettings battery = BenchArtifact.batterySettings(config);

	@Test
	@DisplayName("A/A noise floor: raw vs raw latency_tax at concurrency 1 (8 samples per arm, ABBA) and 64 (sweep level)")
	void aaNoiseFloor() throws IOException {
		BenchArtifact artifact = new BenchArtifact("fak-battery.aa-noise-floor.v1", "aa-noise-floor.json", COMMAND + "#aaNoiseFloor");
		artifact.body().put("target", "A/A latency_tax 95% CI within [0.99, 1.01]");
		ArrayNode rows = artifact.body().putArray("levels");
		try (EmbeddedUpstream up = EmbeddedUpstream.start(config, TimingModel.defaults(), EmbeddedUpstream.SPIN_FEW_STREAMS);
				TargetClient a = client("raw", up);
				TargetClient b = client("raw_b", up)) {
			ChatPayload payload = payload(up);
			InterleavingRunner.warmUp(a, RequestSource.fixed(payload), 16);
			InterleavingRunner.warmUp(b, RequestSource.fixed(payload), 16);
			up.lag().reset();
			InterleavingRunner.Arms arms = InterleavingRunner.run(a, b, RequestSource.fixed(payload), battery.count(), battery.seed(),
					Progress.silent());
			ConfidenceInterval tax = BootstrapCi.seeded(battery.seed())
					.ratioOfMedians(new ArmReport("b", arms.b()).latencyS(),
							new ArmReport("a", arms.a()).latencyS());
			ObjectNode one = rows.addObject()
					.put("concurrency", 1)
					.put("method", "tax witness: ABBA sequential, per-request CI")
					.put("samples_per_arm", battery.count());
			writeAa(one, tax, up.lag().read());
		}
		try (EmbeddedUpstream up = EmbeddedUpstream.start(config, TimingModel.defaults(), Duration.ZERO);
				TargetClient a = client("raw", up);
				TargetClient b = client("raw_b", up)) {
			Progress progress = Progress.start("bench", "A/A c=64", 2L * (SweepLevel.warmupRequests(64) + battery.sweepRequests(64)));
			SweepLevel level = SweepLevel.measure(a, b, RequestSource.fixed(payload(up)), 64, battery,
					Optional.of(up.lag()), URI.create(up.engine().baseUrl()), progress);
			progress.finish();
			ObjectNode row = rows.addObject()
					.put("concurrency", 64)
					.put("method",
							"sweep level: " + battery.sweepBatchesPerArm(64) + " ABBA batches per arm; latency_tax CI over requests, "
									+ "ratio CI over batches")
					.put("samples_per_arm", level.a().outcomes().size());
			writeAa(row, level.latencyTax(), level.lag().orElseThrow());
			JsonNumbers.put(row, "throughput_ratio", level.ratio().estimate(), 4);
			JsonNumbers.putPair(row, "throughput_ratio_ci95", level.ratio().lo(), level.ratio().hi(), 4);
			// the sweep is judged on its batch ratio, the statistic it reports, not on the per-request latency interval
			row.put("target_met", TaxReport.withinOnePercent(level.ratio()));
			row.set("level", level.toJson("raw", "raw_b"));
		}
		assertWritten(artifact.write(config), rows, 2);
	}

	@Test
	@DisplayName("harness client overhead per streamed request: against a canned server and against the instant double")
	void clientOverhead() throws IOException {
		BenchArtifact artifact = new BenchArtifact("fak-battery.harness-client-overhead.v1", "harness-client-overhead.json",
				COMMAND + "#clientOverhead");
		ObjectNode body = artifact.body();
		body.put("definition", "client_overhead_upper_bound_ms = p50 E2EL of a streamed 1-token request (role, token, usage, "
				+ "[DONE]), sequential, after " + OVERHEAD_WARMUP + " warm-up requests, against a canned server that writes "
				+ "pre-built bytes (no per-request JSON): the client's request build, send, SSE parse and timing, plus "
				+ "loopback TCP both ways and a socket read/write on the server, so the client's own share is at most this. "
				+ "instant_double_e2el_p50_ms is the same request against the engine double (TimingModel.instant(): its JDK "
				+ "HTTP server and handling added). per_chunk_upper_bound_ms = p50 ITL of 64-token streams from the instant "
				+ "double: its write plus the client's read and parse of one chunk.");
		body.put("target", "client overhead p50 <= 0.2 ms per streamed request");
		try (CannedSseServer canned = new CannedSseServer();
				TargetClient client = TargetClient.open("canned", canned.baseUrl())) {
			closed(client, ChatPayload.streaming("m", "hi", 1), 1, OVERHEAD_WARMUP);
			LoadSummary one = closed(client, ChatPayload.streaming("m", "hi", 1), OVERHEAD_REQUESTS, 0);
			one.writeTo(body.putObject("canned_server_one_token"));
			JsonNumbers.put(body, "client_overhead_upper_bound_ms", one.e2el().p50(), 4);
			body.put("target_met", one.e2el().p50() <= 0.2);
		}
		try (EmbeddedUpstream up = EmbeddedUpstream.start(config, TimingModel.instant(), Duration.ZERO);
				TargetClient raw = client("raw", up)) {
			LoadSummary one = closed(raw, ChatPayload.streaming(up.engine().model(), "hi", 1), OVERHEAD_REQUESTS, OVERHEAD_WARMUP);
			LoadSummary many = closed(raw, ChatPayload.streaming(up.engine().model(), "hi", 64), 500, 100);
			one.writeTo(body.putObject("instant_double_one_token"));
			many.writeTo(body.putObject("instant_double_sixty_four_tokens"));
			JsonNumbers.put(body, "instant_double_e2el_p50_ms", one.e2el().p50(), 4);
			JsonNumbers.put(body, "per_chunk_upper_bound_ms", many.itl().p50(), 4);
			up.lag().read().writeTo(body.putObject("engine_double_lag"));
		}
		assertWritten(artifact.write(config), body.path("canned_server_one_token"), -1);
	}

	@Test
	@DisplayName("reference gateway streaming throughput ratio at concurrency 1, 8, 64, 128, 256")
	void streamingRatio() throws IOException {
		BenchArtifact artifact = new BenchArtifact("fak-battery.gateway-overhead.v1", "gateway-overhead.json", COMMAND + "#streamingRatio");
		artifact.body().put("target", "gateway/raw streaming throughput ratio >= 0.99 at each level");
		artifact.body().put("timing", "TimingModel.defaults(): 2 ms TTFT, 1 ms ITL x (1 + 0.05 x (active - 1)), engine-paced");
		artifact.body().put("ratio_method", SweepLevel.RATIO_METHOD);
		ArrayNode rows = artifact.body().putArray("levels");
		try (EmbeddedUpstream up = EmbeddedUpstream.start(config, TimingModel.defaults(), Duration.ZERO);
				GatewayUnderTest gateway = GatewayLauncher.embedded(URI.create(up.engine().baseUrl()), Dialect.VLLM);
				TargetClient raw = client("raw", up);
				TargetClient gw = TargetClient.open("gateway", gateway.baseUrl())) {
			// the JIT before the first level, as a sweep's steady warm-up does: a level warms one wave only
			InterleavingRunner.warmUp(raw, RequestSource.fixed(payload(up)), 16);
			InterleavingRunner.warmUp(gw, RequestSource.fixed(payload(up)), 16);
			for (int c : List.of(1, 8, 64, 128, 256)) {
				int requests = battery.sweepRequests(c);
				Progress progress = Progress.start("bench", "gateway ratio c=" + c, 2L * (SweepLevel.warmupRequests(c) + requests));
				SweepLevel level = SweepLevel.measure(raw, gw, RequestSource.fixed(payload(up)), c, battery,
						Optional.of(up.lag()), URI.create(up.engine().baseUrl()), progress);
				progress.finish();
				ObjectNode row = level.toJson("raw", "gateway");
				row.put("target_met", level.ratio().estimate() >= 0.99);
				rows.add(row);
			}
		}
		assertWritten(artifact.write(config), rows, 5);
	}

	private static LoadSummary closed(TargetClient client, ChatPayload payload, int requests, int warmup) {
		return LoadSummary.of(LoadRunner.run(client, payload, new ClosedLoop(1, requests, warmup, Duration.ofMinutes(3)),
				Progress.silent()), Optional.empty());
	}

	private static void writeAa(ObjectNode row, ConfidenceInterval tax, UpstreamLag.Reading lag) {
		JsonNumbers.put(row, "latency_tax", tax.estimate(), 4);
		JsonNumbers.putPair(row, "latency_tax_ci95", tax.lo(), tax.hi(), 4);
		row.put("target_met", tax.isDefined() && tax.lo() >= 0.99 && tax.hi() <= 1.01);
		lag.writeTo(row.putObject("engine_double_lag"));
	}

	private static ChatPayload payload(EmbeddedUpstream up) {
		return ChatPayload.streaming(up.engine().model(), ChatPayload.COUNTING_PROMPT, TaxSettings.MAX_TOKENS);
	}

	private static TargetClient client(String name, EmbeddedUpstream up) {
		return TargetClient.open(name, URI.create(up.engine().baseUrl()), Map.of(), TargetClient.DEFAULT_RESPONSE_TIMEOUT);
	}

	private static void assertWritten(Path file, com.fasterxml.jackson.databind.JsonNode measured, int rows) {
		assertThat(file).isRegularFile();
		if (rows >= 0) {
			assertThat(measured).hasSize(rows);
		}
		else {
			assertThat(measured.isObject()).isTrue();
		}
		System.out.println("[bench] wrote " + file);
	}
}
