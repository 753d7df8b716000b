package dev.fakbattery.bench.tax;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.Interleaving;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("a rate level's turns: which arm each batch is, with which conversations, and whether an arm met the target")
class RateLevelTests {

	@TempDir
	Path dir;

	/** The battery's settings: batches of 32 requests at 16 req/s, looks at 2 and 4 batches per arm. */
	private TaxSettings battery() {
		return TaxSettings.from(HarnessConfig.of(name -> Optional.ofNullable(switch (name) {
			case HarnessConstants.PROFILE -> "battery";
			case HarnessConstants.BASELINE_FILE -> dir.resolve("baseline.json").toString();
			default -> null;
		})));
	}

	/** A batch of {@code size} requests from conversation {@code start}, good (TTFT 10 ms, E2EL 100 ms) or all missing TPOT. */
	private static LoadResult batch(String target, int start, int size, boolean good) {
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (int i = 0; i < size; i++) {
			outcomes.add(Synthetic.ok(target, start + i, 10, good ? 100 : 1_000, 8));
		}
		return Synthetic.result(target, outcomes, 0, 2, Synthetic.QUIET);
	}

	@Test
	@DisplayName("a level's ABBA order is the one its rate and the run's seed give: seed + 1000 x rate, so an artifact's order can be redrawn")
	void orderSeededByTheRate() {
		TaxSettings settings = battery();

		for (double rate : new double[]{ 1, 2, 4, 8, 16.5, 32, 64 }) {
			assertThat(RateLevel.order(rate, settings)).as("%s req/s", rate)
					.isEqualTo(Interleaving.abba(settings.ratePlan().cap(), settings.seed() + Math.round(rate * 1000)));
		}
	}

	@Test
	@DisplayName("batches run in order, each the arm the ABBA order names, each arm's conversations going on where its last batch ended")
	void batchesFollowTheOrder() {
		TaxSettings settings = battery();
		List<Interleaving.Arm> order = RateLevel.order(16, settings);
		List<String> runs = new ArrayList<>();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		Progress progress = Progress.start("tax", "rate 16 requests", 1_000, Duration.ofDays(1), new PrintStream(out, true, UTF_8),
				() -> 0L);

		RateLevel.Batches batches = RateLevel.decide(16, settings, (segment, first, start, size) -> {
			runs.add(segment + " " + (first ? "A" : "B") + " from " + start + " x" + size);
			return batch(first ? "raw" : "gateway", start, size, first);
		}, progress);
		progress.finish();

		assertThat(batches.stop().used()).as("decided at the first look").isEqualTo(2);
		List<String> expected = new ArrayList<>();
		int[] next = new int[2];
		for (int segment = 0; segment < 4; segment++) {
			boolean first = order.get(segment) == Interleaving.Arm.A;
			expected.add(segment + " " + (first ? "A" : "B") + " from " + next[first ? 0 : 1] + " x32");
			next[first ? 0 : 1] += 32;
		}
		assertThat(runs).isEqualTo(expected);
		assertThat(batches.a()).allMatch(r -> r.target().equals("raw")).hasSize(2);
		assertThat(batches.b()).allMatch(r -> r.target().equals("gateway")).hasSize(2);
		String last = order.get(3) == Interleaving.Arm.A ? "raw" : "gateway";
		assertThat(out.toString(UTF_8)).as("the progress line's detail: the last batch run")
				.contains("rate 16.00 req/s, " + last + " batch 2 of at most 4 per arm, next look at 2, 32 requests each");
	}

	@Test
	@DisplayName("an arm whose attainment is exactly the target met it")
	void attainmentAtTheTargetIsMet() {
		TaxSettings settings = battery();
		List<RequestOutcome> nineOfTen = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			nineOfTen.add(Synthetic.ok("raw", i, 10, i < 9 ? 100 : 1_000, 8));
		}
		LoadResult a = Synthetic.result("raw", nineOfTen, 0, 2, Synthetic.QUIET);
		LoadResult b = batch("gateway", 0, 10, false);
		Goodput goodA = Goodput.of(settings.load().slo(), a.outcomes().stream().map(RequestOutcome::timing).toList(), 2);
		Goodput goodB = Goodput.of(settings.load().slo(), b.outcomes().stream().map(RequestOutcome::timing).toList(), 2);
		RateLevel level = new RateLevel(16, a, b, goodA, goodB, Optional.empty(), Optional.empty());

		ObjectNode json = level.toJson(0.9);

		assertThat(level.pointA().attainment()).isEqualTo(0.9);
		assertThat(json.path("raw_met").asBoolean()).as("0.9 of requests good, target 0.9").isTrue();
		assertThat(json.path("gateway_met").asBoolean()).isFalse();
	}
}
