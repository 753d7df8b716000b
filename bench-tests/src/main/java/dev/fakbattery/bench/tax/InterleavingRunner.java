package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.Interleaving;

/**
 * Runs an {@link Interleaving}: sends one conversation at a time to two targets in its seeded ABBA order, so drift over
 * the run falls on both arms alike; fak's battery always sent raw first. Both arms send the same conversations
 * (the {@code i}-th of each arm is conversation {@code i} of the workload); a multi-turn conversation gives one sample
 * per turn, all at its place in the schedule.
 *
 * @since 0.1
 */
public final class InterleavingRunner {

	/**
	 * One request of an arm.
	 *
	 * @param position its conversation's place in the whole interleaved schedule (0-based)
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

	private InterleavingRunner() {
	}

	/** Sends {@code perArm} conversations to each of {@code a} and {@code b}, in ABBA order from {@code seed}. */
	public static Arms run(TargetClient a, TargetClient b, RequestSource source, int perArm, long seed, Progress progress) {
		List<Interleaving.Arm> order = Interleaving.abba(perArm, seed);
		List<Sample> armA = new ArrayList<>();
		List<Sample> armB = new ArrayList<>();
		int[] sent = new int[2];
		for (int position = 0; position < order.size(); position++) {
			boolean first = order.get(position) == Interleaving.Arm.A;
			List<Sample> arm = first ? armA : armB;
			int conversation = sent[first ? 0 : 1]++;
			for (RequestOutcome outcome : LoadRunner.conversation(first ? a : b, source, conversation, false)) {
				arm.add(new Sample(position, outcome));
			}
			progress.advance();
		}
		return new Arms(List.copyOf(armA), List.copyOf(armB), order);
	}

	/** Sends {@code count} warm-up conversations to the target, excluded from every result; how many requests failed. */
	public static int warmUp(TargetClient target, RequestSource source, int count) {
		int failed = 0;
		for (int i = 0; i < count; i++) {
			failed += (int) LoadRunner.conversation(target, source, RequestSource.WARMUP_OFFSET + i, true)
					.stream()
					.filter(o -> !o.ok())
					.count();
		}
		return failed;
	}
}
