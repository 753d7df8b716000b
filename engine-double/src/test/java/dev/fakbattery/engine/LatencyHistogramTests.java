package dev.fakbattery.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.fakbattery.wire.PromText;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Latency histogram: cumulative buckets as prometheus_client writes them")
class LatencyHistogramTests {

	@Test
	@DisplayName("observations land in the first bound they fit, buckets cumulative, SGLang puts _sum first")
	void histogram() {
		LatencyHistogram histogram = new LatencyHistogram(0.01, 0.1);
		histogram.observeNanos(5_000_000);
		histogram.observeNanos(50_000_000);
		histogram.observeNanos(2_000_000_000L);
		PromText vllm = new PromText();
		vllm.histogram("vllm:x_seconds", "X.", Map.of("model_name", "m", "engine", "0"), histogram, false);
		PromText sglang = new PromText();
		sglang.histogram("sglang:x_seconds", "X.", Map.of("model_name", "m"), histogram, true);

		assertThat(vllm.toString()).isEqualTo("""
			# HELP vllm:x_seconds X.
			# TYPE vllm:x_seconds histogram
			vllm:x_seconds_bucket{engine="0",le="0.01",model_name="m"} 1.0
			vllm:x_seconds_bucket{engine="0",le="0.1",model_name="m"} 2.0
			vllm:x_seconds_bucket{engine="0",le="+Inf",model_name="m"} 3.0
			vllm:x_seconds_count{engine="0",model_name="m"} 3.0
			vllm:x_seconds_sum{engine="0",model_name="m"} 2.055
			""");
		assertThat(sglang.toString().lines().toList().get(2)).isEqualTo("sglang:x_seconds_sum{model_name=\"m\"} 2.055");
	}
}
