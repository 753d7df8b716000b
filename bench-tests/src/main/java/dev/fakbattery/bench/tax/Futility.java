package dev.fakbattery.bench.tax;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;

/**
 * A sweep level's futility stop: after its first ABBA block (two batches per arm), a level whose load client lagged in
 * every one of the four batches by more than {@link #MARGIN} times its limit ({@value ClientLag#LIMIT_P99_MICROS} µs p99),
 * or whose engine double lagged so over the whole block, stops there, PENDING_MEASUREMENT with those readings: the rest of
 * the level would be spent to learn that its instrument cannot judge it. A forced level ({@code calibration.force}) never
 * stops so.
 *
 * <p>Each rule is checked against the lag series the committed sweep artifacts recorded: the client's
 * ({@code FutilityTests.recordedSeries}) would have stopped none of the 127 levels that ended with the client's lag
 * within its limit, the double's ({@code FutilityTests.recordedDoubleSeries}, on the first block's readings) 1 of the 43
 * that ended with both lags within their limits; of those that ended over a limit they stop 13 of 43 and 21 of 32 after
 * their first block (docs/rungs.md#host-calibration-and-futility).
 *
 * <p>The tax witness takes the same rule at its first planned look, on the client's lag over the four equal stretches of
 * that look's schedule ({@link #judgeWitness}; {@code WitnessFutilityTests}).
 *
 * @param thresholdMicros the p99 a batch's client lag must pass for it to count as lagging
 * @since 0.9
 */
record Futility(double thresholdMicros) {

	/** How far over its limit each batch of the first block must lag: 1.25 (1.25 ms p99). */
	static final double MARGIN = 1.25;

	/** The batches per arm the futility look comes after: one ABBA block. */
	static final int LOOK_BATCHES_PER_ARM = 2;

	/** The project's rule: {@link #MARGIN} times the client's lag limit. */
	static final Futility DEFAULT = new Futility(MARGIN * ClientLag.LIMIT_P99_MICROS);

	/** No futility stop (a forced level). */
	static final Futility NEVER = new Futility(Double.POSITIVE_INFINITY);

	/** Whether every batch's client lag p99 in {@code p99s} (the first block's) is over the threshold. */
	boolean stops(List<Double> p99s) {
		return !p99s.isEmpty() && p99s.stream().allMatch(p99 -> p99 > thresholdMicros);
	}

	/**
	 * After the first block of {@code a} and {@code b} (the batches of each arm in run order) and the engine double's lag
	 * over it ({@code doubleLag}, read at the look; empty where the upstream is no double): the reading that stops the
	 * level, the client's first, or empty when it goes on (fewer batches than a block, or both kept pace).
	 */
	Optional<String> judge(List<LoadResult> a, List<LoadResult> b, Optional<UpstreamLag.Reading> doubleLag) {
		if (a.size() < LOOK_BATCHES_PER_ARM || b.size() < LOOK_BATCHES_PER_ARM) {
			return Optional.empty();
		}
		List<Double> p99s = java.util.stream.Stream.concat(a.subList(0, LOOK_BATCHES_PER_ARM).stream(),
				b.subList(0, LOOK_BATCHES_PER_ARM).stream()).map(r -> r.clientLag().p99Micros()).toList();
		if (stops(p99s)) {
			return Optional.of(reading("every batch of the first ABBA block", p99s));
		}
		return doubleLag.filter(this::stops)
				.map(lag -> String.format(Locale.ROOT,
						"engine double lag p99 over %.0f us (%.2f x its %.0f us limit) over the first ABBA block: %s",
						thresholdMicros, thresholdMicros / UpstreamLag.LIMIT_P99_MICROS, UpstreamLag.LIMIT_P99_MICROS, lag));
	}

	/** Whether the engine double's lag over the first block, {@code lag}, is over the threshold (none read: a NaN p99, never over). */
	boolean stops(UpstreamLag.Reading lag) {
		return lag.p99Micros() > thresholdMicros;
	}

	/**
	 * The tax witness's look: {@code p99s} the client's lag over each of the {@value #WITNESS_STRETCHES} equal stretches of
	 * its first look's schedule ({@code perArm} conversations per arm); the reading that stops the witness, or empty when it
	 * goes on (fewer stretches, or one that kept pace).
	 */
	Optional<String> judgeWitness(List<Double> p99s, int perArm) {
		return p99s.size() == WITNESS_STRETCHES && stops(p99s)
				? Optional.of(reading("every quarter of the first look (" + perArm + " conversations per arm)", p99s))
				: Optional.empty();
	}

	private String reading(String where, List<Double> p99s) {
		return String.format(Locale.ROOT, "load client lag p99 over %.0f us (%.2f x its %.0f us limit) in %s: %s us", thresholdMicros,
				thresholdMicros / ClientLag.LIMIT_P99_MICROS, ClientLag.LIMIT_P99_MICROS, where,
				p99s.stream().map(p -> String.format(Locale.ROOT, "%.0f", p)).collect(Collectors.joining(", ")));
	}

	/** The stretches the tax witness's first look is read in: four, as the four batches of a sweep level's first block. */
	static final int WITNESS_STRETCHES = 4;

	/** What the artifact says of the rule. */
	static final String RULE = "after the first ABBA block (2 batches per arm) a level stops, PENDING_MEASUREMENT, when the load "
			+ "client's lag p99 of every one of its 4 batches is over " + MARGIN + " x " + (int) ClientLag.LIMIT_P99_MICROS
			+ " us, or the engine double's lag p99 over the whole block is over " + MARGIN + " x " + (int) UpstreamLag.LIMIT_P99_MICROS
			+ " us; each checked on the committed sweep artifacts' lag series (docs/rungs.md#host-calibration-and-futility); a forced "
			+ "level (calibration.force) never stops so";

	/** What the tax witness's artifact says of the rule. */
	static final String WITNESS_RULE = "at its first planned look (before the cap) the witness stops, PENDING_MEASUREMENT, when the "
			+ "load client's lag p99 over every one of the 4 equal stretches of that look's schedule is over " + MARGIN + " x "
			+ (int) ClientLag.LIMIT_P99_MICROS + " us (the sweep's rule on its first block's 4 batches, checked on the committed sweep "
			+ "artifacts' lag series); the A/A run is then not started; calibration.force=witness (or all) never stops so";
}
