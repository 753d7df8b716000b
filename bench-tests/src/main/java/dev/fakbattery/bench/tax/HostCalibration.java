package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The concurrency sweep's host calibration: before its levels, a short probe per planned level (one ABBA block of waves,
 * raw, gateway, gateway, raw, each wave {@code max(c, 2)} requests at concurrency {@code c}) reads the load client's lag
 * and, on the engine double, the double's own, per wave. A level is beyond this host when every wave of its probe read
 * one of them over {@link #MARGIN} times its limit (the client's is the rule of {@link Futility}; each rule's false-stop
 * rate on the recorded lag series is checked): it is not run at full size and stays PENDING_MEASUREMENT with its reading
 * and the fix (a bigger client host, or {@code calibration.force}). The levels are probed from the highest down to the first that reads
 * judgeable; the levels below it are not probed ({@link #inferredJudgeable}): fewer streams at once lag no more. A
 * level is held back only by its own probe. A forced level is probed and runs as without calibration. The probe's
 * requests that fail are judged like the warm-up's ({@link #failures()}).
 *
 * @param levels the reading per planned level, ascending
 * @param duration how long the probes took
 * @since 0.9
 */
record HostCalibration(List<Level> levels, Duration duration) {

	/** How far over a lag limit every wave of a probe must read for its level to be beyond this host: 1.25. */
	static final double MARGIN = Futility.MARGIN;

	/** The double's lag rule: every wave over {@link #MARGIN} times its limit. */
	private static final Futility DOUBLE_RULE = new Futility(MARGIN * UpstreamLag.LIMIT_P99_MICROS);

	HostCalibration {
		levels = List.copyOf(levels);
	}

	/** A level's verdict. */
	enum Verdict {
		/** The probe read both lags within the margin in some wave: the level runs. */
		JUDGEABLE,
		/** Every wave of the probe read a lag over the margin: the level is not run, PENDING_MEASUREMENT. */
		BEYOND_HOST,
		/** Forced by {@code calibration.force}: the level runs whatever the probe read. */
		FORCED
	}

	/**
	 * One level's probe.
	 *
	 * @param concurrency the level
	 * @param raw the raw arm's probe waves in run order
	 * @param gateway the gateway arm's probe waves in run order
	 * @param engineDouble the double's lag over each wave in run order (raw, gateway, gateway, raw); empty on a real engine
	 * @param verdict the verdict
	 * @param reason what the verdict rests on
	 */
	record Level(int concurrency, List<LoadResult> raw, List<LoadResult> gateway, List<UpstreamLag.Reading> engineDouble,
			Verdict verdict, String reason) {

		Level {
			raw = List.copyOf(raw);
			gateway = List.copyOf(gateway);
			engineDouble = List.copyOf(engineDouble);
		}

		/** Whether this level was probed; a level below one that read judgeable is not ({@link #inferredJudgeable}). */
		boolean probed() {
			return !raw.isEmpty();
		}

		ClientLag clientLag() {
			return ClientLag.merge(java.util.stream.Stream.concat(raw.stream(), gateway.stream()).map(LoadResult::clientLag).toList());
		}

		/** {@code c=64: load client lag p99 per wave ...}. */
		String reading() {
			return "c=" + concurrency + ": " + reason;
		}
	}

	/** Probes each of {@code levels} on both arms; {@code forced} levels run whatever they read. */
	static HostCalibration run(TargetClient raw, TargetClient gateway, RequestSource payload, List<Integer> levels, Force forced,
			Duration timeCap, Optional<UpstreamLag> lag, Progress progress) {
		RequestSource probe = index -> payload.conversation(RequestSource.WARMUP_OFFSET / 4 + index);
		return run(levels, forced, (c, force) -> {
			progress.detail("calibrating the host at c=" + c + ": raw, gateway, gateway, raw, one wave of " + probeRequests(c) + " each");
			ClosedLoop wave = new ClosedLoop(c, probeRequests(c), 0, timeCap);
			List<LoadResult> rawWaves = new ArrayList<>();
			List<LoadResult> gatewayWaves = new ArrayList<>();
			List<UpstreamLag.Reading> doubleLag = new ArrayList<>();
			for (boolean first : new boolean[]{ true, false, false, true }) {
				lag.ifPresent(UpstreamLag::reset);
				(first ? rawWaves : gatewayWaves).add(LoadRunner.run(first ? raw : gateway, probe, wave, progress));
				lag.map(UpstreamLag::read).ifPresent(doubleLag::add);
			}
			return judge(c, rawWaves, gatewayWaves, doubleLag, force);
		});
	}

	/** One level's probe: its waves, judged ({@link #judge}). */
	@FunctionalInterface
	interface Prober {
		Level probe(int c, boolean forced);
	}

	/**
	 * The calibration of {@code levels}, recorded ascending. The levels not forced are probed from the highest down
	 * (GuideLLM's order: the far end first) until one reads judgeable; every level below it not forced is judgeable on
	 * that reading, not probed ({@link #inferredJudgeable}). A level beyond the host is so on its own probe, never on
	 * another's: one passing stall of the host holds back the level it hit alone. A forced level is always probed.
	 */
	static HostCalibration run(List<Integer> levels, Force forced, Prober prober) {
		long start = System.nanoTime();
		TreeMap<Integer, Level> read = new TreeMap<>();
		Level held = null; // the highest level not forced whose probe read judgeable
		for (int c : new TreeSet<>(levels).descendingSet()) {
			Level level = forced.covers(c)
					? prober.probe(c, true)
					: held != null ? inferredJudgeable(c, held) : prober.probe(c, false);
			if (held == null && !forced.covers(c) && level.verdict() == Verdict.JUDGEABLE) {
				held = level;
			}
			read.put(c, level);
		}
		return new HostCalibration(List.copyOf(read.values()), Duration.ofNanos(System.nanoTime() - start));
	}

	/**
	 * Level {@code c}, below {@code above}, a level whose probe read judgeable, not probed: fewer streams at once load the
	 * load client and the double no more, so {@code c} is judgeable on that reading. A wrong inference costs time, never a
	 * verdict: the level checks its own lag as it runs (the futility stop, the lag limits of its artifact).
	 */
	static Level inferredJudgeable(int c, Level above) {
		return new Level(c, List.of(), List.of(), List.of(), Verdict.JUDGEABLE, "not probed: c=" + above.concurrency()
				+ " above it is judgeable on this host (c=" + above.concurrency() + ": " + above.reason()
				+ "); its own lag is checked as it runs");
	}

	/** Requests per wave of a level's probe: {@code max(c, 2)}. */
	static int probeRequests(int c) {
		return Math.max(c, 2);
	}

	/** Requests per arm of a level's probe: two waves. */
	static int probeRequestsPerArm(int c) {
		return 2 * probeRequests(c);
	}

	/** The verdict of level {@code c} from its probe waves and the double's lag over each (empty on a real engine). */
	static Level judge(int c, List<LoadResult> raw, List<LoadResult> gateway, List<UpstreamLag.Reading> doubleLag, boolean forced) {
		List<Double> client = java.util.stream.Stream.concat(raw.stream(), gateway.stream()).map(r -> r.clientLag().p99Micros()).toList();
		List<Double> engine = doubleLag.stream().filter(d -> d.count() > 0).map(UpstreamLag.Reading::p99Micros).toList();
		List<String> over = new ArrayList<>();
		if (client.size() == 4 && Futility.DEFAULT.stops(client)) {
			over.add("load client");
		}
		if (engine.size() == 4 && DOUBLE_RULE.stops(engine)) {
			over.add("engine double");
		}
		String readings = "load client lag p99 per wave " + micros(client) + (doubleLag.isEmpty()
				? ""
				: ", engine double lag p99 per wave "
						+ micros(doubleLag.stream().map(UpstreamLag.Reading::p99Micros).toList()))
				+ String.format(Locale.ROOT, " (limit %.0f us; beyond the host when every wave reads over %.0f)",
						ClientLag.LIMIT_P99_MICROS,
						MARGIN * ClientLag.LIMIT_P99_MICROS);
		Verdict verdict = forced ? Verdict.FORCED : over.isEmpty() ? Verdict.JUDGEABLE : Verdict.BEYOND_HOST;
		String why = over.isEmpty() ? readings : readings + "; over the margin in every wave: " + String.join(", ", over);
		return new Level(c, raw, gateway, doubleLag, verdict, forced ? why + "; forced by " + HarnessConstants.CALIBRATION_FORCE : why);
	}

	private static String micros(List<Double> values) {
		return values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).collect(Collectors.joining(", ", "[", "] us"));
	}

	/** Whether level {@code c} runs at full size (judgeable or forced). */
	boolean runs(int c) {
		return levels.stream().filter(l -> l.concurrency() == c).noneMatch(l -> l.verdict() == Verdict.BEYOND_HOST);
	}

	/** The levels beyond this host. */
	List<Level> beyond() {
		return levels.stream().filter(l -> l.verdict() == Verdict.BEYOND_HOST).toList();
	}

	/** The probes' failed requests per arm, judged like a warm-up's. */
	List<ArmFailures> failures() {
		return levels.stream()
				.map(l -> ArmFailures.failures("c=" + l.concurrency() + " calibration",
						l.raw().stream().flatMap(r -> r.outcomes().stream()).toList(),
						l.gateway().stream().flatMap(r -> r.outcomes().stream()).toList()))
				.toList();
	}

	/** The fix for a level beyond this host. */
	static String fix(List<Level> beyond) {
		return "a load client host with more cores (or the engine double and the gateway on other cores: "
				+ "-Dllamacpp.engine.prefix / taskset, see docs/rungs.md#host-calibration-and-futility), or run the level anyway with -D"
				+ HarnessConstants.CALIBRATION_FORCE + "="
				+ beyond.stream().map(l -> String.valueOf(l.concurrency())).collect(Collectors.joining(","));
	}

	/**
	 * {@code method, margin, duration_s, levels[] {concurrency, probed, probe_requests_per_arm, verdict, reason, client_lag,
	 * wave_client_lag_p99_us, wave_engine_double_lag_p99_us, failed}}; a level not probed has no readings of its own.
	 */
	void writeTo(ObjectNode node) {
		node.put("method", "before the levels, per level one ABBA block of waves (raw, gateway, gateway, raw), each max(c, 2) requests "
				+ "at concurrency c; a level whose load client lag p99, or engine double lag p99, reads over " + MARGIN
				+ " x its limit in every wave is beyond this host: not run at full size, PENDING_MEASUREMENT (each rule's "
				+ "false-stop rate checked on the recorded lag series); the levels are probed from the highest down to the first that "
				+ "reads judgeable, and the levels below it are not probed (probed: false), judgeable on its reading (each checks its "
				+ "own lag as it runs); a level is beyond the host on its own probe alone; " + HarnessConstants.CALIBRATION_FORCE
				+ " runs a level anyway");
		node.put("margin", MARGIN);
		JsonNumbers.put(node, "duration_s", duration.toMillis() / 1000.0, 3);
		ArrayNode array = node.putArray("levels");
		for (Level level : levels) {
			ObjectNode item = array.addObject();
			item.put("concurrency", level.concurrency());
			item.put("probed", level.probed());
			item.put("probe_requests_per_arm", level.probed() ? probeRequestsPerArm(level.concurrency()) : 0);
			item.put("verdict", level.verdict().name());
			item.put("reason", level.reason());
			if (!level.probed()) {
				continue;
			}
			level.clientLag().writeTo(item.putObject("client_lag"));
			ArrayNode waves = item.putArray("wave_client_lag_p99_us");
			java.util.stream.Stream.of(level.raw().get(0), level.gateway().get(0), level.gateway().get(1), level.raw().get(1))
					.forEach(w -> JsonNumbers.add(waves, w.clientLag().p99Micros(), 0));
			if (!level.engineDouble().isEmpty()) {
				ArrayNode doubles = item.putArray("wave_engine_double_lag_p99_us");
				level.engineDouble().forEach(d -> JsonNumbers.add(doubles, d.p99Micros(), 1));
			}
			item.put("failed", java.util.stream.Stream.concat(level.raw().stream(), level.gateway().stream())
					.mapToInt(r -> r.failed().size() + r.notSent())
					.sum());
		}
	}

	/**
	 * What {@code calibration.force} and {@code calibration.force.rates} name: sweep levels, the tax witness and rate sweep
	 * rates that run whatever the calibration reads and never stop for futility.
	 *
	 * @param all every concurrency level, the witness and every rate ({@code calibration.force=all})
	 * @param levels the concurrency levels named
	 * @param witnessNamed whether the tax witness is named ({@code witness})
	 * @param allRates every rate ({@code calibration.force.rates=all})
	 * @param rates the rates named, requests per second
	 */
	record Force(boolean all, Set<Integer> levels, boolean witnessNamed, boolean allRates, Set<Double> rates) {

		static final Force NONE = new Force(false, Set.of(), false, false, Set.of());

		Force {
			levels = Set.copyOf(levels);
			rates = Set.copyOf(rates);
		}

		boolean covers(int c) {
			return all || levels.contains(c);
		}

		/** Whether the tax witness runs on whatever its first look reads. */
		boolean witness() {
			return all || witnessNamed;
		}

		/** Whether {@code rate} runs whatever its probe read. */
		boolean coversRate(double rate) {
			return all || allRates || rates.contains(rate);
		}

		/** From {@code calibration.force} and {@code calibration.force.rates}; a value neither reads names its key and the fix. */
		static Force from(HarnessConfig config) {
			Force levels = config.find(ConfigKeys.CALIBRATION_FORCE).map(Force::parse).orElse(NONE);
			return config.find(ConfigKeys.CALIBRATION_FORCE_RATES).map(levels::withRates).orElse(levels);
		}

		/** {@code all}, {@code witness} and concurrency levels, separated by commas. */
		static Force parse(String value) {
			boolean all = false;
			boolean witness = false;
			Set<Integer> levels = new TreeSet<>();
			for (String token : tokens(value)) {
				if (token.equalsIgnoreCase("all")) {
					all = true;
				}
				else if (token.equalsIgnoreCase("witness")) {
					witness = true;
				}
				else {
					try {
						levels.add(Integer.parseInt(token));
					}
					catch (NumberFormatException e) {
						throw new ConfigurationException("Unable to read " + HarnessConstants.CALIBRATION_FORCE + "=" + value
								+ ": it takes sweep levels separated by commas, witness, or all. Fix: pass -D"
								+ HarnessConstants.CALIBRATION_FORCE + "=64,128 or -D" + HarnessConstants.CALIBRATION_FORCE + "=all.");
					}
				}
			}
			return new Force(all, levels, witness, false, Set.of());
		}

		/** These, and the rates of {@code calibration.force.rates}: {@code all}, or rates separated by commas. */
		Force withRates(String value) {
			boolean every = false;
			Set<Double> named = new java.util.TreeSet<>();
			for (String token : tokens(value)) {
				if (token.equalsIgnoreCase("all")) {
					every = true;
				}
				else {
					try {
						named.add(Double.parseDouble(token));
					}
					catch (NumberFormatException e) {
						throw new ConfigurationException("Unable to read " + HarnessConstants.CALIBRATION_FORCE_RATES + "=" + value
								+ ": it takes rate sweep rates (requests/s) separated by commas, or all. Fix: pass -D"
								+ HarnessConstants.CALIBRATION_FORCE_RATES + "=16,32 or -D" + HarnessConstants.CALIBRATION_FORCE_RATES
								+ "=all.");
					}
				}
			}
			return new Force(all, levels, witnessNamed, allRates || every, named);
		}

		private static List<String> tokens(String value) {
			return Arrays.stream(value.split(",")).map(String::strip).filter(t -> !t.isEmpty()).toList();
		}
	}
}
