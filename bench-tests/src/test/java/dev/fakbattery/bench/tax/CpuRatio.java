package dev.fakbattery.bench.tax;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.JsonNumbers;

/**
 * CPU per request, batch by batch, from {@link CostRun.Arms#gatewayCpuS()}, and the ratio of two servers' CPU per
 * request measured in the same run: a server's over {@link GatewayCostBench#CMD}'s (nginx as the floor nobody here
 * wrote), which holds from machine to machine where milliseconds do not. The i-th gateway batch of one server is paired
 * with the i-th of the other (same round, same half of its block); the ratio is the median of the pairs' ratios with
 * its percentile bootstrap 95 % interval ({@link BootstrapCi#medianOfPairedRatios}). A missing reading, one that went
 * backwards, a batch without requests or with failed ones gives no number: the interval is undefined and its reason
 * says which server and batch, and the verdict is PENDING_MEASUREMENT.
 */
final class CpuRatio {

	static final String STATISTIC = "median of paired CPU-per-request ratios";

	/** How the ratio is read, for the artifact. */
	static final String METHOD = "the server's CPU per request over " + GatewayCostBench.CMD
			+ "'s in the same run: each server's process (tree for " + GatewayCostBench.CMD
			+ ") user + system CPU during each of its gateway batches (/proc, 10 ms ticks), over the batch's requests; the "
			+ "i-th batch of the server paired with the i-th of " + GatewayCostBench.CMD + " (same round, same half of "
			+ "its block); estimate: median of the pairs' ratios, 95 % interval: percentile bootstrap (" + CostComparison.RESAMPLES
			+ " resamples, harness-core BootstrapCi.medianOfPairedRatios); a missing or backwards reading, or a batch with no "
			+ "or failed requests, gives PENDING_MEASUREMENT with the reason, never a number";

	private CpuRatio() {
	}

	/**
	 * Why {@code server}'s CPU readings are no measurement: a count that differs from its batches', a missing
	 * ({@code NaN}) or backwards (negative) reading, a batch without requests or with failed ones; empty when they are
	 * one.
	 */
	static Optional<String> problem(String server, CostRun.Arms arms) {
		List<Double> cpu = arms.gatewayCpuS();
		List<LoadResult> batches = arms.gateway();
		if (cpu.size() != batches.size()) {
			return Optional.of(server + ": " + cpu.size() + " CPU readings for " + batches.size() + " gateway batches");
		}
		for (int i = 0; i < cpu.size(); i++) {
			double seconds = cpu.get(i);
			if (Double.isNaN(seconds)) {
				return Optional.of(server + ": no CPU reading for gateway batch " + (i + 1)
						+ " (its process gone or /proc unreadable)");
			}
			if (seconds < 0) {
				return Optional.of(String.format(java.util.Locale.ROOT,
						"%s: the CPU reading went backwards by %.3f s over gateway batch %d (a process of its tree ended?)", server,
						-seconds, i + 1));
			}
			if (batches.get(i).outcomes().isEmpty()) {
				return Optional.of(server + ": gateway batch " + (i + 1) + " has no requests");
			}
			if (!batches.get(i).failed().isEmpty()) {
				return Optional.of(server + ": " + batches.get(i).failed().size() + " request(s) failed in gateway batch " + (i + 1)
						+ ", so its CPU is not that of served requests");
			}
		}
		return Optional.empty();
	}

	/** CPU ms per request of each gateway batch; only when {@link #problem} is empty. */
	static double[] msPerRequest(CostRun.Arms arms) {
		double[] ms = new double[arms.gateway().size()];
		for (int i = 0; i < ms.length; i++) {
			ms[i] = arms.gatewayCpuS().get(i) * 1e3 / arms.gateway().get(i).outcomes().size();
		}
		return ms;
	}

	/** CPU ms per request over all gateway batches; {@code NaN} when {@link #problem} is not empty. */
	static double msPerRequestOverall(String server, CostRun.Arms arms) {
		if (problem(server, arms).isPresent()) {
			return Double.NaN;
		}
		double seconds = arms.gatewayCpuS().stream().mapToDouble(Double::doubleValue).sum();
		long requests = arms.gateway().stream().mapToLong(b -> b.outcomes().size()).sum();
		return seconds * 1e3 / requests;
	}

	/**
	 * {@code numerator}'s CPU per request over {@code denominator}'s, batch pair by batch pair, with its interval;
	 * undefined, naming the server and the batch, when either's readings are no measurement.
	 */
	static ConfidenceInterval ratio(String numerator, CostRun.Arms top, String denominator, CostRun.Arms bottom, long seed) {
		BootstrapCi bootstrap = BootstrapCi.seeded(seed).withResamples(CostComparison.RESAMPLES);
		Optional<String> problem = problem(numerator, top).or(() -> problem(denominator, bottom));
		if (problem.isEmpty() && top.gateway().size() != bottom.gateway().size()) {
			problem = Optional.of(numerator + " has " + top.gateway().size() + " gateway batches, " + denominator + " "
					+ bottom.gateway().size() + ": no pairs");
		}
		if (problem.isPresent()) {
			return ConfidenceInterval.undefined(STATISTIC, problem.get(), bootstrap.level(), 0, seed);
		}
		ConfidenceInterval median = bootstrap.medianOfPairedRatios(msPerRequest(top), msPerRequest(bottom));
		return median.isDefined()
				? new ConfidenceInterval(STATISTIC, median.estimate(), median.lo(), median.hi(), median.level(), median.resamples(),
						median.seed(), median.reason())
				: ConfidenceInterval.undefined(STATISTIC, numerator + "/" + denominator + ": " + median.reason().orElseThrow(),
						median.level(), median.resamples(), seed);
	}

	/**
	 * Writes {@code cpu_ratio_to_cmd} (null when pending), {@code cpu_ratio_to_cmd_ci95},
	 * {@code cpu_ratio_to_cmd_verdict} (SIMULATED: measured beside the engine double; PENDING_MEASUREMENT),
	 * {@code cpu_ratio_to_cmd_pending} (the reason, null when measured) and the interval as
	 * {@code cpu_ratio_to_cmd_interval}.
	 */
	static void writeTo(ObjectNode row, ConfidenceInterval ratio) {
		JsonNumbers.put(row, "cpu_ratio_to_cmd", ratio.estimate(), 3);
		if (ratio.isDefined()) {
			JsonNumbers.putPair(row, "cpu_ratio_to_cmd_ci95", ratio.lo(), ratio.hi(), 3);
		}
		else {
			row.putNull("cpu_ratio_to_cmd_ci95");
		}
		row.put("cpu_ratio_to_cmd_verdict", ratio.isDefined() ? "SIMULATED" : "PENDING_MEASUREMENT");
		row.put("cpu_ratio_to_cmd_pending", ratio.reason().orElse(null));
		ratio.writeTo(row.putObject("cpu_ratio_to_cmd_interval"), 3);
	}

	/** The report line's words: {@code 3.52x cmd's [3.31, 3.70]}, or {@code PENDING (reason)}. */
	static String words(ConfidenceInterval ratio) {
		return ratio.isDefined()
				? String.format(java.util.Locale.ROOT, "%.2fx %s's [%.2f, %.2f]", ratio.estimate(), GatewayCostBench.CMD, ratio.lo(),
						ratio.hi())
				: "PENDING_MEASUREMENT (" + ratio.reason().orElseThrow() + ")";
	}
}
