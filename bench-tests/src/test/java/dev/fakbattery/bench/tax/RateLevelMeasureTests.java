package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One rate level run for real, at a tiny size: 80 req/s, batches of 0.1 s (8 requests), against the engine double. */
@DisplayName("a rate level offers its rate to both arms in one open loop: a ramp, then ABBA batches until its decision stops")
class RateLevelMeasureTests {

	private static final double RATE = 80;

	/** The smoke profile's plan (one look, at 2 batches per arm) with batches of 0.1 s: 8 requests each, a ramp of 16. */
	private static TaxSettings settings() {
		return TaxSettings.from(HarnessConfig.of(name -> Optional.ofNullable(switch (name) {
			case HarnessConstants.RATE_BATCH_SECONDS -> "0.1";
			default -> null;
		})));
	}

	@Test
	@DisplayName("each arm's batches come from its own client, the ramp is left out, and the level records its stop, lag and engine")
	void measuresBothArms() throws IOException {
		TaxSettings settings = settings();
		RecordingLag lag = new RecordingLag();
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient raw = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient gateway = TargetClient.open("gateway", URI.create(engine.baseUrl()))) {
			RateLevel level = RateLevel.measure(raw, gateway, RequestSource.fixed(ChatPayload.streaming(engine.model(), "hi", 4)), RATE,
					settings, Optional.of(lag), URI.create(engine.baseUrl()), Progress.silent());

			int size = settings.load().batchRequests(RATE);
			int ramp = RateLevel.rampRequests(RATE, settings.load());
			assertThat(size).as("requests per batch").isEqualTo(8);
			assertThat(ramp).as("the ramp's arrivals").isEqualTo(16);
			assertThat(level.stop()).hasValueSatisfying(stop -> assertThat(stop.used()).as("batches per arm").isEqualTo(2));
			assertThat(level.a().outcomes()).as("raw's measured requests").hasSize(2 * size).allMatch(o -> o.target().equals("raw"));
			assertThat(level.b().outcomes()).as("gateway's measured requests")
					.hasSize(2 * size)
					.allMatch(o -> o.target().equals("gateway"));
			assertThat(level.a().outcomes()).noneMatch(RequestOutcome::warmup);
			assertThat(level.failed()).as("failed and unsent requests").isZero();
			assertThat(level.a().warmupSent() + level.b().warmupSent()).as("the ramp's requests, over both arms").isEqualTo(ramp);
			assertThat(engine.requestCount()).as("requests the engine served").isEqualTo(ramp + 4L * size);
			assertThat(level.a().mode()).isEqualTo("sustained open loop at 80.0 req/s: a ramp of 16 arrivals, then 2 batches of 8 "
					+ "arrivals per arm taking turns in ABBA order, arrivals going on throughout (sequential decision: 2 of at most 2, "
					+ "cap hit undecided)");
			assertThat(level.b().mode()).isEqualTo(level.a().mode());
			assertThat(level.rate()).isEqualTo(RATE);
			assertThat(level.goodputA().slo()).isEqualTo(settings.load().slo());
			assertThat(level.pointA().requests()).isEqualTo(2 * size);
			assertThat(level.pointB().good()).as("an instant engine meets every SLO").isEqualTo(2 * size);
			assertThat(level.idleAtStart()).hasValueSatisfying(idle -> assertThat(idle.idle()).isTrue());
			assertThat(level.engineMetrics()).isPresent();
			assertThat(level.rampFailures()).isEmpty();
			assertThat(lag.calls).as("the double's lag cleared before the batches, read after them").containsExactly("reset", "read");
			assertThat(level.lag()).contains(RecordingLag.READING);
			assertThat(level.attainmentLine(0.9)).as("each arm's attainment at the look's level, and the batches used")
					.startsWith("attainment raw 1.00 [0.81, 1.00] ")
					.endsWith("(95.0 % Wilson, target 0.90), 2 of at most 2 batches per arm");
			ObjectNode json = level.toJson(0.9);
			assertThat(json.at("/sequential/looks").toString()).isEqualTo("[2]");
			assertThat(json.at("/sequential/look_level").asDouble()).isEqualTo(0.95);
			assertThat(json.at("/sequential/used").asInt()).isEqualTo(2);
			assertThat(json.at("/engine_metrics/url").asText()).endsWith("/metrics");
			assertThat(json.at("/engine_idle_at_start/idle").asBoolean()).isTrue();
			assertThat(json.at("/engine_double_lag/count").asInt()).isEqualTo(7);
		}
	}

	/** An engine double's lag probe that records when it was cleared and read. */
	static final class RecordingLag implements UpstreamLag {

		static final Reading READING = new Reading(7, 1, 2, 3);

		final List<String> calls = new ArrayList<>();

		@Override
		public void reset() {
			calls.add("reset");
		}

		@Override
		public Reading read() {
			calls.add("read");
			return READING;
		}
	}
}
