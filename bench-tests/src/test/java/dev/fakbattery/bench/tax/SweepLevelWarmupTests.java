package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
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
}
