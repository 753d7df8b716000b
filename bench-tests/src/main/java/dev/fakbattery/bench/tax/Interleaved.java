package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.api.load.ChatPayload;
import dev.fakbattery.api.load.Progress;
import dev.fakbattery.api.load.RequestOutcome;
import dev.fakbattery.api.load.TargetClient;
import dev.fakbattery.api.stats.Interleaving;

/**
 * Sends one request at a time to two targets in a seeded ABBA order ({@link Interleaving#abba}),
 * so drift over the run falls on both arms alike; the seed battery always sent raw first.
 *
 * @since 0.1
 */
public final class Interleaved {

	/**
	 * One request of an arm.
	 *
	 * @param position its place in the whole interleaved schedule (0-based)
	 * @param outcome what it measured
	 * @since 0.1
	 */
	public record Sample(int position, RequestOutcome outcome) {
	}

	/**
	 * Both arms of an interleaved run.
	 *
	 * @param a the samples of arm A, in order
	 * @param b the samples of arm B, in order
	 * @param order the schedule that was followed
	 * @since 0.1
	 */
	public record Arms(List<Sample> a, List<Sample> b, List<Interleaving.Arm> order) {
	}

	private Interleaved() {
	}

	/** Sends {@code perArm} requests to each of {@code a} and {@code b}, in ABBA order from {@code seed}. */
	public static Arms run(TargetClient a, TargetClient b, ChatPayload payload, int perArm, long seed, Progress progress) {
		List<Interleaving.Arm> order = Interleaving.abba(perArm, seed);
		List<Sample> armA = new ArrayList<>();
		List<Sample> armB = new ArrayList<>();
		for (int position = 0; position < order.size(); position++) {
			boolean first = order.get(position) == Interleaving.Arm.A;
			List<Sample> arm = first ? armA : armB;
			RequestOutcome outcome = (first ? a : b).send(payload, arm.size(), false);
			arm.add(new Sample(position, outcome));
			progress.advance();
		}
		return new Arms(List.copyOf(armA), List.copyOf(armB), order);
	}

	/** Sends {@code count} warm-up requests to the target, excluded from every result; how many failed. */
	public static int warmUp(TargetClient target, ChatPayload payload, int count) {
		int failed = 0;
		for (int i = 0; i < count; i++) {
			failed += target.send(payload, i, true).ok() ? 0 : 1;
		}
		return failed;
	}
}
