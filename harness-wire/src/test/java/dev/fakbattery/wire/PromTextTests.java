package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Prometheus text: read as scrapers read it, written as prometheus_client writes it")
class PromTextTests {

	@Test
	@DisplayName("samples with labels, escapes, special values and timestamps; comments skipped")
	void parses() {
		List<PromText.Sample> samples = PromText.parse("# HELP x y\n# TYPE a counter\na_total 3\n"
				+ "b{le=\"+Inf\",path=\"a\\\"b\\\\c\\nd\"} +Inf 1700000000\nc NaN\nd{} -1.5e3\n\n");
		assertThat(samples).hasSize(4);
		assertThat(samples.get(0)).isEqualTo(new PromText.Sample("a_total", Map.of(), 3));
		assertThat(samples.get(1).labels()).containsExactly(Map.entry("le", "+Inf"), Map.entry("path", "a\"b\\c\nd"));
		assertThat(samples.get(1).value()).isInfinite();
		assertThat(samples.get(2).value()).isNaN();
		assertThat(samples.get(3).value()).isEqualTo(-1500);
	}

	@Test
	@DisplayName("a line that is no sample fails naming its number and text")
	void rejects() {
		assertThatThrownBy(() -> PromText.parse("ok 1\nbad{x=1} 2"))
				.hasMessageStartingWith("line 2 is not a Prometheus sample [bad{x=1} 2]");
		assertThatThrownBy(() -> PromText.parse("name")).hasMessageStartingWith("line 1 is not a Prometheus sample [name]");
		assertThatThrownBy(() -> PromText.parse("n{a=\"x} 1")).hasMessageContaining("unterminated label value of a");
	}

	@Test
	@DisplayName("the captured vLLM and SGLang pages parse whole")
	void capturedPages() {
		for (String engine : List.of("vllm", "sglang")) {
			assertThat(PromText.parse(WireFixtures.read(engine + "/metrics.txt"))).as(engine).isNotEmpty();
		}
	}

	@Test
	@DisplayName("floatToGoString: repr, Go-style exponent above 1e6, infinities")
	void numbers() {
		assertThat(PromText.goFloat(3)).isEqualTo("3.0");
		assertThat(PromText.goFloat(0.0421875)).isEqualTo("0.0421875");
		assertThat(PromText.goFloat(8128902)).isEqualTo("8.128902e+06");
		assertThat(PromText.goFloat(2.3518979474117756e6)).isEqualTo("2.3518979474117756e+06");
		assertThat(PromText.goFloat(0.001)).isEqualTo("0.001");
		assertThat(PromText.goFloat(1e-5)).isEqualTo("1e-05");
		assertThat(PromText.goFloat(0)).isEqualTo("0.0");
		assertThat(PromText.goFloat(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
	}

	@Test
	@DisplayName("labels sorted by name, histogram buckets cumulative, SGLang puts _sum first")
	void histogram() {
		PromText vllm = new PromText();
		vllm.histogram("vllm:x_seconds", "X.", Map.of("model_name", "m", "engine", "0"), HISTOGRAM, false);
		PromText sglang = new PromText();
		sglang.histogram("sglang:x_seconds", "X.", Map.of("model_name", "m"), HISTOGRAM, true);

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

	@Test
	@DisplayName("what the writer writes the reader reads back: names, escaped labels and values")
	void roundTrip() {
		Map<String, String> labels = new LinkedHashMap<>();
		labels.put("path", "a\"b\\c\nd");
		labels.put("engine", "0");
		PromText page = new PromText();
		page.metric("x_total", "X.", "counter", labels, 8128902);
		page.histogram("y_seconds", "Y.", Map.of(), HISTOGRAM, false);

		List<PromText.Sample> samples = PromText.parse(page.toString());

		assertThat(samples.get(0).name()).isEqualTo("x_total");
		assertThat(samples.get(0).labels()).containsExactly(Map.entry("engine", "0"), Map.entry("path", "a\"b\\c\nd"));
		assertThat(samples.get(0).value()).isEqualTo(8128902);
		assertThat(samples).extracting(PromText.Sample::name)
				.containsExactly("x_total", "y_seconds_bucket", "y_seconds_bucket",
						"y_seconds_bucket", "y_seconds_count", "y_seconds_sum");
		assertThat(samples.get(3).labels()).containsEntry("le", "+Inf");
		assertThat(samples.get(5).value()).isEqualTo(2.055);
	}

	/** Observations of 5 ms, 50 ms and 2 s against bounds 10 ms and 100 ms. */
	private static final PromText.Histogram HISTOGRAM = new PromText.Histogram() {

		@Override
		public double[] bounds() {
			return new double[]{ 0.01, 0.1 };
		}

		@Override
		public long[] cumulativeCounts() {
			return new long[]{ 1, 2 };
		}

		@Override
		public long count() {
			return 3;
		}

		@Override
		public double sum() {
			return 0.005 + 0.05 + 2.0;
		}
	};
}
