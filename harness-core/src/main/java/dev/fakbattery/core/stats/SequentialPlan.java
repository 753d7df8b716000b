package dev.fakbattery.core.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * When a measurement may stop adding samples: at planned looks it computes its intervals, and stops at the first look
 * where every one is narrower than a target half-width, or at the cap, whichever comes first.
 *
 * <h2>Why the interval stays honest</h2>
 * Looking at an interval and stopping when it suits is optional stopping: a 95 % interval recomputed after every block
 * and reported when it looks good covers less than 95 % (the self-test shows a rule that stops on a narrow interval
 * or on one that excludes 1 covering about 89 %). The plan is a group-sequential design with Bonferroni alpha spending:
 * at most {@code K} looks, fixed before the first sample, each interval at level {@code 1 - alpha / K}. By the union
 * bound the chance that the interval of <em>any</em> look misses is at most {@code K x alpha / K = alpha}, so the
 * interval reported at whichever look the rule stops at covers with probability at least {@code 1 - alpha} (e.g.
 * 95 %), whatever the rule; it only needs each look's interval valid at its own level. It pays for that with width:
 * three looks report 98.3 % intervals. A plan with one look (the cap is the fewest samples) is the fixed-size
 * measurement, at the plain level.
 *
 * <pre>
 * SequentialPlan plan = SequentialPlan.of(6, 24, 2, 3, 0.005, 0.95);
 * SequentialPlan.Stop stop = plan.run(n -&gt; List.of(plan.bootstrap(seed).ratioOfMedians(gatewayUpTo(n), rawUpTo(n))));
 * </pre>
 *
 * @param looks samples per arm at each look, ascending; the last is the cap
 * @param targetHalfWidth the half-width, {@code (hi - lo) / 2}, at or under which a look stops (0.005 is +/-0.5 % of a
 *        ratio near 1)
 * @param level the coverage the reported interval keeps, e.g. 0.95
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.7")
public record SequentialPlan(List<Integer> looks, double targetHalfWidth, double level) {

	/** The method, for artifacts and docs. */
	public static final String METHOD = "group-sequential, Bonferroni alpha spending: K looks planned before the first "
			+ "sample, each interval at 1 - alpha/K, so the interval of whichever look stops covers with at least 1 - alpha "
			+ "(union bound); stop at the first look where every interval's half-width <= the target, else at the cap";

	public SequentialPlan {
		looks = List.copyOf(looks);
		if (looks.isEmpty()) {
			throw new IllegalArgumentException("a plan needs at least one look");
		}
		for (int i = 1; i < looks.size(); i++) {
			if (looks.get(i) <= looks.get(i - 1)) {
				throw new IllegalArgumentException("looks must ascend, got " + looks);
			}
		}
		if (looks.get(0) < 1) {
			throw new IllegalArgumentException("looks must be >= 1, got " + looks);
		}
		if (!(targetHalfWidth >= 0)) {
			throw new IllegalArgumentException("target half-width must be >= 0, got " + targetHalfWidth);
		}
		if (!(level > 0 && level < 1)) {
			throw new IllegalArgumentException("level must be within (0, 1), got " + level);
		}
	}

	/**
	 * A plan of at most {@code maxLooks} looks from at least {@code fewest} to {@code cap} samples per arm, each a
	 * multiple of {@code step} (an ABBA block gives 2 per arm) except the cap. The first look is raised to what an
	 * interval of a median takes at the looks' level ({@link BootstrapCi#minSamples()}); when that reaches the cap, the
	 * plan has the one look at the cap.
	 *
	 * @throws IllegalArgumentException when {@code cap < fewest} or a count is not positive
	 */
	public static SequentialPlan of(int fewest, int cap, int step, int maxLooks, double targetHalfWidth, double level) {
		if (fewest < 1 || step < 1 || maxLooks < 1 || cap < fewest) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"need 1 <= fewest <= cap, step >= 1, looks >= 1; got fewest %d, cap %d, step %d, looks %d", fewest, cap,
					step, maxLooks));
		}
		if (maxLooks == 1 || cap == fewest) {
			return new SequentialPlan(List.of(cap), targetHalfWidth, level);
		}
		double lookLevel = 1 - (1 - level) / maxLooks;
		int first = roundUp(Math.max(fewest, BootstrapCi.seeded(0).withLevel(lookLevel).minSamples()), step);
		if (first >= cap) {
			return new SequentialPlan(List.of(cap), targetHalfWidth, level);
		}
		List<Integer> looks = new ArrayList<>();
		for (int i = 0; i < maxLooks - 1; i++) {
			int n = roundUp(first + (int) Math.round((double) (cap - first) * i / (maxLooks - 1)), step);
			if (n < cap && (looks.isEmpty() || n > looks.get(looks.size() - 1))) {
				looks.add(n);
			}
		}
		looks.add(cap);
		return new SequentialPlan(looks, targetHalfWidth, level);
	}

	private static int roundUp(int n, int step) {
		return (n + step - 1) / step * step;
	}

	/** The most samples per arm: the last look. */
	public int cap() {
		return looks.get(looks.size() - 1);
	}

	/** The fewest samples per arm: the first look. */
	public int first() {
		return looks.get(0);
	}

	/** The level of each look's interval: {@code 1 - (1 - level) / K}; the plain level with one look. */
	public double lookLevel() {
		return looks.size() == 1 ? level : 1 - (1 - level) / looks.size();
	}

	/** A bootstrap at the looks' level. */
	public BootstrapCi bootstrap(long seed) {
		return BootstrapCi.seeded(seed).withLevel(lookLevel());
	}

	/** Whether {@code interval} is bounded with half-width at or under the target. */
	public boolean narrow(ConfidenceInterval interval) {
		return interval.isBounded() && (interval.hi() - interval.lo()) / 2 <= targetHalfWidth;
	}

	/**
	 * Runs the plan: {@code lookAt.apply(n)} measures up to {@code n} samples per arm and returns the intervals (at
	 * {@link #lookLevel()}) the stop is judged on; the first look where all are {@linkplain #narrow narrow} stops, else the
	 * cap.
	 */
	public Stop run(IntFunction<List<ConfidenceInterval>> lookAt) {
		return run(lookAt, intervals -> !intervals.isEmpty() && intervals.stream().allMatch(this::narrow));
	}

	/**
	 * Runs the plan with another stopping rule: the first look where {@code enough} holds for its intervals (at
	 * {@link #lookLevel()}) stops, else the cap; the coverage argument above holds whatever the rule. The rate sweep stops
	 * a level once each arm's attainment interval lies wholly on one side of the target.
	 *
	 * @since 0.8
	 */
	public Stop run(IntFunction<List<ConfidenceInterval>> lookAt, Predicate<List<ConfidenceInterval>> enough) {
		for (int n : looks) {
			List<ConfidenceInterval> intervals = List.copyOf(lookAt.apply(n));
			boolean stop = enough.test(intervals);
			if (stop || n == cap()) {
				return new Stop(this, n, !stop, intervals);
			}
		}
		throw new AssertionError("the cap is a look");
	}

	/**
	 * Where a plan stopped.
	 *
	 * @param plan the plan
	 * @param used samples per arm when it stopped
	 * @param capHit whether it stopped at the cap without its rule met (an interval wider than the target, or undecided)
	 * @param intervals the intervals of the stopping look
	 * @since 0.7
	 */
	public record Stop(SequentialPlan plan, int used, boolean capHit, List<ConfidenceInterval> intervals) {

		/**
		 * Writes {@code rule, method, target_half_width, level, look_level, looks, cap, used, cap_hit}; {@code unit} names
		 * what a sample is (e.g. {@code batches per arm}).
		 */
		public void writeTo(ObjectNode node, String unit) {
			node.put("rule", "stop at the first planned look where every interval's half-width <= target_half_width, else at "
					+ "the cap");
			node.put("method", METHOD);
			JsonNumbers.put(node, "target_half_width", plan.targetHalfWidth(), 6);
			node.put("level", plan.level());
			JsonNumbers.put(node, "look_level", plan.lookLevel(), 6);
			ArrayNode looks = node.putArray("looks");
			plan.looks().forEach(looks::add);
			node.put("unit", unit);
			node.put("cap", plan.cap());
			node.put("used", used);
			node.put("cap_hit", capHit);
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%d of at most %d (%s)", used, plan.cap(),
					capHit
							? "cap hit, wider than +/-" + percent(plan.targetHalfWidth())
							: "narrower than +/-" + percent(plan.targetHalfWidth()));
		}

		private static String percent(double fraction) {
			return String.format(Locale.ROOT, "%.2f %%", fraction * 100);
		}
	}
}
