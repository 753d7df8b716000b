package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("host calibration's probes: each arm's waves on its own target, the probe's own conversations, every failure counted")
class HostCalibrationRunTests {

	/**
	 * Each arm on a double of its own, one level of c=2: each double serves the two waves of its arm, each wave of 2
	 * requests, the probe asking the conversations from a quarter of the warm-up offset on (never a measured one); the
	 * raw waves are raw's, the gateway's the gateway's; the probes took some time, no more than the call.
	 */
	@Test
	@DisplayName("each arm's two waves go to its own target and ask the probe's conversations")
	void wavesGoToTheirArms() throws IOException {
		try (ArmDoubles arms = new ArmDoubles()) {
			long before = System.nanoTime();
			HostCalibration calibration = HostCalibration.run(arms.raw, arms.gateway, arms.source, List.of(2), HostCalibration.Force.NONE,
					Duration.ofSeconds(30), Optional.empty(), Progress.silent());
			Duration around = Duration.ofNanos(System.nanoTime() - before);
			assertThat(arms.rawEngine.requestCount()).isEqualTo(4);
			assertThat(arms.gatewayEngine.requestCount()).isEqualTo(4);
			HostCalibration.Level level = calibration.levels().get(0);
			assertThat(level.raw()).hasSize(2).extracting(LoadResult::target).containsOnly("raw");
			assertThat(level.gateway()).hasSize(2).extracting(LoadResult::target).containsOnly("gateway");
			assertThat(level.engineDouble()).as("a real engine's probe: no double's lag").isEmpty();
			assertThat(arms.asked).hasSize(8)
					.allSatisfy(i -> assertThat(i).isBetween(RequestSource.WARMUP_OFFSET / 4, RequestSource.WARMUP_OFFSET / 4 + 1));
			assertThat(calibration.duration()).as("the probes' own time, within the call's").isPositive().isLessThanOrEqualTo(around);
		}
	}

	/** A reading of the double with no samples (a wave too short to sample) says nothing of the double's lag: the level runs. */
	@Test
	@DisplayName("a double's wave read with no samples is no evidence that the double lags")
	void emptyDoubleReadingsAreNoEvidence() {
		List<LoadResult> quiet = List.of(wave("raw"), wave("raw"));
		List<UpstreamLag.Reading> empty = List.of(new UpstreamLag.Reading(0, 0, 1_900, 2_000), new UpstreamLag.Reading(0, 0, 1_900, 2_000),
				new UpstreamLag.Reading(0, 0, 1_900, 2_000), new UpstreamLag.Reading(0, 0, 1_900, 2_000));
		assertThat(HostCalibration.judge(8, quiet, List.of(wave("gateway"), wave("gateway")), empty, false).verdict())
				.isEqualTo(HostCalibration.Verdict.JUDGEABLE);
	}

	/** The raw arm failing alone is counted against it, and the artifact counts each level's failed and unsent requests. */
	@Test
	@DisplayName("the raw arm's failed probe requests count against it; the artifact counts a level's failed and unsent requests")
	void rawFailuresAndTheArtifactsCount() {
		LoadResult failing = Synthetic.result("raw", List.of(Synthetic.failed("raw", 0, 502)), 2, 1, Synthetic.QUIET);
		HostCalibration calibration = new HostCalibration(List.of(HostCalibration.judge(4, List.of(failing, wave("raw")),
				List.of(wave("gateway"), wave("gateway")), List.of(), false)), Duration.ofMillis(10));
		assertThat(calibration.failures()).singleElement().satisfies(f -> {
			assertThat(f.raw()).isOne();
			assertThat(f.gateway()).isZero();
		});
		ObjectNode json = Json.MAPPER.createObjectNode();
		calibration.writeTo(json);
		assertThat(json.at("/levels/0/failed").asInt()).as("1 failed and 2 not sent").isEqualTo(3);
	}

	@Test
	@DisplayName("calibration.force is read from the configuration; absent, the default profile (the smoke run) forces all")
	void forceFromTheConfiguration() {
		assertThat(HostCalibration.Force
				.from(HarnessConfig.of(name -> name.equals("calibration.force") ? Optional.of("64") : Optional.empty()))
				.covers(64)).isTrue();
		assertThat(HostCalibration.Force.from(HarnessConfig.of(name -> Optional.empty())).all()).isTrue();
	}

	private static LoadResult wave(String target) {
		return Synthetic.result(target, Synthetic.oks(target, 4, 100), 0, 1, Synthetic.QUIET);
	}
}
