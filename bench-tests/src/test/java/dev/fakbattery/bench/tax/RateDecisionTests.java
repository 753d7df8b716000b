package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.RateSearch;
import dev.fakbattery.core.stats.Slo;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("rate sweep level: stops adding batches once both arms' attainment is decided, else at the cap")
class RateDecisionTests {

	@TempDir
	Path dir;

	/** The battery's settings at 16 req/s: batches of 32 requests, looks at 2 and 4 batches per arm (97.5 %). */
	private TaxSettings battery(String looks) {
		return TaxSettings.from(HarnessConfig.of(name -> Optional.ofNullable(switch (name) {
			case HarnessConstants.PROFILE -> "battery";
			case HarnessConstants.BASELINE_FILE -> dir.resolve("baseline.json").toString();
			case HarnessConstants.STOP_LOOKS -> looks;
			default -> null;
		})));
	}

	/** A batch whose requests are good (TTFT 10 ms, E2EL 100 ms) in the fraction {@code good} of every ten, the rest miss TPOT. */
	private static LoadResult batch(String target, int start, int size, double good) {
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (int i = 0; i < size; i++) {
			boolean ok = (start + i) % 10 < Math.round(good * 10);
			outcomes.add(Synthetic.ok(target, start + i, 10, ok ? 100 : 1_000, 8));
		}
		return Synthetic.result(target, outcomes, 0, 2, Synthetic.QUIET);
	}

	private static RateLevel.Batches decide(TaxSettings settings, double goodA, double goodB) {
		return RateLevel.decide(16, settings,
				(segment, first, start, size) -> batch(first ? "raw" : "gateway", start, size, first ? goodA : goodB),
				Progress.silent());
	}

	@Test
	@DisplayName("every request good on one arm, none on the other: decided at the first look (2 of 4 batches per arm, 64 requests)")
	void decidedEarly() {
		RateLevel.Batches batches = decide(battery(null), 1.0, 0.0);
		assertThat(batches.stop().plan().looks()).containsExactly(2, TaxSettings.RATE_MAX_BATCHES);
		assertThat(batches.stop().plan().lookLevel()).isEqualTo(0.975);
		assertThat(batches.a()).hasSize(2);
		assertThat(batches.b()).hasSize(2);
		assertThat(batches.stop().used()).isEqualTo(2);
		assertThat(batches.stop().capHit()).isFalse();
		assertThat(batches.stop().intervals().get(0).lo()).as("64 of 64 at 97.5 %").isGreaterThanOrEqualTo(0.9);
		assertThat(batches.stop().intervals().get(1).hi()).isLessThan(0.9);
		assertThat(batches.a().get(1).outcomes().get(0).index()).as("the next batch goes on with the next conversations").isEqualTo(32);
	}

	@Test
	@DisplayName("an arm at the target stays undecided: the level runs to the cap and says so")
	void undecidedRunsToTheCap() {
		RateLevel.Batches batches = decide(battery(null), 0.9, 0.0);
		assertThat(batches.a()).hasSize(TaxSettings.RATE_MAX_BATCHES);
		assertThat(batches.b()).hasSize(TaxSettings.RATE_MAX_BATCHES);
		assertThat(batches.stop().used()).isEqualTo(TaxSettings.RATE_MAX_BATCHES);
		assertThat(batches.stop().capHit()).isTrue();
		assertThat(batches.stop().intervals().get(0).contains(0.9)).isTrue();
	}

	@Test
	@DisplayName("stop.looks=1: one look at the cap at 95 %; the smoke profile: one look at 2 batches, as before the decision")
	void oneLook() {
		RateLevel.Batches batches = decide(battery("1"), 1.0, 0.0);
		assertThat(batches.stop().plan().looks()).containsExactly(TaxSettings.RATE_MAX_BATCHES);
		assertThat(batches.stop().plan().lookLevel()).isEqualTo(0.95);
		assertThat(batches.a()).hasSize(TaxSettings.RATE_MAX_BATCHES);
		TaxSettings smoke = Synthetic.settings(dir, java.util.Map.of());
		assertThat(smoke.ratePlan().looks()).containsExactly(2);
	}

	@Test
	@DisplayName("the ramp before a level's first batch: 2 x rate.batch.seconds of arrivals (4 s in the battery), at least one")
	void ramp() {
		TaxSettings.RateLoad load = battery(null).load();
		assertThat(RateLevel.rampRequests(16, load)).isEqualTo(64);
		assertThat(RateLevel.rampRequests(1, load)).as("4 s, not two 8-request batches (16 s)").isEqualTo(4);
		assertThat(RateLevel.rampRequests(0.1, load)).isEqualTo(1);
	}

	@Test
	@DisplayName("misses in one run count for fewer requests than as many scattered misses, read in the planned order whatever the list's")
	void missesInRunsWiden() {
		Slo slo = battery(null).load().slo();
		List<RequestOutcome> runs = new ArrayList<>();
		List<RequestOutcome> scattered = new ArrayList<>();
		for (int i = 99; i >= 0; i--) {
			// listed last first: the order must come from the planned send times
			runs.add(Synthetic.ok("raw", i, 10, i >= 40 && i < 50 ? 1_000 : 100, 8));
			scattered.add(Synthetic.ok("raw", i, 10, i % 10 == 5 ? 1_000 : 100, 8));
		}
		RateSearch.Point clustered = RateLevel.point(16, Synthetic.result("raw", runs, 0, 2, Synthetic.QUIET), slo);
		RateSearch.Point spread = RateLevel.point(16, Synthetic.result("raw", scattered, 0, 2, Synthetic.QUIET), slo);
		assertThat(clustered.good()).isEqualTo(90);
		assertThat(spread.good()).isEqualTo(90);
		assertThat(clustered.designEffect()).isGreaterThan(3);
		assertThat(spread.designEffect()).isEqualTo(1);
		assertThat(clustered.attainmentInterval().lo()).isLessThan(spread.attainmentInterval().lo());
		RateSearch.Point unsent = RateLevel.point(16, Synthetic.result("raw", scattered, 5, 2, Synthetic.QUIET), slo);
		assertThat(unsent.requests()).as("unsent requests count, as not good").isEqualTo(105);
		assertThat(unsent.good()).isEqualTo(90);
	}
}
