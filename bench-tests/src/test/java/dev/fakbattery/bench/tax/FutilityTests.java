package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("futility: a sweep level whose client already lags past the margin in its first block stops there")
class FutilityTests {

	/** Where the committed readings live, from bench-tests' folder. */
	private static final Path EXPERIMENTS = Path.of("..", "experiments");

	/** The fewest recorded levels that ended valid the double's rule is checked on: 40, so that one false stop is 2.5 % of them. */
	private static final int MIN_VALID_DOUBLE_SERIES = 40;

	private static LoadResult batch(String target, dev.fakbattery.core.load.ClientLag lag) {
		return Synthetic.result(target, Synthetic.oks(target, 4, 100), 0, 1, lag);
	}

	@Test
	@DisplayName("every batch of the first block over 1.25 ms stops; one batch that kept pace, or fewer batches than a block, goes on")
	void ruleOnTheFirstBlock() {
		assertThat(Futility.DEFAULT.stops(List.of(1_300.0, 1_400.0, 2_000.0, 1_251.0))).isTrue();
		assertThat(Futility.DEFAULT.stops(List.of(1_300.0, 1_400.0, 2_000.0, 1_250.0))).as("at the threshold is not over it").isFalse();
		assertThat(Futility.DEFAULT.stops(List.of(5_000.0, 5_000.0, 5_000.0, 900.0))).isFalse();
		assertThat(Futility.DEFAULT.stops(List.of())).isFalse();
		assertThat(Futility.NEVER.stops(List.of(1e9, 1e9, 1e9, 1e9))).isFalse();

		List<LoadResult> late = List.of(batch("raw", Synthetic.LATE), batch("raw", Synthetic.LATE), batch("raw", Synthetic.QUIET));
		List<LoadResult> lateGateway = List.of(batch("gateway", Synthetic.LATE), batch("gateway", Synthetic.LATE));
		assertThat(Futility.DEFAULT.judge(late, lateGateway, Optional.empty())).hasValueSatisfying(reading -> assertThat(reading)
				.startsWith("load client lag p99 over 1250 us (1.25 x its 1000 us limit) in every batch of the first ABBA block: ")
				.endsWith(" us"));
		assertThat(Futility.DEFAULT.judge(late, lateGateway.subList(0, 1), Optional.empty())).as("half a block").isEmpty();
		assertThat(
				Futility.DEFAULT.judge(List.of(batch("raw", Synthetic.LATE), batch("raw", Synthetic.QUIET)), lateGateway, Optional.empty()))
				.isEmpty();
	}

	@Test
	@DisplayName("where the client kept pace, the double's lag p99 over the first block over 1.25 ms stops; at it, none read, or no double goes on")
	void doubleRuleOnTheFirstBlock() {
		List<LoadResult> quiet = List.of(batch("raw", Synthetic.QUIET), batch("raw", Synthetic.QUIET));
		List<LoadResult> quietGateway = List.of(batch("gateway", Synthetic.QUIET), batch("gateway", Synthetic.QUIET));
		UpstreamLag.Reading over = new UpstreamLag.Reading(512, 300, 1_300, 9_000);
		assertThat(Futility.DEFAULT.judge(quiet, quietGateway, Optional.of(over))).hasValueSatisfying(reading -> assertThat(reading)
				.isEqualTo("engine double lag p99 over 1250 us (1.25 x its 1000 us limit) over the first ABBA block: " + over));
		assertThat(Futility.DEFAULT.judge(quiet, quietGateway, Optional.of(new UpstreamLag.Reading(512, 300, 1_250, 9_000))))
				.as("at the threshold is not over it")
				.isEmpty();
		assertThat(Futility.DEFAULT.judge(quiet, quietGateway, Optional.of(new UpstreamLag.Reading(0, Double.NaN, Double.NaN, Double.NaN))))
				.as("no emission read")
				.isEmpty();
		assertThat(Futility.DEFAULT.judge(quiet, quietGateway, Optional.empty())).as("no double").isEmpty();
		assertThat(Futility.DEFAULT.judge(quiet, quietGateway.subList(0, 1), Optional.of(over))).as("half a block").isEmpty();
		assertThat(Futility.NEVER.judge(quiet, quietGateway, Optional.of(new UpstreamLag.Reading(512, 1e9, 1e9, 1e9)))).isEmpty();

		List<LoadResult> late = List.of(batch("raw", Synthetic.LATE), batch("raw", Synthetic.LATE));
		List<LoadResult> lateGateway = List.of(batch("gateway", Synthetic.LATE), batch("gateway", Synthetic.LATE));
		assertThat(Futility.DEFAULT.judge(late, lateGateway, Optional.of(over))).as("the client's reading is named first")
				.hasValueSatisfying(reading -> assertThat(reading).startsWith("load client lag"));
	}

	/**
	 * The double's rule against the series the committed sweep artifacts recorded since it is read
	 * ({@code first_block_engine_double_lag}, and at the level's end {@code engine_double_lag} and {@code client_lag}),
	 * of the levels that ran to their end: of those that ended valid (both lags within their limits), at most 5 % would
	 * have stopped after their first block; the rule stops some that ended invalid.
	 */
	@Test
	@DisplayName("on the recorded series of the double's lag: at most 5 % of the levels that ended valid would have stopped, and some that ended invalid do")
	void recordedDoubleSeries() throws IOException {
		SeriesTally tally = new SeriesTally();
		for (JsonNode level : recordedLevels(EXPERIMENTS)) {
			JsonNode first = level.path("first_block_engine_double_lag");
			if (!first.has("p99_us") || level.has("futility_stop") || !level.path("engine_double_lag").has("within_limit")) {
				continue;
			}
			boolean stops = Futility.DEFAULT.stops(new UpstreamLag.Reading(first.path("count").asLong(), first.path("p50_us").asDouble(),
					first.path("p99_us").asDouble(), first.path("max_us").asDouble()));
			tally.add(
					level.path("engine_double_lag").path("within_limit").asBoolean()
							&& level.path("client_lag").path("within_limit").asBoolean(),
					stops);
		}
		tally.check(MIN_VALID_DOUBLE_SERIES);
	}

	@Test
	@DisplayName("a level whose double lags past the rule at the first look runs one ABBA block and names the double's reading")
	void levelStopsOnTheDoublesLag() throws IOException {
		TaxSettings settings = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient a = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient b = TargetClient.open("raw_b", URI.create(engine.baseUrl()))) {
			RequestSource payload = RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4));
			UpstreamLag lagging = new UpstreamLag() {
				@Override
				public void reset() {
				}

				@Override
				public Reading read() {
					return new Reading(64, 3e6, 4e6, 5e6); // over 2 s: no client's lag on a loaded machine reaches it first
				}
			};
			SweepLevel stopped = SweepLevel.measure(a, b, payload, 2, settings, Optional.of(lagging), URI.create(engine.baseUrl()),
					Progress.silent(), new Futility(2e6));
			assertThat(stopped.batchesA()).hasSize(Futility.LOOK_BATCHES_PER_ARM);
			assertThat(stopped.batchesB()).hasSize(Futility.LOOK_BATCHES_PER_ARM);
			assertThat(stopped.ratio().isDefined()).isFalse();
			assertThat(stopped.futility()).hasValueSatisfying(r -> assertThat(r).startsWith("engine double lag p99 over 2000000 us"));
			assertThat(stopped.toJson("raw", "raw_b").at("/first_block_engine_double_lag/p99_us").asDouble()).isEqualTo(4e6);
		}
	}

	/**
	 * The margin against the lag series every committed sweep artifact recorded ({@code batch_client_lag_p99_us} per arm in
	 * run order, {@code client_lag.within_limit} at the level's end): of the levels that ended valid, at most 5 % would have
	 * stopped after their first block; the rule stops some that ended invalid (it can fire at all).
	 */
	@Test
	@DisplayName("on the recorded lag series: at most 5 % of the levels that ended valid would have stopped, and some that ended invalid do")
	void recordedSeries() throws IOException {
		SeriesTally tally = new SeriesTally();
		for (JsonNode level : recordedLevels(EXPERIMENTS)) {
			List<JsonNode> arms = new ArrayList<>();
			level.path("batch_client_lag_p99_us").elements().forEachRemaining(arms::add);
			List<Double> block = new ArrayList<>();
			arms.forEach(arm -> {
				for (int i = 0; i < Futility.LOOK_BATCHES_PER_ARM && i < arm.size(); i++) {
					block.add(arm.get(i).asDouble());
				}
			});
			boolean stops = block.size() == 2 * Futility.LOOK_BATCHES_PER_ARM && Futility.DEFAULT.stops(block);
			tally.add(level.path("client_lag").path("within_limit").asBoolean(), stops);
		}
		tally.check(50);
	}

	@Test
	@DisplayName("a level whose rule fires runs one ABBA block, no interval, and says why; the same level without the rule runs to its stop")
	void levelStopsAfterItsFirstBlock() throws IOException {
		TaxSettings settings = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));
		// paced (about 1 ms a token), so that each batch lasts long enough for the client's lag probe to sample it
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.defaults()).start();
				TargetClient a = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient b = TargetClient.open("raw_b", URI.create(engine.baseUrl()))) {
			RequestSource payload = RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 16));
			SweepLevel stopped = SweepLevel.measure(a, b, payload, 2, settings, Optional.empty(), URI.create(engine.baseUrl()),
					Progress.silent(), new Futility(-1));
			assertThat(stopped.batchesA()).hasSize(Futility.LOOK_BATCHES_PER_ARM);
			assertThat(stopped.batchesB()).hasSize(Futility.LOOK_BATCHES_PER_ARM);
			assertThat(stopped.ratio().isDefined()).isFalse();
			assertThat(stopped.ratio().reason()).hasValueSatisfying(r -> assertThat(r).startsWith("stopped for futility: load client lag"));
			assertThat(stopped.stop()).isEmpty();
			assertThat(stopped.toJson("raw", "raw_b").at("/futility_stop/reading").asText()).startsWith("load client lag p99 over -1 us");

			SweepLevel full = SweepLevel.measure(a, b, payload, 2, settings, Optional.empty(), URI.create(engine.baseUrl()),
					Progress.silent(), Futility.NEVER);
			assertThat(full.futility()).isEmpty();
			assertThat(full.batchesA()).hasSizeGreaterThanOrEqualTo(TaxSettings.MIN_BATCHES);
			assertThat(full.toJson("raw", "raw_b").has("futility_stop")).isFalse();
		}
	}

	/** Every sweep level in the committed artifacts under {@code experiments} that carries its batches' lag and its verdict. */
	static List<JsonNode> recordedLevels(Path experiments) throws IOException {
		List<JsonNode> levels = new ArrayList<>();
		try (Stream<Path> files = Files.walk(experiments)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
				JsonNode root;
				try {
					root = Json.MAPPER.readTree(file.toFile());
				}
				catch (IOException notJson) {
					continue;
				}
				root.findParents("batch_client_lag_p99_us")
						.stream()
						.filter(level -> level.path("batch_client_lag_p99_us").isObject() && level.path("client_lag").has("within_limit"))
						.forEach(levels::add);
			}
		}
		return levels;
	}
}
