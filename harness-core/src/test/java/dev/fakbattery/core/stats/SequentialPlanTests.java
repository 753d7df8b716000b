package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiFunction;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@DisplayName("SequentialPlan")
@Execution(ExecutionMode.CONCURRENT)
class SequentialPlanTests {

	/** A/A runs per coverage check: the standard error of a 95 % coverage over 2,000 runs is 0.49 points. */
	private static final int SIMULATIONS = 2_000;

	/** Coverage below this (3 standard errors under 95 %) reads as under-covering. */
	private static final double FLOOR = 0.935;

	/** Batch-to-batch noise of the simulated A/A arms: 0.3 %, as the battery's sweep batches read on 2 cores. */
	private static final double NOISE = 0.003;

	/** The target half-width of both rules in the coverage checks: +/-0.25 %. */
	private static final double TARGET = 0.0025;

	@Nested
	@DisplayName("looks")
	class Looks {

		@Test
		@DisplayName("three looks from the fewest a 98.3 % median interval takes to the cap, even, each at 1 - 0.05 / 3")
		void spread() {
			SequentialPlan plan = SequentialPlan.of(6, 24, 2, 3, 0.005, 0.95);

			assertThat(plan.looks()).containsExactly(8, 16, 24);
			assertThat(plan.lookLevel()).isEqualTo(1 - 0.05 / 3);
			assertThat(plan.bootstrap(1).minSamples()).isLessThanOrEqualTo(plan.first());
		}

		@Test
		@DisplayName("a cap at the fewest is one look at the plain level: today's fixed-size measurement")
		void oneLook() {
			SequentialPlan plan = SequentialPlan.of(6, 6, 2, 3, 0.005, 0.95);

			assertThat(plan.looks()).containsExactly(6);
			assertThat(plan.lookLevel()).isEqualTo(0.95);
		}

		@Test
		@DisplayName("a cap under what the looks' level takes leaves one look at the cap")
		void capTooLowForLooks() {
			assertThat(SequentialPlan.of(6, 8, 2, 3, 0.005, 0.95).looks()).containsExactly(8);
		}

		@Test
		@DisplayName("rejects a cap under the fewest and looks that do not ascend")
		void rejects() {
			assertThatIllegalArgumentException().isThrownBy(() -> SequentialPlan.of(8, 6, 2, 3, 0.005, 0.95))
					.withMessageContaining("fewest 8, cap 6");
			assertThatIllegalArgumentException().isThrownBy(() -> new SequentialPlan(List.of(8, 8), 0.005, 0.95))
					.withMessageContaining("ascend");
		}
	}

	@Nested
	@DisplayName("stopping")
	class Stopping {

		@Test
		@DisplayName("stops at the first look where every interval is narrow, recording what it used")
		void stopsWhenNarrow() {
			SequentialPlan plan = SequentialPlan.of(6, 24, 2, 3, 0.005, 0.95);
			SequentialPlan.Stop stop = plan.run(n -> List.of(interval(0.004 * 24 / n), interval(0.001)));

			assertThat(stop.used()).isEqualTo(24);
			assertThat(stop.capHit()).isFalse();
			SequentialPlan.Stop early = plan.run(n -> List.of(interval(0.004 * 8 / n)));
			assertThat(early.used()).isEqualTo(8);
			ObjectNode node = Json.MAPPER.createObjectNode();
			early.writeTo(node, "batches per arm");
			assertThat(node.get("used").asInt()).isEqualTo(8);
			assertThat(node.get("cap").asInt()).isEqualTo(24);
			assertThat(node.get("cap_hit").asBoolean()).isFalse();
			assertThat(node.get("method").asText()).contains("Bonferroni");
			assertThat(node.get("target_half_width").asDouble()).isEqualTo(0.005);
		}

		@Test
		@DisplayName("an interval that never narrows, or is undefined, runs to the cap and says the cap was hit")
		void capHit() {
			SequentialPlan plan = SequentialPlan.of(6, 24, 2, 3, 0.005, 0.95);

			assertThat(plan.run(n -> List.of(interval(0.02))).capHit()).isTrue();
			SequentialPlan.Stop undefined = plan.run(n -> List.of(ConfidenceInterval.undefined("ratio", "no samples", 0.95, 0, 1)));
			assertThat(undefined.used()).isEqualTo(24);
			assertThat(undefined.capHit()).isTrue();
		}

		private static ConfidenceInterval interval(double halfWidth) {
			return ConfidenceInterval.ofBounds("ratio of medians", 1, 1 - halfWidth, 1 + halfWidth, 0.95);
		}
	}

	@Nested
	@DisplayName("coverage over 2,000 seeded A/A runs")
	class Coverage {

		/** What a rule reported for one A/A run: its interval and the samples per arm it used. */
		private record Reported(ConfidenceInterval interval, int used) {
		}

		@Test
		@DisplayName("the plan's reported interval contains the true ratio 1 in at least 93.5 % of runs, stopping early in many")
		void planCovers() {
			SequentialPlan plan = SequentialPlan.of(6, 24, 2, 3, TARGET, 0.95);
			BootstrapCi bootstrap = bootstrap(plan.lookLevel());
			int[] early = new int[1];
			double coverage = coverage((a, b) -> {
				SequentialPlan.Stop stop = plan.run(n -> List.of(bootstrap.ratioOfMedians(head(b, n), head(a, n))));
				early[0] += stop.used() < plan.cap() ? 1 : 0;
				return new Reported(stop.intervals().get(0), stop.used());
			});

			assertThat(coverage).as("coverage of %s", plan).isGreaterThanOrEqualTo(FLOOR);
			assertThat(early[0]).as("runs stopped before the cap").isGreaterThan(SIMULATIONS / 10);
		}

		@Test
		@DisplayName("the same check catches a deliberately wrong rule: a 95 % bootstrap interval after every block, stopping when "
				+ "narrow or when it excludes 1")
		void naivePeekingUnderCovers() {
			BootstrapCi naive = bootstrap(0.95);
			double coverage = coverage((a, b) -> {
				for (int n = 6;; n += 2) {
					ConfidenceInterval ci = naive.ratioOfMedians(head(b, n), head(a, n));
					if (n == a.length || (ci.hi() - ci.lo()) / 2 <= TARGET || !ci.contains(1)) {
						return new Reported(ci, n);
					}
				}
			});

			assertThat(coverage).as("coverage of naive peeking").isLessThan(FLOOR);
		}

		/** The share of {@link #SIMULATIONS} seeded A/A runs (24 samples per arm at most) whose reported interval holds 1. */
		private static double coverage(BiFunction<double[], double[], Reported> rule) {
			SplittableRandom random = new SplittableRandom(20_261_202L);
			int covered = 0;
			for (int run = 0; run < SIMULATIONS; run++) {
				double[] a = new double[24];
				double[] b = new double[24];
				for (int i = 0; i < a.length; i++) {
					a[i] = 1 + NOISE * random.nextGaussian();
					b[i] = 1 + NOISE * random.nextGaussian();
				}
				Reported reported = rule.apply(a, b);
				assertThat(reported.used()).isBetween(6, 24);
				covered += reported.interval().contains(1) ? 1 : 0;
			}
			return (double) covered / SIMULATIONS;
		}

		private static double[] head(double[] values, int n) {
			return Arrays.copyOf(values, n);
		}

		private static BootstrapCi bootstrap(double level) {
			return BootstrapCi.seeded(7).withResamples(500).withLevel(level);
		}
	}
}
