package dev.fakbattery.bench.tax;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("a sweep level's warm-up: one wave per arm before its measured batches")
class SweepLevelWarmupTests {

	@ParameterizedTest(name = "c={0}")
	@ValueSource(ints = { 1, 3 })
	@DisplayName("the engine serves max(c, 2) unmeasured requests per arm, and the level's artifact says so")
	void oneWavePerArm(int c) throws IOException {
		TaxSettings settings = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient a = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient b = TargetClient.open("raw_b", URI.create(engine.baseUrl()))) {
			SweepLevel level = SweepLevel.measure(a, b, RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4)), c, settings,
					Optional.empty(), URI.create(engine.baseUrl()), Progress.silent());
			long measured = level.a().outcomes().size() + level.b().outcomes().size();
			assertThat(measured).as("the level measured something").isPositive();
			assertThat(engine.requestCount() - measured).as("requests the engine served besides the measured ones")
					.isEqualTo(2L * Math.max(c, 2));
			assertThat(level.toJson("raw", "raw_b").path("warmup_requests").asInt()).isEqualTo(Math.max(c, 2));
		}
	}

	@Test
	@DisplayName("the warm-up's requests are the level's first steps: an ETA from the first wave on, the ratio so far before the first look")
	void warmupCountsTowardProgress() throws IOException {
		int c = 2;
		TaxSettings settings = TaxSettings.from(HarnessConfig.of(name -> Optional.empty()));
		long total = 2L * (SweepLevel.warmupRequests(c) + (long) settings.sweepBatchesPerArm(c) * settings.sweepBatchSize(c));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		Progress progress = Progress.start("tax", "sweep c=2 raw+raw requests", total, Duration.ZERO, new PrintStream(out, true, UTF_8),
				System::nanoTime);
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient a = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient b = TargetClient.open("raw_b", URI.create(engine.baseUrl()))) {
			SweepLevel level = SweepLevel.measure(a, b, RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4)), c, settings,
					Optional.empty(), URI.create(engine.baseUrl()), progress);
			long measured = level.a().outcomes().size() + level.b().outcomes().size();
			assertThat(progress.done()).as("steps: both warm-up waves and every measured request").isEqualTo(2L * c + measured);
		}
		List<String> lines = out.toString(UTF_8).lines().toList();
		assertThat(lines).filteredOn(line -> line.contains("warming up"))
				.isNotEmpty()
				.allSatisfy(line -> assertThat(line).containsPattern(" ETA \\d+s, "));
		assertThat(lines).anySatisfy(line -> assertThat(line)
				.containsPattern(
						"batch 2 of at most \\d+ per arm, next look at \\d+, ratio so far \\d\\.\\d{4} over 1 pair \\(no interval before the first look\\)"));
	}
}
