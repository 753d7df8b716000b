package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Slo")
class SloTests {

	@Test
	@DisplayName("parses vLLM's --goodput syntax, values in ms")
	void parsesVllmSyntax() {
		Slo slo = Slo.parse("ttft:200 tpot:50 e2el:1000");

		assertThat(slo.metrics()).containsExactly(Slo.Metric.TTFT, Slo.Metric.TPOT, Slo.Metric.E2EL);
		assertThat(slo.limitMs(Slo.Metric.TTFT)).hasValue(200);
		assertThat(slo.limitMs(Slo.Metric.TPOT)).hasValue(50);
		assertThat(slo.limitMs(Slo.Metric.E2EL)).hasValue(1000);
	}

	@Test
	@DisplayName("a subset of keys, decimals and extra whitespace are accepted; unbounded metrics are empty")
	void subsetAndDecimals() {
		Slo slo = Slo.parse("  e2el:1e3\t ttft:3.4 ");

		assertThat(slo.limitMs(Slo.Metric.TTFT)).hasValue(3.4);
		assertThat(slo.limitMs(Slo.Metric.E2EL)).hasValue(1000);
		assertThat(slo.limitMs(Slo.Metric.TPOT)).isEmpty();
		assertThat(Slo.parse(slo.toString())).isEqualTo(slo);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" names \"{1}\"")
	@CsvSource(delimiter = '|', value = {
		"ttft:200 itl:50 | 'itl:50'",
		"TTFT:200 | 'TTFT:200'",
		"ttft=200 | 'ttft=200'",
		"ttft:abc | 'ttft:abc'",
		"ttft:-5 | 'ttft:-5'",
		"ttft:NaN | 'ttft:NaN'",
		"ttft:200d | 'ttft:200d'",
		"ttft:1:2 | 'ttft:1:2'",
		"e2el: | 'e2el:'",
		"ttft:200 ttft:300 | 'ttft:300'" })
	@DisplayName("bad input throws, naming the bad token and the accepted keys")
	void badInputNamesTokenAndKeys(String spec, String named) {
		assertThatIllegalArgumentException().isThrownBy(() -> Slo.parse(spec))
				.withMessageContaining(named)
				.withMessageContaining("accepted keys are ttft, tpot, e2el");
	}

	@Test
	@DisplayName("no SLO at all is rejected, not read as 'every request is good'")
	void emptyIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> Slo.parse("  "))
				.withMessageContaining("no SLO given");
	}

	@Test
	@DisplayName("a request is good only if it meets every SLO, boundary included (<=)")
	void everySloInclusive() {
		Slo slo = Slo.parse("ttft:200 tpot:50 e2el:1000");

		assertThat(slo.isMetBy(RequestTiming.completed(200, 1000, 17))).isTrue();
		assertThat(slo.isMetBy(RequestTiming.completed(200.001, 1000, 17))).isFalse();
		assertThat(slo.isMetBy(RequestTiming.completed(100, 1000.5, 100))).isFalse();
		assertThat(slo.isMetBy(RequestTiming.completed(100, 900, 10))).as("tpot 800/9 > 50").isFalse();
	}

	@Test
	@DisplayName("a failed request, or one with an unknown bounded metric, is not good")
	void failedOrUnknownIsNotGood() {
		Slo slo = Slo.parse("ttft:200");

		assertThat(slo.isMetBy(RequestTiming.failed())).isFalse();
		assertThat(slo.isMetBy(RequestTiming.completed(Double.NaN, 100, 5))).isFalse();
	}

	@Test
	@DisplayName("the longest a request meeting the SLOs can take: E2EL's limit, TTFT + TPOT x (tokens - 1), the smaller; none without a bound")
	void longestGood() {
		assertThat(Slo.parse("ttft:1000 tpot:50").longestGoodMs(64)).hasValue(1000 + 50 * 63);
		assertThat(Slo.parse("ttft:1000 tpot:50").longestGoodMs(1)).as("one token: its TTFT").hasValue(1000);
		assertThat(Slo.parse("ttft:1000 tpot:50 e2el:2000").longestGoodMs(64)).hasValue(2000);
		assertThat(Slo.parse("ttft:1000 tpot:50 e2el:9000").longestGoodMs(64)).hasValue(4150);
		assertThat(Slo.parse("e2el:700").longestGoodMs(64)).hasValue(700);
		assertThat(Slo.parse("ttft:1000").longestGoodMs(64)).as("only TTFT: a good request may decode for ever").isEmpty();
		assertThat(Slo.parse("tpot:50").longestGoodMs(64)).isEmpty();
		assertThat(Slo.parse("ttft:1000 tpot:50").longestGoodMs(0)).as("no token asked: no decode bound").isEmpty();
		// the bound is tight: a request at both limits meets them, one a millisecond longer cannot
		Slo slo = Slo.parse("ttft:1000 tpot:50");
		assertThat(slo.isMetBy(RequestTiming.completed(1000, 4150, 64))).isTrue();
		assertThat(slo.isMetBy(RequestTiming.completed(1000, 4151, 64))).isFalse();
		assertThat(slo.isMetBy(RequestTiming.completed(10, 4151, 64))).isFalse();
	}
}
