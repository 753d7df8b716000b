package dev.fakbattery.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Latency histogram: what the /metrics page writes as buckets, count and sum")
class LatencyHistogramTests {

	@Test
	@DisplayName("an observation lands in the first bound it fits, counts are cumulative, one past every bound counts in +Inf only")
	void cumulative() {
		LatencyHistogram histogram = new LatencyHistogram(0.01, 0.1);
		histogram.observeNanos(5_000_000);
		histogram.observeNanos(50_000_000);
		histogram.observeNanos(2_000_000_000L);
		histogram.observeNanos(-1);

		assertThat(histogram.bounds()).containsExactly(0.01, 0.1);
		assertThat(histogram.cumulativeCounts()).containsExactly(2, 3);
		assertThat(histogram.count()).isEqualTo(4);
		assertThat(histogram.sum()).isEqualTo(2.055);
	}
}
