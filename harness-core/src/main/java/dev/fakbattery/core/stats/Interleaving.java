package dev.fakbattery.core.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.apiguardian.api.API;

/**
 * Seeded, randomised order of the two arms of an A/B comparison (e.g. A = raw engine, B = gateway),
 * so neither arm always runs first and drift, warm caches or a noisy neighbour fall on both arms
 * alike. fak's battery always sent raw before gateway.
 *
 * <ul>
 * <li>{@link #abba(int, long)}: counterbalanced blocks of four, each {@code A B B A} or
 * {@code B A A B} chosen at random. Within a block each arm holds one early and one late slot, so a
 * drift that is linear over the run cancels exactly between the arms; over many blocks each arm
 * sits at each position about equally often.</li>
 * <li>{@link #shuffled(int, long)}: a uniformly random permutation of {@code n} A and {@code n} B;
 * balanced only on average, with no block structure.</li>
 * </ul>
 * Both give exactly {@code n} of each arm and the same list for the same seed.
 *
 * <pre>
 * for (Interleaving.Arm arm : Interleaving.abba(16, seed)) {
 *     (arm == Interleaving.Arm.A ? raw : gateway).send(payload);
 * }
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class Interleaving {

	/** One side of an A/B comparison. @since 0.1 */
	public enum Arm {
		A, B;

		/** The other arm. */
		public Arm other() {
			return this == A ? B : A;
		}
	}

	private Interleaving() {
	}

	/**
	 * ABBA/BAAB blocks for {@code perArm} samples of each arm. When {@code perArm} is odd the
	 * schedule ends with a half block, {@code A B} or {@code B A} at random.
	 * @return an unmodifiable list of {@code 2 * perArm} arms
	 */
	public static List<Arm> abba(int perArm, long seed) {
		checkCount(perArm);
		SplittableRandom random = new SplittableRandom(seed);
		List<Arm> schedule = new ArrayList<>(2 * perArm);
		for (int block = 0; block < perArm / 2; block++) {
			Arm first = random.nextBoolean() ? Arm.A : Arm.B;
			schedule.add(first);
			schedule.add(first.other());
			schedule.add(first.other());
			schedule.add(first);
		}
		if (perArm % 2 == 1) {
			Arm first = random.nextBoolean() ? Arm.A : Arm.B;
			schedule.add(first);
			schedule.add(first.other());
		}
		return Collections.unmodifiableList(schedule);
	}

	/**
	 * A seeded Fisher-Yates shuffle of {@code perArm} A and {@code perArm} B.
	 * @return an unmodifiable list of {@code 2 * perArm} arms
	 */
	public static List<Arm> shuffled(int perArm, long seed) {
		checkCount(perArm);
		Arm[] arms = new Arm[2 * perArm];
		for (int i = 0; i < arms.length; i++) {
			arms[i] = i < perArm ? Arm.A : Arm.B;
		}
		SplittableRandom random = new SplittableRandom(seed);
		for (int i = arms.length - 1; i > 0; i--) {
			int j = random.nextInt(i + 1);
			Arm swap = arms[i];
			arms[i] = arms[j];
			arms[j] = swap;
		}
		return List.of(arms);
	}

	private static void checkCount(int perArm) {
		if (perArm < 0) {
			throw new IllegalArgumentException("samples per arm must be >= 0, got " + perArm);
		}
	}
}
