package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a sweep level's measured batches: each arm's own run of conversations, the double's lag over them alone and over the first block")
class SweepLevelMeasureTests {

	/**
	 * A level at c=2 on the instant engine double: every measured batch asks the next conversations of its arm, so each
	 * measured conversation is asked once per arm; the double's lag is reset once, after both warm-up waves, read after
	 * the first ABBA block (the futility look's reading) and at the end into the level; the merged arms say how many
	 * batches ran and where the sequential stop stopped. The futility stop is off: on a loaded machine the instant
	 * double's short batches can read a lagging client.
	 */
	@Test
	@DisplayName("each arm runs on its own target and asks conversations 0, 1, 2, ... once each; the double's lag covers the measured batches only; the mode says how it ran")
	void bookkeeping() throws IOException {
		TaxSettings settings = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));
		int c = 2;
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient a = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient b = TargetClient.open("raw_b", URI.create(engine.baseUrl()))) {
			RequestSource fixed = RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4));
			Queue<Integer> asked = new ConcurrentLinkedQueue<>();
			RequestSource recording = index -> {
				asked.add(index);
				return fixed.conversation(index);
			};
			long[] servedAtReset = { -1 };
			int[] calls = new int[2];
			UpstreamLag lag = new UpstreamLag() {
				@Override
				public void reset() {
					calls[0]++;
					servedAtReset[0] = engine.requestCount();
				}

				@Override
				public Reading read() {
					calls[1]++;
					return new Reading(engine.requestCount(), 50, 90, 120); // its count: the requests served when it was read
				}
			};
			SweepLevel level = SweepLevel.measure(a, b, recording, c, settings, Optional.of(lag), URI.create(engine.baseUrl()),
					Progress.silent(), Futility.NEVER);

			int batches = level.batchesA().size();
			int batchSize = settings.sweepBatchSize(c);
			assertThat(level.batchesB()).hasSize(batches);
			assertThat(level.batchesA()).as("arm A's batches ran on A").extracting(LoadResult::target).containsOnly("raw");
			assertThat(level.batchesB()).as("arm B's batches ran on B").extracting(LoadResult::target).containsOnly("raw_b");
			Map<Integer, Long> measured = asked.stream()
					.filter(i -> i < RequestSource.WARMUP_OFFSET / 2)
					.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
			assertThat(measured.keySet()).as("the measured conversations of both arms")
					.containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, batches * batchSize).boxed().toList());
			assertThat(measured.values()).as("each asked once per arm").containsOnly(2L);

			assertThat(calls).as("the double's lag: reset once, read after the first block and at the end").containsExactly(1, 2);
			assertThat(servedAtReset[0]).as("reset after both warm-up waves, before any measured request")
					.isEqualTo(2L * SweepLevel.warmupRequests(c));
			assertThat(level.firstBlockLag()).as("read when the first ABBA block had ended")
					.hasValueSatisfying(
							first -> assertThat(first.count())
									.isEqualTo(2L * SweepLevel.warmupRequests(c) + 2L * Futility.LOOK_BATCHES_PER_ARM * batchSize));
			assertThat(level.lag()).as("read at the end")
					.hasValueSatisfying(end -> assertThat(end.count()).isEqualTo(engine.requestCount()));
			assertThat(level.toJson("raw", "raw_b").at("/first_block_engine_double_lag/p99_us").asDouble()).isEqualTo(90.0);

			assertThat(level.latencyTax().isDefined()).as("the E2EL ratio of the arms' answered requests").isTrue();
			assertThat(level.latencyTax().estimate()).isPositive().isFinite();
			assertThat(level.stop()).isPresent();
			assertThat(level.a().mode()).isEqualTo(level.b().mode())
					.isEqualTo("closed-loop concurrency 2, " + batches + " batches of " + batchSize + " in ABBA order (sequential stop: "
							+ level.stop().orElseThrow() + ")");
		}
	}
}
