package dev.fakbattery.bench.tax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.core.stats.SequentialPlan;

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

	/**
	 * An interleaved run that stopped by its plan.
	 *
	 * @param arms the samples both arms sent, and the part of the schedule that ran
	 * @param stop where the plan stopped
	 * @since 0.7
	 */
	public record Stopped(Arms arms, SequentialPlan.Stop stop) {
	}

	/**
	 * Sends conversations to {@code a} and {@code b} in the ABBA order of {@code plan.cap()} per arm from {@code seed}, and
	 * at each of the plan's looks ({@code n} conversations per arm) asks {@code judged} for the intervals its stop is
	 * judged on; stops at the first look where all are narrow, else at the cap.
	 */
	public static Stopped run(TargetClient a, TargetClient b, RequestSource source, SequentialPlan plan, long seed, Progress progress,
			Function<Arms, List<ConfidenceInterval>> judged) {
		return run(a, b, source, plan, seed, progress, judged, null);
	}

	/**
	 * {@link #run(TargetClient, TargetClient, RequestSource, SequentialPlan, long, Progress, Function)} with the witness's
	 * futility look where given: told of each conversation sent, and after the first look asked whether the run stops
	 * there ({@link WitnessLook}); a run so stopped asks {@code judged} nothing at that look.
	 */
	static Stopped run(TargetClient a, TargetClient b, RequestSource source, SequentialPlan plan, long seed, Progress progress,
			Function<Arms, List<ConfidenceInterval>> judged, WitnessLook futility) {
		List<Interleaving.Arm> order = Interleaving.abba(plan.cap(), seed);
		List<Sample> armA = new ArrayList<>();
		List<Sample> armB = new ArrayList<>();
		int[] sent = new int[2];
		int[] position = { 0 };
		boolean[] futile = { false };
		SequentialPlan.Stop stop = plan.run(n -> {
			for (; position[0] < Math.min(2 * n, order.size()); position[0]++) {
				boolean first = order.get(position[0]) == Interleaving.Arm.A;
				List<Sample> arm = first ? armA : armB;
				int conversation = sent[first ? 0 : 1]++;
				for (RequestOutcome outcome : LoadRunner.conversation(first ? a : b, source, conversation, false)) {
					arm.add(new Sample(position[0], outcome));
				}
				progress.advance();
				if (futility != null) {
					futility.sent(position[0] + 1);
				}
			}
			if (futility != null && n == plan.first() && futility.stop().isPresent()) {
				futile[0] = true;
				progress.detail("stopped at the first look: " + futility.stop().get());
				return List.of();
			}
			List<ConfidenceInterval> intervals = judged
					.apply(new Arms(List.copyOf(armA), List.copyOf(armB), order.subList(0, position[0])));
			progress.detail(n + " of at most " + plan.cap() + " per arm, " + intervals.stream()
					.map(ci -> ci.isDefined()
							? String.format(Locale.ROOT, "%.4f [%.4f, %.4f]", ci.estimate(), ci.lo(), ci.hi())
							: "undefined")
					.collect(Collectors.joining(", ")) + String.format(Locale.ROOT, " at %.1f %%", plan.lookLevel() * 100));
			return intervals;
		}, intervals -> futile[0] || !intervals.isEmpty() && intervals.stream().allMatch(plan::narrow));
		return new Stopped(new Arms(List.copyOf(armA), List.copyOf(armB), List.copyOf(order.subList(0, position[0]))), stop);
	}

	/** Sends {@code count} warm-up conversations to the target, excluded from every result; how many requests failed. */
	public static int warmUp(TargetClient target, RequestSource source, int count) {
		return warmUp(target, source, count, done -> {
		});
	}

	/** {@link #warmUp(TargetClient, RequestSource, int)}, telling {@code done} how many conversations are done after each. */
	public static int warmUp(TargetClient target, RequestSource source, int count, IntConsumer done) {
		return warmUpFailures(target, source, count, done).size();
	}

	/**
	 * {@link #warmUp(TargetClient, RequestSource, int, IntConsumer)}, returning the failed requests themselves (to be judged
	 * per arm, with their errors) rather than their count.
	 */
	public static List<RequestOutcome> warmUpFailures(TargetClient target, RequestSource source, int count, IntConsumer done) {
		List<RequestOutcome> failed = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			LoadRunner.conversation(target, source, RequestSource.WARMUP_OFFSET + i, true)
					.stream()
					.filter(o -> !o.ok())
					.forEach(failed::add);
			done.accept(i + 1);
		}
		return List.copyOf(failed);
	}
}
