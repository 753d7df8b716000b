package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

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

@DisplayName("the rate sweep's host calibration: each rate's probe, its own time, its waves and failures in the artifact")
class RateCalibrationTests {

	/**
	 * Each arm on a double of its own, a probe at 40 req/s: each double serves the two waves of its arm, each of
	 * {@code probeRequests(40)} = 10 arrivals, asking the conversations from a quarter of the warm-up offset on (never a
	 * measured one); the raw waves are raw's, the gateway's the gateway's, and the probe took its own time.
	 */
	@Test
	@DisplayName("a probe sends each arm its two waves at the rate, asks the probe's conversations, and times itself")
	void probeSendsEachArmItsWaves() throws IOException {
		try (ArmDoubles arms = new ArmDoubles()) {
			long began = System.nanoTime();
			RateCalibration.Level level = RateCalibration.probe(arms.raw, arms.gateway, arms.source, 40, 1.0, 64, 7, false,
					Duration.ofSeconds(30),
					Optional.empty(), Progress.silent());
			Duration wall = Duration.ofNanos(System.nanoTime() - began);
			assertThat(arms.rawEngine.requestCount()).isEqualTo(20);
			assertThat(arms.gatewayEngine.requestCount()).isEqualTo(20);
			assertThat(level.rate()).isEqualTo(40);
			assertThat(level.judged().raw()).hasSize(2).extracting(LoadResult::target).containsOnly("raw");
			assertThat(level.judged().gateway()).hasSize(2).extracting(LoadResult::target).containsOnly("gateway");
			assertThat(level.judged().engineDouble()).as("a real engine's probe: no double's lag").isEmpty();
			assertThat(arms.asked).hasSize(40)
					.allSatisfy(i -> assertThat(i).isBetween(RequestSource.WARMUP_OFFSET / 4, RequestSource.WARMUP_OFFSET / 4 + 9));
			// four waves of 10 arrivals at 40 req/s span at least 4 x 9/40 s of arrivals
			assertThat(level.took()).isBetween(Duration.ofMillis(4 * 9 * 1000 / 40 - 100), wall);
		}
	}

	/**
	 * A forced probe on the double: the double's lag is reset before and read after each of the four waves (one reading
	 * per wave), the verdict is FORCED and its reason names the rates' key, not the concurrency levels'; the four
	 * waves' schedules are four draws, not one.
	 */
	@Test
	@DisplayName("a forced probe reads the double per wave and names calibration.force.rates; its four waves are four schedules")
	void forcedProbeReadsTheDoublePerWave() throws IOException {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient raw = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient gateway = TargetClient.open("gateway", URI.create(engine.baseUrl()))) {
			RequestSource fixed = RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4));
			RateLevelMeasureTests.RecordingLag recording = new RateLevelMeasureTests.RecordingLag();
			RateCalibration.Level level = RateCalibration.probe(raw, gateway, fixed, 40, 0.5, 64, 11, true, Duration.ofSeconds(30),
					Optional.of(recording), Progress.silent());
			assertThat(recording.calls).containsExactly("reset", "read", "reset", "read", "reset", "read", "reset", "read");
			assertThat(level.judged().engineDouble()).hasSize(4).containsOnly(RateLevelMeasureTests.RecordingLag.READING);
			assertThat(level.judged().verdict()).isEqualTo(HostCalibration.Verdict.FORCED);
			assertThat(level.judged().reason()).endsWith("; forced by calibration.force.rates");
			List<List<Long>> schedules = java.util.stream.Stream.of(level.judged().raw().get(0), level.judged().gateway().get(0),
					level.judged().gateway().get(1), level.judged().raw().get(1)).map(RateCalibrationTests::offsetsMillis).toList();
			assertThat(schedules).allSatisfy(offsets -> assertThat(offsets).hasSize(10));
			assertThat(new java.util.HashSet<>(schedules)).as("each wave its own draw of arrivals").hasSize(4);
		}
	}

	@Test
	@DisplayName("a probe wave spans a quarter second of arrivals at the rate, 2 at the fewest and 16 at the most")
	void probeRequests() {
		assertThat(RateCalibration.probeRequests(1)).isEqualTo(RateCalibration.FEWEST);
		assertThat(RateCalibration.probeRequests(40)).isEqualTo(10);
		assertThat(RateCalibration.probeRequests(44)).isEqualTo(11);
		assertThat(RateCalibration.probeRequests(1_000)).isEqualTo(RateCalibration.MOST);
	}

	/**
	 * The calibration's time is its probes' time alone: the rates measured between the probes are not calibration. A
	 * duration taken around the whole sweep (warm-up and levels too) reads several times the probes' sum.
	 */
	@Test
	@DisplayName("the artifact's duration is the sum of the probes' own times, each level's written beside it")
	void durationIsTheProbesAlone() {
		RateCalibration calibration = new RateCalibration(
				List.of(level(4, Synthetic.QUIET, List.of(), Duration.ofMillis(1_500)),
						level(8, Synthetic.QUIET, List.of(), Duration.ofMillis(2_250))));
		assertThat(calibration.duration()).isEqualTo(Duration.ofMillis(3_750));
		JsonNode node = written(calibration);
		assertThat(node.get("duration_s").asDouble()).isEqualTo(3.75);
		assertThat(node.at("/levels/0/duration_s").asDouble()).isEqualTo(1.5);
		assertThat(node.at("/levels/1/duration_s").asDouble()).isEqualTo(2.25);
	}

	/**
	 * Each wave's client lag in the order sent (raw, gateway, gateway, raw), the double's per wave where it was read,
	 * each arm's request count, and the failed and unsent requests of all four waves.
	 */
	@Test
	@DisplayName("the artifact gives each wave's lag in the order sent, the double's where read, and every failed or unsent request")
	void levelFields() {
		List<LoadResult> raw = List.of(Synthetic.result("raw", List.of(Synthetic.failed("raw", 0, 502)), 1, 1, ClientLag.ofMicros(100)),
				Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, ClientLag.ofMicros(400)));
		List<LoadResult> gateway = List.of(Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, ClientLag.ofMicros(200)),
				Synthetic.result("gateway", List.of(Synthetic.failed("gateway", 1, 500)), 2, 1, ClientLag.ofMicros(300)));
		List<UpstreamLag.Reading> doubles = List.of(new UpstreamLag.Reading(10, 5, 11, 20), new UpstreamLag.Reading(10, 5, 22, 20),
				new UpstreamLag.Reading(10, 5, 33, 40), new UpstreamLag.Reading(10, 5, 44, 50));
		RateCalibration calibration = new RateCalibration(List.of(
				new RateCalibration.Level(44, HostCalibration.judge(0, raw, gateway, doubles, false), Duration.ofSeconds(1)),
				level(2, Synthetic.QUIET, List.of(), Duration.ofSeconds(1))));
		JsonNode node = written(calibration);
		JsonNode first = node.at("/levels/0");
		assertThat(first.get("rate").asDouble()).isEqualTo(44.0);
		assertThat(first.get("probe_requests_per_arm").asInt()).isEqualTo(22);
		assertThat(first.get("wave_client_lag_p99_us")).extracting(JsonNode::asLong).containsExactly(100L, 200L, 300L, 400L);
		assertThat(first.get("wave_engine_double_lag_p99_us")).extracting(JsonNode::asDouble).containsExactly(11.0, 22.0, 33.0, 44.0);
		assertThat(first.get("failed").asInt()).as("2 failed, 3 unsent").isEqualTo(5);
		assertThat(first.at("/client_lag/p99_us").isMissingNode()).as("the probe's pooled client lag").isFalse();
		assertThat(node.at("/levels/1").has("wave_engine_double_lag_p99_us")).as("no double read: no double's lag").isFalse();
		assertThat(node.at("/levels/1/probe_requests_per_arm").asInt()).isEqualTo(4);
		assertThat(node.get("margin").asDouble()).isEqualTo(Futility.MARGIN);

		List<ArmFailures> failures = calibration.failures();
		assertThat(failures).hasSize(2);
		assertThat(failures.get(0).where()).isEqualTo("44 req/s calibration");
		assertThat(failures.get(0).raw()).isEqualTo(1);
		assertThat(failures.get(0).gateway()).isEqualTo(1);
		assertThat(failures.get(1).raw() + failures.get(1).gateway()).isZero();
	}

	/**
	 * The rates probed decide a rate at or below one read judgeable (judgeable) and one at or above two read beyond the
	 * host (beyond it), each naming the rates it rests on; not where none such was probed, where one alone read beyond
	 * (a passing stall holds back that rate only), where both were (the host's readings disagree: it is probed), nor on a
	 * rate that was itself only inferred. An inferred rate took no time and records {@code probed: false} with no readings.
	 */
	@Test
	@DisplayName("a rate at or below one read judgeable, or at or above two read beyond the host, takes that verdict unprobed")
	void ratesTheProbesDecide() {
		RateCalibration.Level held = level(16, Synthetic.QUIET, List.of(), Duration.ofSeconds(1));
		RateCalibration.Level beyond = level(32, Synthetic.LATE, List.of(), Duration.ofSeconds(1));
		RateCalibration.Level beyondToo = level(40, Synthetic.LATE, List.of(), Duration.ofSeconds(1));
		assertThat(beyond.judged().verdict()).isEqualTo(HostCalibration.Verdict.BEYOND_HOST);
		List<RateCalibration.Level> probed = List.of(held, beyondToo, beyond);

		RateCalibration.Level below = RateCalibration.inferred(12, probed).orElseThrow();
		assertThat(below.judged().verdict()).isEqualTo(HostCalibration.Verdict.JUDGEABLE);
		assertThat(below.reading()).startsWith("12 req/s: not probed: 16 req/s, a higher rate, is judgeable on this host (load client");
		assertThat(below.took()).isZero();
		assertThat(RateCalibration.inferred(16, probed)).map(l -> l.judged().verdict()).contains(HostCalibration.Verdict.JUDGEABLE);
		RateCalibration.Level above = RateCalibration.inferred(64, probed).orElseThrow();
		assertThat(above.judged().verdict()).isEqualTo(HostCalibration.Verdict.BEYOND_HOST);
		assertThat(above.reading())
				.startsWith("64 req/s: not probed: 32 and 40 req/s, lower rates, are already beyond this host (40 req/s: load client");
		assertThat(RateCalibration.inferred(40, probed)).map(l -> l.judged().verdict()).contains(HostCalibration.Verdict.BEYOND_HOST);
		assertThat(RateCalibration.inferred(36, probed)).as("above one beyond rate only: probed").isEmpty();
		assertThat(RateCalibration.inferred(24, probed)).as("between: probed").isEmpty();
		assertThat(RateCalibration.inferred(64, List.of(held, beyond))).as("one beyond rate: probed").isEmpty();
		assertThat(RateCalibration.inferred(8, List.of())).as("nothing probed yet").isEmpty();
		assertThat(RateCalibration.inferred(40, List.of(level(4, Synthetic.LATE, List.of(), Duration.ofSeconds(1)),
				level(8, Synthetic.LATE, List.of(), Duration.ofSeconds(1)), level(64, Synthetic.QUIET, List.of(), Duration.ofSeconds(1)))))
				.as("the readings disagree: probed")
				.isEmpty();
		assertThat(RateCalibration.inferred(8, List.of(below))).as("an inferred rate is no reading").isEmpty();
		assertThat(RateCalibration.inferred(100, List.of(above, beyond))).as("an inferred rate is no reading").isEmpty();

		JsonNode node = written(new RateCalibration(List.of(held, below)));
		assertThat(node.at("/levels/0/probed").asBoolean()).isTrue();
		assertThat(node.at("/levels/1/probed").asBoolean()).isFalse();
		assertThat(node.at("/levels/1/probe_requests_per_arm").asInt()).isZero();
		assertThat(node.at("/levels/1/duration_s").asDouble()).isZero();
		assertThat(node.at("/levels/1").has("client_lag")).isFalse();
		assertThat(node.at("/levels/1").has("wave_client_lag_p99_us")).isFalse();
		assertThat(node.get("duration_s").asDouble()).as("the probes' time: the one probed").isEqualTo(1.0);
	}

	private static RateCalibration.Level level(double rate, ClientLag lag, List<UpstreamLag.Reading> doubles, Duration took) {
		List<LoadResult> raw = List.of(Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, lag),
				Synthetic.result("raw", Synthetic.oks("raw", 4, 100), 0, 1, lag));
		List<LoadResult> gateway = List.of(Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, lag),
				Synthetic.result("gateway", Synthetic.oks("gateway", 4, 100), 0, 1, lag));
		return new RateCalibration.Level(rate, HostCalibration.judge(0, raw, gateway, doubles, false), took);
	}

	/** A wave's intended arrivals, in milliseconds from its first. */
	private static List<Long> offsetsMillis(LoadResult wave) {
		long[] intended = wave.outcomes().stream().mapToLong(o -> o.intendedNanos()).sorted().toArray();
		return java.util.Arrays.stream(intended).map(t -> (t - intended[0]) / 1_000_000).boxed().toList();
	}

	private static JsonNode written(RateCalibration calibration) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		calibration.writeTo(node);
		return node;
	}
}
