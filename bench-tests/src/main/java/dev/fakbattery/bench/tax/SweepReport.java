package dev.fakbattery.bench.tax;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The sweep's acceptance checks and summary; each is computed from what was measured and can fail.
 *
 * @since 0.1
 */
final class SweepReport {

	private SweepReport() {
	}

	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, List<SweepLevel> levels,
			Optional<SweepLevel> noise, List<Path> plots, String skipped) {
		checks(run, settings, upstream, Optional.empty(), levels, noise, plots, skipped);
	}

	/**
	 * The checks, {@code warmup} (the sweep's steady warm-up, where it ran) judged with every level and its warm-up wave: a
	 * request the gateway arm fails beyond the raw arm's in any of them fails {@code gateway_failures} ({@link ArmFailures});
	 * the A/A level's instrument is checked like every other level's.
	 */
	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, Optional<SteadyWarmup> warmup,
			List<SweepLevel> levels, Optional<SweepLevel> noise, List<Path> plots, String skipped) {
		checks(run, settings, upstream, warmup, Optional.empty(), levels, noise, plots, skipped);
	}

	/**
	 * The checks, with the host calibration where it ran: a level it found beyond this host, and a level stopped for
	 * futility ({@link Futility}), is PENDING_MEASUREMENT with its reading, never counted as measured nor as failed; its
	 * probes' failed requests are judged like a warm-up's.
	 */
	static void checks(RungRecorder run, TaxSettings settings, TaxUpstream upstream, Optional<SteadyWarmup> warmup,
			Optional<HostCalibration> calibration, List<SweepLevel> levels, Optional<SweepLevel> noise, List<Path> plots,
			String skipped) {
		run.workload(settings.workload().describe() + "; closed loop, streamed requests per arm " + settings.levels()
				.stream()
				.map(c -> "c=" + c + ": " + settings.sweepRequests(c) + " in " + settings.sweepBatchesPerArm(c) + " batches")
				.collect(Collectors.joining(", ")) + "; A/A at c=" + settings.noiseFloorLevel() + ": "
				+ settings.noiseFloorRequests() + "; arms in ABBA order");
		ObjectNode process = run.body().path("gateway_process") instanceof ObjectNode p ? p : null;
		String mode = process == null ? "none" : process.path("mode").asText();
		if (process != null && !mode.equals("planned")) {
			run.check("gateway_command", mode.equals("started") || mode.equals("existing"),
					"the gateway under test starts or is reachable", "mode " + mode + ": "
							+ process.path(process.has("error") ? "error" : "description").asText());
		}
		List<HostCalibration.Level> beyond = calibration.map(HostCalibration::beyond).orElse(List.of());
		List<Integer> judgeable = settings.levels().stream().filter(c -> calibration.map(h -> h.runs(c)).orElse(true)).toList();
		List<String> unmeasured = new ArrayList<>();
		levels.stream()
				.filter(l -> !l.ratio().isDefined() && l.futility().isEmpty())
				.forEach(l -> unmeasured.add("c=" + l.concurrency() + ": " + unmeasured(l)));
		noise.filter(n -> !n.ratio().isDefined() && n.futility().isEmpty())
				.ifPresent(n -> unmeasured.add("A/A c=" + n.concurrency() + ": " + unmeasured(n)));
		if (noise.isEmpty() && judgeable.contains(settings.noiseFloorLevel())) {
			unmeasured.add("A/A: not measured");
		}
		boolean measured = skipped == null && levels.size() == judgeable.size() && unmeasured.isEmpty();
		run.check("sweep_measured", measured, "a gateway/raw ratio with a 95% CI at every level " + settings.levels()
				+ " and the A/A floor's that this host can judge (host_calibration), each over at least " + TaxSettings.MIN_BATCHES
				+ " batches per arm, unless stopped for futility",
				skipped != null
						? "not run: " + skipped
						: unmeasured.isEmpty()
								? ConcurrencySweep.describe(levels)
								: "no ratio at " + unmeasured);
		List<SweepLevel> all = java.util.stream.Stream.concat(levels.stream(), noise.stream()).toList();
		int failed = all.stream().mapToInt(SweepLevel::failed).sum();
		String failures = all.stream()
				.filter(l -> l.failed() > 0)
				.map(l -> (noise.filter(n -> n == l).isPresent() ? "A/A c=" : "c=") + l.concurrency() + ": " + l.failed() + " ("
						+ firstError(l) + ")")
				.collect(Collectors.joining("; "));
		boolean answered = all.stream().anyMatch(SweepReport::answeredWrong);
		run.check("requests_succeeded", skipped == null && failed == 0,
				"every measured request, A/A floor included, answers 200 with tokens and [DONE], none cut by the time cap",
				skipped != null ? "not run: " + skipped : failed == 0 ? "0 failed" : failed + " failed: " + failures, answered);
		List<ArmFailures> byArm = new ArrayList<>();
		warmup.ifPresent(w -> byArm.add(w.failures()));
		calibration.ifPresent(h -> byArm.addAll(h.failures()));
		levels.forEach(l -> {
			byArm.add(l.warmupFailuresByArm());
			byArm.add(l.failures());
		});
		String notRun = skipped == null ? null : "not run: " + skipped;
		ArmFailures.judgeFailures(run, byArm, notRun);
		ArmFailures.judgeRetries(run, levels.stream().map(SweepLevel::retries).toList(), notRun);
		if (!beyond.isEmpty() && skipped == null) {
			run.invalid("host_calibration", "levels beyond this host, not run at full size: " + beyond.stream()
					.map(HostCalibration.Level::reading)
					.collect(Collectors.joining("; "))
					+ (beyond.stream().anyMatch(l -> l.concurrency() == settings.noiseFloorLevel())
							? "; the A/A floor's level c=" + settings.noiseFloorLevel() + " among them"
							: ""),
					HostCalibration.fix(beyond));
		}
		List<String> futile = all.stream()
				.filter(l -> l.futility().isPresent())
				.map(l -> label(l, noise) + " " + l.futility().get())
				.toList();
		if (!futile.isEmpty() && skipped == null) {
			run.invalid("futility", "levels stopped after their first ABBA block, their instrument already past its limit: " + futile,
					"run on a quieter machine or a bigger client host, or run the level to its end anyway with -D"
							+ dev.fakbattery.core.HarnessConstants.CALIBRATION_FORCE + "="
							+ all.stream()
									.filter(l -> l.futility().isPresent())
									.map(l -> String.valueOf(l.concurrency()))
									.distinct()
									.collect(Collectors.joining(",")));
		}
		if (upstream.lag().isPresent() && skipped == null) {
			List<String> late = all.stream()
					.filter(l -> l.lag().map(r -> !r.withinLimit()).orElse(true))
					.map(l -> label(l, noise) + " " + l.lag().map(Object::toString).orElse("not measured"))
					.toList();
			if (!late.isEmpty()) {
				run.invalid("engine_double_lag", "engine double scheduling lag p99 over " + (int) UpstreamLag.LIMIT_P99_MICROS
						+ " us at " + late + ": the double, not the gateway, set the pace",
						"run on a quieter machine (no other "
								+ "build), or at fewer streams (-D" + dev.fakbattery.core.HarnessConstants.SWEEP_CONCURRENCY + "=1,8)");
			}
		}
		if (skipped == null) {
			List<String> slow = all.stream()
					.filter(l -> !l.clientLag().withinLimit())
					.map(l -> label(l, noise) + " " + l.clientLag().withHostNote())
					.toList();
			if (!slow.isEmpty()) {
				run.invalid("client_lag", "load client scheduling lag p99 over " + (int) dev.fakbattery.core.load.ClientLag.LIMIT_P99_MICROS
						+ " us at " + slow + ": the client, not the gateway, set the pace",
						"run on a quieter machine (no other build), or at "
								+ "fewer streams (-D" + dev.fakbattery.core.HarnessConstants.SWEEP_CONCURRENCY + "=1,8)");
			}
		}
		noise.filter(n -> skipped == null && n.ratio().isDefined() && !TaxReport.withinOnePercent(n.ratio()))
				.ifPresent(n -> run.invalid("noise_floor", String.format(Locale.ROOT, "A/A ratio at c=%d %.4f [%.4f, %.4f] is wider "
						+ "than +/-1 %%: the raw engine against itself differs more than the effect to be measured", n.concurrency(),
						n.ratio().estimate(), n.ratio().lo(), n.ratio().hi()),
						moreNoiseRequests(n.ratio(), settings.forNoiseFloor().sweepRequests(n.concurrency()))));
		if (skipped == null) {
			List<String> cut = all.stream()
					.filter(l -> l.ratio().isDefined() && l.ratioBlocks().capped())
					.map(l -> (noise.filter(n -> n == l).isPresent() ? "A/A c=" : "c=") + l.concurrency() + " "
							+ l.ratioBlocks().describe())
					.toList();
			if (!cut.isEmpty()) {
				run.invalid("ratio_blocks", "consecutive batches are correlated over more of the level than its blocks can hold at "
						+ cut + ": the ratio's interval would be too narrow",
						"more requests per level (-D" + dev.fakbattery.core.HarnessConstants.SWEEP_REQUESTS
								+ "), or a machine whose throughput holds still");
			}
		}
		boolean drawn = plots.size() == 2 && plots.stream().allMatch(Files::isRegularFile);
		run.check("plots_written", drawn, "ratio-vs-concurrency and E2EL CDF PNGs beside the artifact",
				drawn ? plots.toString() : run.body().path("plots").toString());
		measurements(run, levels, noise);
		summary(run, upstream, levels, noise);
	}

	/**
	 * The fix for an A/A floor wider than +/-1 %: the requests at which its interval would fit, from the width measured
	 * (an interval narrows as one over the square root of the count) and the room the estimate leaves; where the
	 * estimate itself lies 1 % or more from 1, no count fits and the advice is a quieter machine.
	 */
	static String moreNoiseRequests(dev.fakbattery.core.stats.ConfidenceInterval aa, int sent) {
		double halfWidth = (aa.hi() - aa.lo()) / 2;
		double room = 0.01 - Math.abs(aa.estimate() - 1);
		String key = "-D" + dev.fakbattery.core.HarnessConstants.SWEEP_NOISE_REQUESTS;
		if (room <= 0.001) {
			return String.format(Locale.ROOT, "the A/A estimate itself lies %.2f %% from 1 (this run sent %d per arm): not a matter of "
					+ "count; run on a quieter machine, keeping the load client's CPUs apart from the engine's, the gateway's and "
					+ "dockerd's (see docs/container.md)", Math.abs(aa.estimate() - 1) * 100, sent);
		}
		long wanted = (long) Math.ceil(sent * Math.pow(halfWidth / room, 2) / 64.0) * 64;
		return String.format(Locale.ROOT, "more requests for the A/A level (%s=%d; this run sent %d per arm, half-width %.2f %%, "
				+ "%.2f %% of room around its estimate) on a quieter machine", key, Math.max(wanted, 2L * sent), sent, halfWidth * 100,
				room * 100);
	}

	/** {@code c=8}, or {@code A/A c=8} for the noise floor's level. */
	private static String label(SweepLevel level, Optional<SweepLevel> noise) {
		return (noise.filter(n -> n == level).isPresent() ? "A/A c=" : "c=") + level.concurrency();
	}

	private static String unmeasured(SweepLevel level) {
		return level.ratio().reason().orElse("undefined");
	}

	/** Whether a request of either arm got a wrong answer ({@link TaxReport#answeredWrong}). */
	private static boolean answeredWrong(SweepLevel level) {
		return TaxReport.answeredWrong(level.a().failed()) || TaxReport.answeredWrong(level.b().failed());
	}

	private static String firstError(SweepLevel level) {
		return level.a()
				.failed()
				.stream()
				.findFirst()
				.or(() -> level.b().failed().stream().findFirst())
				.map(o -> o.target() + ": " + o.error())
				.orElse(level.a().notSent() + level.b().notSent() + " not sent (time cap)");
	}

	private static void measurements(RungRecorder run, List<SweepLevel> levels, Optional<SweepLevel> noise) {
		for (SweepLevel level : levels) {
			if (level.ratio().isDefined()) {
				run.measured("ratio_c" + level.concurrency(), level.ratio().estimate(), "ratio", String.format(Locale.ROOT,
						"gateway/raw output tok/s at concurrency %d; 95%% CI [%.4f, %.4f]", level.concurrency(), level.ratio().lo(),
						level.ratio().hi()), level.ratio());
			}
			level.lag()
					.filter(lag -> Double.isFinite(lag.p99Micros()))
					.ifPresent(lag -> run.measured(
							"engine_double_lag_p99_c" + level.concurrency(), lag.p99Micros(), "us", "engine double scheduling lag"));
			if (level.clientLag().count() > 0) {
				run.measured("client_lag_p99_c" + level.concurrency(), level.clientLag().p99Micros(), "us", "load client scheduling lag");
			}
		}
		noise.filter(n -> n.ratio().isDefined())
				.ifPresent(n -> run.measured("noise_floor_ratio_c" + n.concurrency(),
						n.ratio().estimate(), "ratio", "A/A: raw against raw, same level procedure", n.ratio()));
	}

	private static void summary(RungRecorder run, TaxUpstream upstream, List<SweepLevel> levels, Optional<SweepLevel> noise) {
		ObjectNode summary = run.body().putObject("summary");
		summary.put("levels", levels.size());
		ObjectNode ratios = summary.putObject("ratio_by_concurrency");
		levels.forEach(l -> JsonNumbers.put(ratios, String.valueOf(l.concurrency()), l.ratio().estimate(), 4));
		noise.ifPresent(n -> JsonNumbers.put(summary, "noise_floor_ratio", n.ratio().estimate(), 4));
		run.headline("gateway/raw tok/s ratio " + ConcurrencySweep.describe(levels)
				+ noise.map(n -> String.format(Locale.ROOT, "; A/A c=%d %.3f", n.concurrency(), n.ratio().estimate())).orElse("")
				+ (upstream.simulated().isPresent() ? " (SIMULATED: engine double)" : ""));
	}
}
