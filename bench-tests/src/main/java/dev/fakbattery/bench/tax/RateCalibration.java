package dev.fakbattery.bench.tax;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.ArrivalSchedule;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.OpenLoop;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The rate sweep's host calibration, the concurrency sweep's ({@link HostCalibration}) for offered rates: before a rate
 * runs, a short probe at it, one ABBA block of open-loop waves (raw, gateway, gateway, raw), each
 * {@link #probeRequests(double)} arrivals at the rate, reads the load client's lag and, on the engine double, the
 * double's per wave. A rate whose every wave reads one of them over {@link Futility#MARGIN} times its limit is beyond
 * this host: not run, PENDING_MEASUREMENT with its reading and the fix ({@code calibration.force.rates}). A rate the
 * rates already probed decide is not probed ({@link #inferred}).
 *
 * @param levels the reading per rate, in the order probed
 * @since 0.9
 */
record RateCalibration(List<Level> levels) {

	/** The fewest and most arrivals of a probe wave. */
	static final int FEWEST = 2;

	static final int MOST = 16;

	/** Seconds of arrivals a probe wave spans at most (fewer at a rate whose {@link #MOST} arrivals take less). */
	static final double WAVE_SECONDS = 0.25;

	RateCalibration {
		levels = List.copyOf(levels);
	}

	/** How long the probes took: their own waves, not the levels measured between them. */
	Duration duration() {
		return levels.stream().map(Level::took).reduce(Duration.ZERO, Duration::plus);
	}

	/**
	 * One rate's probe.
	 *
	 * @param rate offered requests per second
	 * @param judged the verdict and its reason, on the probe's waves ({@link HostCalibration#judge})
	 * @param took how long the probe's four waves took
	 */
	record Level(double rate, HostCalibration.Level judged, Duration took) {

		String reading() {
			return String.format(Locale.ROOT, "%s req/s: %s", format(rate), judged.reason());
		}
	}

	/** Arrivals per probe wave at {@code rate}: {@value #WAVE_SECONDS} s of them, within {@value #FEWEST}..{@value #MOST}. */
	static int probeRequests(double rate) {
		return (int) Math.max(FEWEST, Math.min(MOST, Math.round(rate * WAVE_SECONDS)));
	}

	/** Probes {@code rate} on both arms; {@code forced} runs it whatever it reads. */
	static Level probe(TargetClient raw, TargetClient gateway, RequestSource payload, double rate, double burstiness, int maxConcurrency,
			long seed, boolean forced, Duration timeCap, Optional<UpstreamLag> lag, Progress progress) {
		RequestSource probe = index -> payload.conversation(RequestSource.WARMUP_OFFSET / 4 + index);
		List<LoadResult> rawWaves = new ArrayList<>();
		List<LoadResult> gatewayWaves = new ArrayList<>();
		List<UpstreamLag.Reading> doubleLag = new ArrayList<>();
		int n = probeRequests(rate);
		long began = System.nanoTime();
		int wave = 0;
		for (boolean first : new boolean[]{ true, false, false, true }) {
			OpenLoop shape = new OpenLoop(ArrivalSchedule.gamma(n, rate, burstiness, seed + wave++), maxConcurrency, 0, timeCap);
			lag.ifPresent(UpstreamLag::reset);
			(first ? rawWaves : gatewayWaves).add(LoadRunner.run(first ? raw : gateway, probe, shape, progress));
			lag.map(UpstreamLag::read).ifPresent(doubleLag::add);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - began);
		HostCalibration.Level judged = HostCalibration.judge(0, rawWaves, gatewayWaves, doubleLag, forced);
		return new Level(rate, forced
				? new HostCalibration.Level(0, rawWaves, gatewayWaves, doubleLag, judged.verdict(),
						judged.reason().replace(HarnessConstants.CALIBRATION_FORCE, HarnessConstants.CALIBRATION_FORCE_RATES))
				: judged, took);
	}

	/**
	 * The verdict of {@code rate} that the rates already probed give without a probe of its own: judgeable at or below a
	 * rate whose probe read judgeable (the level still checks its own lag), beyond this host at or above two rates whose
	 * probes read beyond it (fewer arrivals a second load the load client and the double no more, more no less; two, so one
	 * passing stall of the host holds back one rate);
	 * empty where they do not decide it (none such, or both).
	 */
	static Optional<Level> inferred(double rate, List<Level> probed) {
		Optional<Level> held = probed.stream()
				.filter(l -> l.judged().probed() && l.judged().verdict() == HostCalibration.Verdict.JUDGEABLE && l.rate() >= rate)
				.findFirst();
		List<Level> beyond = probed.stream()
				.filter(l -> l.judged().probed() && l.judged().verdict() == HostCalibration.Verdict.BEYOND_HOST && l.rate() <= rate)
				.sorted(java.util.Comparator.comparingDouble(Level::rate))
				.toList();
		if (held.isPresent() == beyond.size() >= 2) {
			return Optional.empty();
		}
		String reason = held
				.map(h -> "not probed: " + format(h.rate()) + " req/s, a higher rate, is judgeable on this host (" + h.judged().reason()
						+ ")")
				.orElseGet(() -> "not probed: " + format(beyond.get(0).rate()) + " and " + format(beyond.get(1).rate())
						+ " req/s, lower rates, are already beyond this host (" + format(beyond.get(1).rate()) + " req/s: "
						+ beyond.get(1).judged().reason() + ")");
		HostCalibration.Verdict verdict = held.isPresent() ? HostCalibration.Verdict.JUDGEABLE : HostCalibration.Verdict.BEYOND_HOST;
		return Optional.of(new Level(rate, new HostCalibration.Level(0, List.of(), List.of(), List.of(), verdict, reason), Duration.ZERO));
	}

	/** Whether {@code rate} runs (judgeable or forced). */
	boolean runs(double rate) {
		return levels.stream().filter(l -> l.rate() == rate).noneMatch(l -> l.judged().verdict() == HostCalibration.Verdict.BEYOND_HOST);
	}

	/** The rates beyond this host. */
	List<Level> beyond() {
		return levels.stream().filter(l -> l.judged().verdict() == HostCalibration.Verdict.BEYOND_HOST).toList();
	}

	/** The probes' failed requests per arm, judged like a ramp's. */
	List<ArmFailures> failures() {
		return levels.stream()
				.map(l -> ArmFailures.failures(format(l.rate()) + " req/s calibration",
						l.judged().raw().stream().flatMap(r -> r.outcomes().stream()).toList(),
						l.judged().gateway().stream().flatMap(r -> r.outcomes().stream()).toList()))
				.toList();
	}

	/** The fix for rates beyond this host. */
	static String fix(List<Level> beyond) {
		return "a load client host with more cores (or the engine double and the gateway on other cores, see "
				+ "docs/rungs.md#host-calibration-and-futility), or run the rate anyway with -D" + HarnessConstants.CALIBRATION_FORCE_RATES
				+ "="
				+ beyond.stream().map(l -> format(l.rate())).collect(Collectors.joining(","));
	}

	/**
	 * {@code method, margin, duration_s, levels[] {rate, probe_requests_per_arm, verdict, reason, duration_s, client_lag,
	 * wave_client_lag_p99_us, wave_engine_double_lag_p99_us, failed}}: the concurrency sweep's fields, {@code rate} for
	 * {@code concurrency}; {@code duration_s} is the probes' time alone (the rates measured between them not counted).
	 */
	void writeTo(ObjectNode node) {
		node.put("method", "before each rate, one ABBA block of open-loop waves (raw, gateway, gateway, raw), each rate x "
				+ WAVE_SECONDS + " s arrivals (" + FEWEST + " to " + MOST + ") at the rate; a rate whose load client lag p99, or engine "
				+ "double lag p99, reads over " + Futility.MARGIN + " x its limit in every wave is beyond this host: not run, "
				+ "PENDING_MEASUREMENT; a rate at or below one read judgeable, or at or above two read beyond, is not probed "
				+ "(probed: false) and takes that verdict; " + HarnessConstants.CALIBRATION_FORCE_RATES + " runs a rate anyway");
		node.put("margin", Futility.MARGIN);
		JsonNumbers.put(node, "duration_s", duration().toMillis() / 1000.0, 3);
		ArrayNode array = node.putArray("levels");
		for (Level level : levels) {
			HostCalibration.Level judged = level.judged();
			ObjectNode item = array.addObject();
			item.put("rate", level.rate());
			item.put("probed", judged.probed());
			item.put("probe_requests_per_arm", judged.probed() ? 2 * probeRequests(level.rate()) : 0);
			item.put("verdict", judged.verdict().name());
			item.put("reason", judged.reason());
			JsonNumbers.put(item, "duration_s", level.took().toMillis() / 1000.0, 3);
			if (!judged.probed()) {
				continue;
			}
			judged.clientLag().writeTo(item.putObject("client_lag"));
			ArrayNode waves = item.putArray("wave_client_lag_p99_us");
			Stream.of(judged.raw().get(0), judged.gateway().get(0), judged.gateway().get(1), judged.raw().get(1))
					.forEach(w -> JsonNumbers.add(waves, w.clientLag().p99Micros(), 0));
			if (!judged.engineDouble().isEmpty()) {
				ArrayNode doubles = item.putArray("wave_engine_double_lag_p99_us");
				judged.engineDouble().forEach(d -> JsonNumbers.add(doubles, d.p99Micros(), 1));
			}
			item.put("failed", Stream.concat(judged.raw().stream(), judged.gateway().stream())
					.mapToInt(r -> r.failed().size() + r.notSent())
					.sum());
		}
	}

	static String format(double rate) {
		return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
	}
}
