package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Goodput")
class GoodputTests {

	private static final Slo SLO = Slo.parse("ttft:200 tpot:50 e2el:1000");

	@Test
	@DisplayName("request_goodput is good requests per second; the fraction counts failures in the denominator")
	void goodputAndFraction() {
		List<RequestTiming> requests = List.of(
				RequestTiming.completed(150, 900, 20), // tpot 750/19 = 39.5: good
				RequestTiming.completed(250, 900, 20), // ttft too slow
				RequestTiming.completed(150, 1200, 30), // e2el too slow
				RequestTiming.completed(100, 800, 5), // tpot 175: too slow
				RequestTiming.failed());

		Goodput goodput = Goodput.of(SLO, requests, 2.0);

		assertThat(goodput.requests()).isEqualTo(5);
		assertThat(goodput.completed()).isEqualTo(4);
		assertThat(goodput.good()).isEqualTo(1);
		assertThat(goodput.requestGoodput()).isEqualTo(0.5);
		assertThat(goodput.goodFraction()).isEqualTo(0.2);
	}

	@Test
	@DisplayName("a request with output_len <= 1 has tpot 0, like vLLM, so a tpot SLO cannot fail it")
	void singleTokenHasZeroTpot() {
		RequestTiming oneToken = RequestTiming.completed(150, 990, 1);
		RequestTiming noToken = RequestTiming.completed(150, 990, 0);

		assertThat(oneToken.tpotMs()).isZero();
		assertThat(noToken.tpotMs()).isZero();
		assertThat(Goodput.of(Slo.parse("tpot:0"), List.of(oneToken, noToken), 1.0).good()).isEqualTo(2);
		assertThat(RequestTiming.completed(100, 500, 5).tpotMs()).isEqualTo(100);
	}

	@Test
	@DisplayName("no requests or no duration: NaN, not 0")
	void unknownIsNaN() {
		Goodput none = Goodput.of(SLO, List.of(), 10.0);
		Goodput noDuration = Goodput.of(SLO, List.of(RequestTiming.completed(1, 2, 2)), 0.0);

		assertThat(none.goodFraction()).isNaN();
		assertThat(none.requestGoodput()).isZero();
		assertThat(noDuration.requestGoodput()).isNaN();
		assertThat(noDuration.goodFraction()).isEqualTo(1.0);
	}

	@Test
	@DisplayName("writes vLLM's request_goodput with the SLO it was judged against")
	void writesFields() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		Goodput.of(SLO, List.of(RequestTiming.completed(150, 900, 20)), 4.0).writeTo(node);
		ObjectNode unknown = Json.MAPPER.createObjectNode();
		Goodput.of(SLO, List.of(), 0.0).writeTo(unknown);

		assertThat(node.get("request_goodput").asDouble()).isEqualTo(0.25);
		assertThat(node.get("goodput_slo").asText()).isEqualTo("ttft:200.0 tpot:50.0 e2el:1000.0");
		assertThat(node.get("good_fraction").asDouble()).isEqualTo(1.0);
		assertThat(unknown.get("request_goodput").isNull()).isTrue();
		assertThat(unknown.get("good_fraction").isNull()).isTrue();
	}
}
