package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RequestOutcome and ChatPayload")
class RequestOutcomeTests {

	@Test
	@DisplayName("TPOT, decode tok/s and fak's end-to-end tok/s follow their definitions")
	void derivedMetrics() {
		RequestOutcome o = new RequestOutcome("raw", 0, false, 0, 1_000_000, 121_000_000, 200, null, 20, 110, new double[0],
				new double[0], false, 10, TokenSource.USAGE, OptionalInt.of(5), "x");
		assertThat(o.tpotMs()).isCloseTo(10.0, within(1e-9));
		assertThat(o.decodeTps()).isCloseTo(10 / 0.090, within(1e-9));
		assertThat(o.e2eCompletionTps()).isCloseTo(10 / 0.120, within(1e-9));
		assertThat(o.queueMs()).isEqualTo(1.0);
		RequestOutcome failed = RequestOutcome.failed("raw", 1, false, 0, 0, 5, 500, "HTTP 500", "");
		assertThat(failed.tpotMs()).isNaN();
		assertThat(failed.decodeTps()).isNaN();
		assertThat(failed.timing().completed()).isFalse();
	}

	@Test
	@DisplayName("the payload is deterministic and asks for continuous usage when streamed")
	void payload() throws Exception {
		JsonNode body = Json.MAPPER.readTree(ChatPayload.streaming("m", "p", 64).body());
		assertThat(body.path("temperature").asInt()).isZero();
		assertThat(body.path("max_tokens").asInt()).isEqualTo(64);
		assertThat(body.path("stream_options").path("include_usage").asBoolean()).isTrue();
		assertThat(body.path("stream_options").path("continuous_usage_stats").asBoolean()).isTrue();
		assertThat(Json.MAPPER.readTree(ChatPayload.nonStreaming("m", "p", 1).body()).has("stream_options")).isFalse();
	}
}
