package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.load.ArrivalSchedule;
import dev.fakbattery.api.load.ChatPayload;
import dev.fakbattery.api.load.LoadResult;
import dev.fakbattery.api.load.LoadRunner;
import dev.fakbattery.api.load.LoadSummary;
import dev.fakbattery.api.load.OpenLoop;
import dev.fakbattery.api.load.Progress;
import dev.fakbattery.api.load.TargetClient;
import dev.fakbattery.api.stats.Interleaving;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The gateway's added latency under an open loop: Poisson arrivals at {@value #RATE} requests/s,
 * non-stream, in ABBA-ordered batches of {@value #PER_BATCH} requests per arm (4 per arm), each arm's
 * batches merged; p50/p99 E2EL of each arm and their differences, per batch and merged, with the
 * scheduler's lag and the client queue time that show whether the client kept the rate.
 *
 * @param raw the raw arm merged
 * @param gateway the gateway arm merged
 * @param rawBatches the raw arm's batches in run order
 * @param gatewayBatches the gateway arm's batches in run order
 * @param lag the double's lag over the measured batches
 */
record AddedLatency(LoadResult raw, LoadResult gateway, List<LoadResult> rawBatches, List<LoadResult> gatewayBatches,
		UpstreamLag.Reading lag) {

	static final double RATE = 1_000.0;

	static final int PER_BATCH = 2_000;

	static AddedLatency measure(TargetClient raw, TargetClient gateway, ChatPayload payload, long seed, UpstreamLag lag) {
		LoadRunner.run(raw, payload, new OpenLoop(ArrivalSchedule.poisson(1_000, RATE, seed), 0, 500, Duration.ofMinutes(1)),
				Progress.silent());
		LoadRunner.run(gateway, payload, new OpenLoop(ArrivalSchedule.poisson(1_000, RATE, seed), 0, 500, Duration.ofMinutes(1)),
				Progress.silent());
		lag.reset();
		List<LoadResult> rawBatches = new ArrayList<>();
		List<LoadResult> gatewayBatches = new ArrayList<>();
		int batch = 0;
		for (Interleaving.Arm arm : Interleaving.abba(4, seed)) {
			OpenLoop spec = new OpenLoop(ArrivalSchedule.poisson(PER_BATCH, RATE, seed + batch++), 0, 0, Duration.ofMinutes(1));
			boolean isRaw = arm == Interleaving.Arm.A;
			(isRaw ? rawBatches : gatewayBatches).add(LoadRunner.run(isRaw ? raw : gateway, payload, spec,
					Progress.start("bench", "added latency " + (isRaw ? "raw" : "gateway") + " @1000 req/s", PER_BATCH)));
		}
		String mode = "open-loop poisson 1000 req/s, 4 ABBA batches of " + PER_BATCH;
		return new AddedLatency(LoadResult.merge(mode, rawBatches), LoadResult.merge(mode, gatewayBatches), rawBatches,
				gatewayBatches, lag.read());
	}

	void writeTo(ObjectNode body) {
		LoadSummary rawSummary = LoadSummary.of(raw, Optional.empty());
		LoadSummary gatewaySummary = LoadSummary.of(gateway, Optional.empty());
		rawSummary.writeTo(body.putObject("raw"));
		gatewaySummary.writeTo(body.putObject("gateway"));
		double p99 = gatewaySummary.e2el().p99() - rawSummary.e2el().p99();
		double p50 = gatewaySummary.e2el().p50() - rawSummary.e2el().p50();
		JsonNumbers.put(body, "added_p50_ms", p50, 4);
		JsonNumbers.put(body, "added_p99_ms", p99, 4);
		body.put("target_met", p99 <= 1.0);
		ArrayNode batches = body.putArray("batches");
		for (int i = 0; i < rawBatches.size(); i++) {
			LoadSummary r = LoadSummary.of(rawBatches.get(i), Optional.empty());
			LoadSummary g = LoadSummary.of(gatewayBatches.get(i), Optional.empty());
			ObjectNode row = batches.addObject();
			JsonNumbers.put(row, "raw_p99_e2el_ms", r.e2el().p99(), 4);
			JsonNumbers.put(row, "gateway_p99_e2el_ms", g.e2el().p99(), 4);
			JsonNumbers.put(row, "added_p99_ms", g.e2el().p99() - r.e2el().p99(), 4);
			JsonNumbers.put(row, "raw_achieved_rate", rawBatches.get(i).requestThroughput(), 2);
			JsonNumbers.put(row, "gateway_achieved_rate", gatewayBatches.get(i).requestThroughput(), 2);
		}
		lag.writeTo(body.putObject("engine_double_lag"));
	}
}
