package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Summary")
class SummaryTests {

	@Test
	@DisplayName("samples in memory are summarised exactly, as statistics.median / np.percentile / np.std")
	void exactSummaryMatchesPython() {
		Summary s = Summary.ofMillis(PercentilesTests.LOGNORMAL_37);

		assertThat(s.method()).isEqualTo(Summary.Method.EXACT);
		assertThat(s.count()).isEqualTo(37);
		assertThat(s.median()).isEqualTo(16.811);
		assertThat(s.mean()).isCloseTo(19.30354054054054, within(1e-12));
		assertThat(s.std()).isCloseTo(8.727984069877312, within(1e-12));
		assertThat(s.min()).isEqualTo(8.22);
		assertThat(s.max()).isEqualTo(46.473);
		assertThat(s.p90()).isEqualTo(30.5992);
		assertThat(s.p99()).isEqualTo(42.04572);
		assertThat(s.p999()).isEqualTo(46.03027200000007);
	}

	@Test
	@DisplayName("one sample has std 0 (population) and every percentile equal to it")
	void oneSample() {
		Summary s = Summary.ofMillis(12.5);

		assertThat(s.std()).isZero();
		assertThat(new double[]{ s.min(), s.median(), s.p50(), s.p99(), s.p999(), s.max() }).containsOnly(12.5);
	}

	@Test
	@DisplayName("no samples: count 0 and NaN everywhere, never 0")
	void emptyIsNaN() {
		Summary s = Summary.ofMillis();

		assertThat(s.isEmpty()).isTrue();
		assertThat(new double[]{ s.mean(), s.median(), s.std(), s.min(), s.max(), s.p50(), s.p99(), s.p999() })
				.containsOnly(Double.NaN);
	}

	@Test
	@DisplayName("a microsecond HdrHistogram is summarised in ms to 3 significant digits")
	void histogramSummaryIsWithinPrecision() {
		Histogram micros = new Histogram(3);
		for (long us = 1; us <= 100_000; us++) {
			micros.recordValue(us);
		}

		Summary s = Summary.ofMicrosHistogram(micros);

		assertThat(s.method()).isEqualTo(Summary.Method.HDR_HISTOGRAM);
		assertThat(s.count()).isEqualTo(100_000);
		assertThat(s.median()).isCloseTo(50.0, within(50.0 * 0.001));
		assertThat(s.p90()).isCloseTo(90.0, within(90.0 * 0.001));
		assertThat(s.p99()).isCloseTo(99.0, within(99.0 * 0.001));
		assertThat(s.p999()).isCloseTo(99.9, within(99.9 * 0.001));
		assertThat(s.mean()).isCloseTo(50.0, within(50.0 * 0.001));
		assertThat(s.std()).isCloseTo(28.8675, within(28.8675 * 0.001));
		assertThat(s.max()).isCloseTo(100.0, within(0.1));
	}

	@Test
	@DisplayName("an empty histogram is an empty summary")
	void emptyHistogram() {
		assertThat(Summary.ofMicrosHistogram(new Histogram(3)).isEmpty()).isTrue();
	}

	@Test
	@DisplayName("writes vLLM's field names, p99.9 included, with null for unknown")
	void writesVllmFieldNames() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		Summary.ofMillis(100, 200, 300, 400).writeTo(node, "ttft");
		ObjectNode empty = Json.MAPPER.createObjectNode();
		Summary.ofMillis().writeTo(empty, "tpot");

		assertThat(node.get("median_ttft_ms").asDouble()).isEqualTo(250.0);
		assertThat(node.get("p99_ttft_ms").asDouble()).isEqualTo(397.0);
		assertThat(node.has("p99.9_ttft_ms")).isTrue();
		assertThat(node.get("count_ttft").asLong()).isEqualTo(4);
		assertThat(node.get("method_ttft").asText()).isEqualTo("EXACT");
		assertThat(empty.get("mean_tpot_ms").isNull()).isTrue();
		assertThat(empty.get("count_tpot").asLong()).isZero();
	}

	@Test
	@DisplayName("only the reported percentiles can be asked for")
	void percentileLookup() {
		Summary s = Summary.ofMillis(1, 2, 3);

		assertThat(s.percentile(50)).isEqualTo(s.p50());
		assertThat(s.percentile(99.9)).isEqualTo(s.p999());
		assertThatIllegalArgumentException().isThrownBy(() -> s.percentile(75)).withMessageContaining("99.9");
	}
}
