package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("host calibration: a probe per level says which levels this host can judge before they run")
class HostCalibrationTests {

	private static LoadResult wave(String target, ClientLag lag) {
		return Synthetic.result(target, Synthetic.oks(target, 4, 100), 0, 1, lag);
	}

	private static List<LoadResult> waves(String target, ClientLag first, ClientLag second) {
		return List.of(wave(target, first), wave(target, second));
	}

	private static List<UpstreamLag.Reading> doubles(double p99) {
		return List.of(new UpstreamLag.Reading(500, 80, p99, p99 * 2), new UpstreamLag.Reading(500, 80, p99, p99 * 2),
				new UpstreamLag.Reading(500, 80, p99, p99 * 2), new UpstreamLag.Reading(500, 80, p99, p99 * 2));
	}

	@Test
	@DisplayName("one wave within the margin keeps a level; every wave of the client or of the double past 1.25 x its limit is beyond the host, named; forced runs whatever it read")
	void verdicts() {
		List<LoadResult> quiet = waves("raw", Synthetic.QUIET, Synthetic.QUIET);
		List<LoadResult> late = waves("gateway", Synthetic.LATE, Synthetic.LATE);
		assertThat(HostCalibration.judge(8, quiet, waves("gateway", Synthetic.QUIET, Synthetic.QUIET), doubles(400), false).verdict())
				.isEqualTo(HostCalibration.Verdict.JUDGEABLE);
		assertThat(HostCalibration.judge(8, waves("raw", Synthetic.LATE, Synthetic.QUIET), late, doubles(1_200), false).verdict())
				.as("one client wave kept pace; the double over its limit but within the margin")
				.isEqualTo(HostCalibration.Verdict.JUDGEABLE);

		HostCalibration.Level client = HostCalibration.judge(64, waves("raw", Synthetic.LATE, Synthetic.LATE), late, doubles(400), false);
		assertThat(client.verdict()).isEqualTo(HostCalibration.Verdict.BEYOND_HOST);
		assertThat(client.reading()).isEqualTo("c=64: load client lag p99 per wave [2401, 2401, 2401, 2401] us, engine double lag p99 per "
				+ "wave [400, 400, 400, 400] us (limit 1000 us; beyond the host when every wave reads over 1250); over the margin in "
				+ "every wave: load client");

		HostCalibration.Level engine = HostCalibration.judge(128, quiet, waves("gateway", Synthetic.QUIET, Synthetic.QUIET), doubles(1_900),
				false);
		assertThat(engine.verdict()).isEqualTo(HostCalibration.Verdict.BEYOND_HOST);
		assertThat(engine.reason()).endsWith("over the margin in every wave: engine double");
		assertThat(HostCalibration.judge(128, quiet, late, List.of(), false).reason()).as("a real engine: the client's lag alone")
				.startsWith("load client lag p99 per wave [300, 300, 2401, 2401] us (limit");

		HostCalibration.Level forced = HostCalibration.judge(128, waves("raw", Synthetic.LATE, Synthetic.LATE), late, doubles(1_900), true);
		assertThat(forced.verdict()).isEqualTo(HostCalibration.Verdict.FORCED);
		assertThat(forced.reason()).endsWith("over the margin in every wave: load client, engine double; forced by calibration.force");

		HostCalibration calibration = new HostCalibration(List.of(client, engine, forced), Duration.ofMillis(1500));
		assertThat(calibration.runs(64)).isFalse();
		assertThat(calibration.runs(8)).as("a level not probed is not held back").isTrue();
		assertThat(calibration.beyond()).extracting(HostCalibration.Level::concurrency).containsExactly(64, 128);
		assertThat(HostCalibration.fix(calibration.beyond())).endsWith("-Dcalibration.force=64,128");

		ObjectNode json = Json.MAPPER.createObjectNode();
		calibration.writeTo(json);
		assertThat(json.path("duration_s").asDouble()).isEqualTo(1.5);
		assertThat(json.path("margin").asDouble()).isEqualTo(1.25);
		assertThat(json.at("/levels/0/verdict").asText()).isEqualTo("BEYOND_HOST");
		assertThat(json.at("/levels/0/probe_requests_per_arm").asInt()).isEqualTo(128);
		assertThat(json.at("/levels/0/client_lag/p99_us").asDouble()).isGreaterThan(1_250);
		assertThat(json.at("/levels/0/wave_client_lag_p99_us")).hasSize(4);
		assertThat(json.at("/levels/1/wave_engine_double_lag_p99_us/0").asDouble()).isEqualTo(1_900);
		assertThat(json.at("/levels/2/verdict").asText()).isEqualTo("FORCED");
	}

	@Test
	@DisplayName("a probe's failed requests are judged like a warm-up's: the gateway arm failing alone is counted against it")
	void probeFailuresCount() {
		LoadResult failing = Synthetic.result("gateway", List.of(Synthetic.failed("gateway", 0, 502)), 0, 1, Synthetic.QUIET);
		HostCalibration calibration = new HostCalibration(List.of(HostCalibration.judge(4,
				waves("raw", Synthetic.QUIET, Synthetic.QUIET), List.of(failing, wave("gateway", Synthetic.QUIET)), doubles(400), false)),
				Duration.ZERO);
		assertThat(calibration.failures()).singleElement().satisfies(f -> {
			assertThat(f.gateway()).isOne();
			assertThat(f.raw()).isZero();
			assertThat(f.where()).isEqualTo("c=4 calibration");
		});
	}

	@Test
	@DisplayName("calibration.force: all, witness, or levels by commas; calibration.force.rates: all or rates; anything else names the key and the fix")
	void force() {
		assertThat(HostCalibration.Force.parse("all").covers(512)).isTrue();
		assertThat(HostCalibration.Force.parse("all").witness()).isTrue();
		assertThat(HostCalibration.Force.parse("all").coversRate(3.5)).isTrue();
		assertThat(HostCalibration.Force.parse(" 64, 128 ").levels()).isEqualTo(Set.of(64, 128));
		assertThat(HostCalibration.Force.parse(" 64, 128 ").covers(8)).isFalse();
		assertThat(HostCalibration.Force.parse(" 64, 128 ").witness()).isFalse();
		assertThat(HostCalibration.Force.parse("witness,8").witness()).isTrue();
		assertThat(HostCalibration.Force.parse("witness,8").covers(8)).isTrue();
		assertThat(HostCalibration.Force.parse("witness").covers(8)).isFalse();
		assertThat(HostCalibration.Force.parse("").covers(1)).isFalse();
		assertThat(HostCalibration.Force.NONE.withRates("16, 32").coversRate(32.0)).isTrue();
		assertThat(HostCalibration.Force.NONE.withRates("16, 32").coversRate(8.0)).isFalse();
		assertThat(HostCalibration.Force.NONE.withRates("16, 32").covers(16)).as("a rate is not a concurrency level").isFalse();
		assertThat(HostCalibration.Force.NONE.withRates("all").coversRate(8.0)).isTrue();
		assertThat(HostCalibration.Force.NONE.coversRate(8.0)).isFalse();
		assertThatThrownBy(() -> HostCalibration.Force.parse("64;128")).isInstanceOf(ConfigurationException.class)
				.hasMessage("Unable to read calibration.force=64;128: it takes sweep levels separated by commas, witness, or all. Fix: "
						+ "pass -Dcalibration.force=64,128 or -Dcalibration.force=all.");
		assertThatThrownBy(() -> HostCalibration.Force.NONE.withRates("fast")).isInstanceOf(ConfigurationException.class)
				.hasMessage("Unable to read calibration.force.rates=fast: it takes rate sweep rates (requests/s) separated by commas, or "
						+ "all. Fix: pass -Dcalibration.force.rates=16,32 or -Dcalibration.force.rates=all.");
	}

	@Test
	@DisplayName("against the double: one ABBA block of waves per level, the double's lag read per wave")
	void probesTheDouble() throws IOException {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient raw = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient gateway = TargetClient.open("gateway", URI.create(engine.baseUrl()))) {
			int[] resets = new int[1];
			UpstreamLag lag = new UpstreamLag() {
				@Override
				public void reset() {
					resets[0]++;
				}

				@Override
				public Reading read() {
					return new Reading(100, 50, 1_900, 2_000);
				}
			};
			HostCalibration calibration = HostCalibration.run(raw, gateway,
					RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4)),
					List.of(3, 1), HostCalibration.Force.parse("3"), Duration.ofSeconds(30), Optional.of(lag), Progress.silent());
			assertThat(engine.requestCount()).as("two waves of max(c, 2) per arm per level").isEqualTo(4L * (2 + 3));
			assertThat(resets[0]).as("the double's lag read per wave").isEqualTo(8);
			assertThat(calibration.levels()).extracting(HostCalibration.Level::concurrency).containsExactly(1, 3);
			assertThat(calibration.levels()).extracting(HostCalibration.Level::verdict)
					.containsExactly(HostCalibration.Verdict.BEYOND_HOST, HostCalibration.Verdict.FORCED);
			assertThat(calibration.runs(1)).isFalse();
			assertThat(calibration.runs(3)).isTrue();
		}
	}

	/**
	 * A host that holds c=2 and not c=3 (the double's lag over the margin above c=2, the client quiet): the levels not
	 * forced are probed from the top down to c=2, the first judgeable; c=1 below it is not probed, judgeable on its
	 * reading, named in its reason and recorded {@code probed: false} with no readings; c=5, forced, is probed and runs.
	 * Synthetic waves: the order of probes, not this host's lag, is the subject ({@link #probesTheDouble} probes a real
	 * double).
	 */
	@Test
	@DisplayName("from the top down to the first judgeable level: those above it beyond the host on their own probes, those below not probed")
	void downToTheFirstJudgeable() {
		Probes probes = Probes.holding(2);
		HostCalibration calibration = HostCalibration.run(List.of(5, 4, 3, 2, 1), HostCalibration.Force.parse("5"), probes);
		assertThat(probes.probed).as("from the top down, the forced c=5 among them; c=1 not").containsExactly(5, 4, 3, 2);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::concurrency).containsExactly(1, 2, 3, 4, 5);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::verdict)
				.containsExactly(HostCalibration.Verdict.JUDGEABLE, HostCalibration.Verdict.JUDGEABLE,
						HostCalibration.Verdict.BEYOND_HOST, HostCalibration.Verdict.BEYOND_HOST,
						HostCalibration.Verdict.FORCED);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::probed).containsExactly(false, true, true, true, true);
		assertThat(calibration.levels().get(0).reading())
				.isEqualTo("c=1: not probed: c=2 above it is judgeable on this host (c=2: load client lag p99 per wave [300, 300, 300, "
						+ "300] us, engine double lag p99 per wave [100, 100, 100, 100] us (limit 1000 us; beyond the host when every wave "
						+ "reads over 1250)); its own lag is checked as it runs");
		assertThat(calibration.levels().get(2).reason()).endsWith("over the margin in every wave: engine double");
		assertThat(calibration.runs(1)).isTrue();
		assertThat(calibration.runs(3)).isFalse();
		assertThat(calibration.runs(5)).isTrue();
		assertThat(calibration.beyond()).extracting(HostCalibration.Level::concurrency).containsExactly(3, 4);
		assertThat(calibration.failures()).hasSize(5).allSatisfy(f -> assertThat(f.raw() + f.gateway()).isZero());

		ObjectNode json = Json.MAPPER.createObjectNode();
		calibration.writeTo(json);
		assertThat(json.at("/levels/0/probed").asBoolean()).isFalse();
		assertThat(json.at("/levels/0/probe_requests_per_arm").asInt()).isZero();
		assertThat(json.at("/levels/0").has("client_lag")).as("no readings of its own").isFalse();
		assertThat(json.at("/levels/0").has("wave_client_lag_p99_us")).isFalse();
		assertThat(json.at("/levels/2/probed").asBoolean()).isTrue();
		assertThat(json.at("/levels/2/wave_engine_double_lag_p99_us")).hasSize(4);
		assertThat(json.at("/levels/3/probe_requests_per_arm").asInt()).isEqualTo(8);
		assertThat(json.at("/levels/4/probe_requests_per_arm").asInt()).isEqualTo(10);
	}

	/** A host that holds no level: every level is probed, and each is beyond the host on its own reading. */
	@Test
	@DisplayName("a host that holds no level: every level probed, each beyond the host on its own probe")
	void noLevelHeld() {
		Probes probes = Probes.holding(0);
		HostCalibration calibration = HostCalibration.run(List.of(1, 8, 64, 128), HostCalibration.Force.NONE, probes);
		assertThat(probes.probed).containsExactly(128, 64, 8, 1);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::probed).containsOnly(true);
		assertThat(calibration.beyond()).extracting(HostCalibration.Level::concurrency).containsExactly(1, 8, 64, 128);
	}

	/**
	 * A quiet host: the highest level is probed, judgeable, and the levels below it are judgeable on its reading without a
	 * probe of their own, named in their reason; a forced level below is probed still.
	 */
	@Test
	@DisplayName("the highest level first: where it is judgeable, the levels below it are not probed, judgeable on its reading")
	void topJudgeableDecidesBelow() {
		Probes probes = Probes.holding(Integer.MAX_VALUE);
		HostCalibration calibration = HostCalibration.run(List.of(1, 8, 64, 128), HostCalibration.Force.parse("8"), probes);
		assertThat(probes.probed).as("c=128 first, then the forced c=8 alone").containsExactly(128, 8);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::concurrency).containsExactly(1, 8, 64, 128);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::verdict)
				.containsExactly(HostCalibration.Verdict.JUDGEABLE, HostCalibration.Verdict.FORCED, HostCalibration.Verdict.JUDGEABLE,
						HostCalibration.Verdict.JUDGEABLE);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::probed).containsExactly(false, true, false, true);
		assertThat(calibration.levels().get(2).reading())
				.isEqualTo(
						"c=64: not probed: c=128 above it is judgeable on this host (c=128: load client lag p99 per wave [300, 300, 300, "
								+ "300] us, engine double lag p99 per wave [100, 100, 100, 100] us (limit 1000 us; beyond the host when every wave "
								+ "reads over 1250)); its own lag is checked as it runs");
		assertThat(calibration.beyond()).isEmpty();
		assertThat(List.of(1, 8, 64, 128)).allSatisfy(c -> assertThat(calibration.runs(c)).as("c=%d runs", c).isTrue());
		ObjectNode json = Json.MAPPER.createObjectNode();
		calibration.writeTo(json);
		assertThat(json.at("/levels/0/probed").asBoolean()).isFalse();
		assertThat(json.at("/levels/0").has("wave_client_lag_p99_us")).as("no readings of its own").isFalse();
		assertThat(json.at("/levels/3/wave_client_lag_p99_us")).hasSize(4);
	}

	/**
	 * One stall of the host (the double's lag over the margin through the first probe alone, the top's) holds back that
	 * level only: the next one down is probed, judgeable, and the levels below it run on its reading.
	 */
	@Test
	@DisplayName("one stall of the host holds back the level it hit alone: the next one down is probed")
	void oneStallHoldsBackOne() {
		Probes probes = Probes.stalling(1);
		HostCalibration calibration = HostCalibration.run(List.of(1, 2, 3), HostCalibration.Force.NONE, probes);
		assertThat(probes.probed).containsExactly(3, 2);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::verdict)
				.containsExactly(HostCalibration.Verdict.JUDGEABLE, HostCalibration.Verdict.JUDGEABLE, HostCalibration.Verdict.BEYOND_HOST);
		assertThat(calibration.levels()).extracting(HostCalibration.Level::probed).containsExactly(false, true, true);
	}

	/**
	 * The double's rule (every wave over the margin) against the series the committed concurrency sweep artifacts recorded
	 * where their levels were probed and then ran to their end ({@code host_calibration.levels[].wave_engine_double_lag_p99_us},
	 * and the level's and the A/A's {@code engine_double_lag} and {@code client_lag} at their end), judged by
	 * {@link HostCalibration#judge} with the client quiet: of the levels that ended valid (both lags within their limits), at
	 * most 5 % would have been held back; the rule holds back some that ended invalid.
	 */
	@Test
	@DisplayName("on the recorded series: the double's rule holds back at most 5 % of the levels that ended valid, and some that ended invalid")
	void recordedDoubleSeries() throws IOException {
		SeriesTally tally = new SeriesTally();
		for (JsonNode root : sweepArtifacts(Path.of("..", "experiments"))) {
			java.util.Map<Integer, List<UpstreamLag.Reading>> probes = new java.util.HashMap<>();
			root.path("host_calibration").path("levels").forEach(probe -> {
				List<UpstreamLag.Reading> waves = new ArrayList<>();
				probe.path("wave_engine_double_lag_p99_us")
						.forEach(p99 -> waves.add(new UpstreamLag.Reading(1, p99.asDouble(), p99.asDouble(),
								p99.asDouble())));
				if (waves.size() == 4) {
					probes.put(probe.path("concurrency").asInt(), waves);
				}
			});
			List<JsonNode> levels = new ArrayList<>();
			root.path("levels").forEach(levels::add);
			if (root.path("noise_floor").path("level").isObject()) {
				levels.add(root.path("noise_floor").path("level"));
			}
			for (JsonNode level : levels) {
				int c = level.path("concurrency").asInt();
				if (!probes.containsKey(c) || level.has("futility_stop") || !level.path("engine_double_lag").has("within_limit")) {
					continue;
				}
				boolean holds = HostCalibration.judge(c, waves("raw", Synthetic.QUIET, Synthetic.QUIET),
						waves("gateway", Synthetic.QUIET, Synthetic.QUIET), probes.get(c), false)
						.verdict() == HostCalibration.Verdict.BEYOND_HOST;
				tally.add(
						level.path("engine_double_lag").path("within_limit").asBoolean()
								&& level.path("client_lag").path("within_limit").asBoolean(),
						holds);
			}
		}
		tally.check(MIN_VALID_SERIES);
	}

	/** The fewest recorded valid levels the double's rule is checked on. */
	private static final int MIN_VALID_SERIES = 40;

	/** Every committed artifact under {@code experiments} with a host calibration and levels. */
	private static List<JsonNode> sweepArtifacts(Path experiments) throws IOException {
		List<JsonNode> roots = new ArrayList<>();
		try (java.util.stream.Stream<Path> files = Files.walk(experiments)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
				try {
					JsonNode root = Json.MAPPER.readTree(file.toFile());
					if (root.path("host_calibration").path("levels").isArray() && root.path("levels").isArray()) {
						roots.add(root);
					}
				}
				catch (IOException notJson) {
					// not an artifact
				}
			}
		}
		return roots;
	}

	/**
	 * Synthetic probes: the client quiet, the double's lag over the margin where {@code lags} says (by level and by how
	 * many probes came before), else quiet.
	 */
	private static final class Probes implements HostCalibration.Prober {
		final List<Integer> probed = new ArrayList<>();
		private final java.util.function.BiPredicate<Integer, Integer> lags;

		private Probes(java.util.function.BiPredicate<Integer, Integer> lags) {
			this.lags = lags;
		}

		/** A host that holds the levels up to {@code c} and no more. */
		static Probes holding(int c) {
			return new Probes((level, before) -> level > c);
		}

		/** A host whose first {@code n} probes, whatever their level, hit a stall. */
		static Probes stalling(int n) {
			return new Probes((level, before) -> before < n);
		}

		@Override
		public HostCalibration.Level probe(int c, boolean forced) {
			boolean lagging = lags.test(c, probed.size());
			probed.add(c);
			return HostCalibration.judge(c, waves("raw", Synthetic.QUIET, Synthetic.QUIET),
					waves("gateway", Synthetic.QUIET, Synthetic.QUIET), doubles(lagging ? 1_900 : 100), forced);
		}
	}
}
