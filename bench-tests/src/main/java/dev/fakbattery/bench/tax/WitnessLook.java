package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.fakbattery.core.load.ClientLag;

/**
 * The tax witness's futility look ({@link Futility#judgeWitness}): reads the load client's lag over each of the four
 * equal stretches of its first look's schedule, and after that look says whether the witness stops there. A plan whose
 * first look is its cap has no look before the end: it never stops so (its client lag is judged at the end as always).
 *
 * <p>{@code readAndRestart} reads the client's lag since the last call and starts a new stretch; the stretches read here
 * and the lag read after them together make the run's ({@link #total}).
 *
 * @since 0.9
 */
final class WitnessLook {

	private final int perArm;

	private final int[] ends;

	private final Supplier<ClientLag> readAndRestart;

	private final Futility rule;

	private final List<ClientLag> stretches = new ArrayList<>();

	/**
	 * @param firstLook conversations per arm at the first look
	 * @param cap conversations per arm at the plan's cap
	 */
	WitnessLook(int firstLook, int cap, Supplier<ClientLag> readAndRestart, Futility rule) {
		this.perArm = firstLook;
		boolean looks = firstLook < cap && 2 * firstLook >= Futility.WITNESS_STRETCHES;
		this.ends = new int[looks ? Futility.WITNESS_STRETCHES : 0];
		for (int k = 0; k < ends.length; k++) {
			ends[k] = (int) Math.round(2.0 * firstLook * (k + 1) / Futility.WITNESS_STRETCHES);
		}
		this.readAndRestart = readAndRestart;
		this.rule = rule;
	}

	/** After {@code positions} conversations of the schedule were sent: ends a stretch where one ends there. */
	void sent(int positions) {
		if (stretches.size() < ends.length && positions == ends[stretches.size()]) {
			stretches.add(readAndRestart.get());
		}
	}

	/** After the first look: the reading that stops the witness, or empty when it goes on. */
	Optional<String> stop() {
		return rule.judgeWitness(stretches.stream().map(ClientLag::p99Micros).toList(), perArm);
	}

	/** The client's lag over the whole run: the stretches read here and {@code rest}, read after them. */
	ClientLag total(ClientLag rest) {
		List<ClientLag> parts = new ArrayList<>(stretches);
		parts.add(rest);
		return ClientLag.merge(parts);
	}

	/** The stretches' p99 readings, in run order. */
	List<Double> p99s() {
		return stretches.stream().map(ClientLag::p99Micros).toList();
	}
}
