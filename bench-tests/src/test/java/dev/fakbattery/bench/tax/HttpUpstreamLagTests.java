package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the lag of a double in another process, read over its admin endpoint")
class HttpUpstreamLagTests {

	@Test
	@DisplayName("reset and read go over HTTP; the path is the double's own")
	void readsTheDouble() throws Exception {
		assertThat(HttpUpstreamLag.PATH).isEqualTo(EngineDouble.LAG_PATH);
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient client = TargetClient.open("raw", URI.create(engine.baseUrl()))) {
			HttpUpstreamLag lag = new HttpUpstreamLag(URI.create(engine.rootUrl()));
			client.send(ChatPayload.streaming(engine.model(), "hi", 4), 0, false);
			lag.reset();
			assertThat(lag.read().count()).isZero();
			client.send(ChatPayload.streaming(engine.model(), "hi", 4), 1, false);
			UpstreamLag.Reading reading = lag.read();
			assertThat(reading.count()).isEqualTo(engine.schedulingLag().count()).isPositive();
			assertThat(reading.p99Micros()).isFinite();
		}
	}

	@Test
	@DisplayName("a double that cannot be read reads as no emission, which never counts as within the limit")
	void unreadable() {
		UpstreamLag.Reading reading = new HttpUpstreamLag(URI.create("http://127.0.0.1:1")).read();
		assertThat(reading.count()).isZero();
		assertThat(reading.p99Micros()).isNaN();
		assertThat(reading.withinLimit()).isFalse();
	}
}
