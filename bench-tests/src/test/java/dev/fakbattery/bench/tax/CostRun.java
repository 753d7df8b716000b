package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.load.ArrivalSchedule;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.OpenLoop;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.Interleaving;

/**
 * The load of the gateway cost bench: open-loop Poisson arrivals at {@value #RATE} requests/s in batches of
 * {@value #PER_BATCH}, raw engine against each gateway server in ABBA/BAAB blocks ({@link Interleaving#abba}), one
 * block per server per round, the servers' order alternating round by round, the engine double's lag read per block.
 * Each A batch is paired with the B batch in the same half of its block, so a block gives two pairs.
 */
final class CostRun {

	static final double RATE = 1_000.0;

	static final int PER_BATCH = 1_000;

	/** Rounds (blocks per server) unless {@code cost.rounds} says otherwise: its default. */
	static final int ROUNDS = ConfigKeys.COST_ROUNDS.defaultValue().orElseThrow();

	/**
	 * Warm-up batches per target before the first measured one (opens connections, lets the JITs compile), unless
	 * {@code cost.warmup.batches} says otherwise: its default. With 6 (the default until 2026-12-01) the gateway's JIT
	 * had not finished, on a core of its own it used 0.46 ms of CPU per request, after 40 batches 0.28 to 0.32 ms.
	 */
	static final int WARMUP_BATCHES = ConfigKeys.COST_WARMUP_BATCHES.defaultValue().orElseThrow();

	static String method(int warmupBatches, int rounds) {
		return "open loop, Poisson arrivals at 1000 req/s, non-stream, batches of " + PER_BATCH + " requests; "
				+ warmupBatches + " warm-up batches per target, then " + rounds + " rounds, each one ABBA or BAAB block (seeded) of raw "
				+ "engine (A) against each gateway server (B), the servers' order alternating round by round; each block's A batch is "
				+ "paired with the B batch of the same half, so each server has " + 2 * rounds + " raw/gateway batch pairs; the engine "
				+ "double's lag is reset before and read after each block";
	}

	private final TargetClient raw;

	private final Map<String, TargetClient> gateways;

	private final Map<String, DoubleSupplier> cpu;

	private final ChatPayload payload;

	private final UpstreamLag lag;

	private final long seed;

	private final int warmupBatches;

	private final int rounds;

	private long batchSeed;

	/** @param cpu each gateway server's CPU seconds so far, read around its batches */
	CostRun(TargetClient raw, Map<String, TargetClient> gateways, Map<String, DoubleSupplier> cpu, ChatPayload payload, UpstreamLag lag,
			long seed,
			int warmupBatches, int rounds) {
		this.warmupBatches = warmupBatches;
		this.rounds = rounds;
		this.raw = raw;
		this.gateways = gateways;
		this.cpu = cpu;
		this.payload = payload;
		this.lag = lag;
		this.seed = seed;
		this.batchSeed = seed;
	}

	/**
	 * What one server's comparison measured: its batches in run order, pair by pair, the double's lag per block, and
	 * the CPU seconds its gateway process used during each of its gateway batches, in the order of {@code gateway}
	 * (after minus before: {@code NaN} where either reading was missing, negative where the reading went backwards).
	 */
	record Arms(List<LoadResult> raw, List<LoadResult> gateway, List<String> blocks, List<UpstreamLag.Reading> doubleLag,
			List<Double> gatewayCpuS) {
	}

	void warmUp() {
		List<TargetClient> all = new ArrayList<>();
		all.add(raw);
		all.addAll(gateways.values());
		for (int i = 0; i < warmupBatches; i++) {
			for (TargetClient target : all) {
				batch(target, Progress.silent());
			}
		}
	}

	/** @return per server, in the order given, its arms */
	Map<String, Arms> measure() {
		Map<String, Arms> arms = new LinkedHashMap<>();
		Map<String, List<Interleaving.Arm>> schedules = new LinkedHashMap<>();
		long serverSeed = seed;
		for (String server : gateways.keySet()) {
			arms.put(server, new Arms(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
			schedules.put(server, Interleaving.abba(2 * rounds, ++serverSeed));
		}
		List<String> servers = List.copyOf(gateways.keySet());
		for (int round = 0; round < rounds; round++) {
			for (String server : round % 2 == 0 ? servers : servers.reversed()) {
				block(server, schedules.get(server).subList(4 * round, 4 * round + 4), arms.get(server), round);
			}
		}
		return arms;
	}

	private void block(String server, List<Interleaving.Arm> order, Arms arms, int round) {
		lag.reset();
		LoadResult[] rawHalf = new LoadResult[2];
		LoadResult[] gatewayHalf = new LoadResult[2];
		double[] cpuHalf = new double[2];
		for (int slot = 0; slot < 4; slot++) {
			boolean isRaw = order.get(slot) == Interleaving.Arm.A;
			TargetClient target = isRaw ? raw : gateways.get(server);
			double cpuBefore = isRaw ? 0 : cpu.get(server).getAsDouble();
			LoadResult result = batch(target, Progress.start("bench", "cost round " + (round + 1) + "/" + rounds + " " + server + " "
					+ (isRaw ? "raw" : "gateway"), PER_BATCH));
			(isRaw ? rawHalf : gatewayHalf)[slot / 2] = result;
			if (!isRaw) {
				cpuHalf[slot / 2] = cpu.get(server).getAsDouble() - cpuBefore;
			}
		}
		arms.doubleLag().add(lag.read());
		arms.blocks().add(order.stream().map(a -> a == Interleaving.Arm.A ? "A" : "B").reduce("", String::concat));
		for (int half = 0; half < 2; half++) {
			arms.raw().add(rawHalf[half]);
			arms.gateway().add(gatewayHalf[half]);
			arms.gatewayCpuS().add(cpuHalf[half]);
		}
	}

	private LoadResult batch(TargetClient target, Progress progress) {
		OpenLoop spec = new OpenLoop(ArrivalSchedule.poisson(PER_BATCH, RATE, batchSeed++), 0, 0, Duration.ofMinutes(1));
		return LoadRunner.run(target, payload, spec, progress);
	}
}
