package dev.fakbattery.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Prometheus text: parsed, scraped before and after, and the engines' names read")
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
		assertThatThrownBy(() -> PromText.parse("ok 1\nbad{x=1} 2")).hasMessageStartingWith("line 2 is not a Prometheus sample [bad{x=1} 2]");
		assertThatThrownBy(() -> PromText.parse("name")).hasMessageStartingWith("line 1 is not a Prometheus sample [name]");
		assertThatThrownBy(() -> PromText.parse("n{a=\"x} 1")).hasMessageContaining("unterminated label value of a");
	}

	@Test
	@DisplayName("the captured vLLM and SGLang pages parse whole")
	void capturedPages() throws Exception {
		for (String engine : List.of("vllm", "sglang")) {
			Path page = fixture(engine);
			assertThat(PromText.parse(Files.readString(page))).as(engine).isNotEmpty();
		}
	}

	@Test
	@DisplayName("engine metrics: counters as changes, gauges before and after, the prefix-cache hit rate, unknown names left out")
	void engineMetrics() {
		URI url = URI.create("http://127.0.0.1:1/metrics");
		MetricsScrape before = new MetricsScrape(url, PromText.parse("vllm:num_requests_running{engine=\"0\"} 0\n"
				+ "vllm:prefix_cache_queries_total 100\nvllm:prefix_cache_hits_total 10\nvllm:num_preemptions_total 1\n"
				+ "vllm:prompt_tokens_total 100\nvllm:kv_cache_usage_perc 0.1\n"), Optional.empty());
		MetricsScrape after = new MetricsScrape(url, PromText.parse("vllm:num_requests_running{engine=\"0\"} 3\n"
				+ "vllm:prefix_cache_queries_total 300\nvllm:prefix_cache_hits_total 160\nvllm:num_preemptions_total 1\n"
				+ "vllm:prompt_tokens_total 300\nvllm:kv_cache_usage_perc 0.25\n"), Optional.empty());
		ObjectNode node = Json.MAPPER.createObjectNode();
		EngineMetrics.of(before, after).writeTo(node);
		assertThat(node.path("available").asBoolean()).isTrue();
		assertThat(node.path("running_requests").toString()).isEqualTo("{\"before\":0.0,\"after\":3.0}");
		assertThat(node.path("prefix_cache_queries").asDouble()).isEqualTo(200);
		assertThat(node.path("prefix_cache_hit_rate").asDouble()).isEqualTo(0.75);
		assertThat(node.path("preemptions").asDouble()).isZero();
		assertThat(node.has("waiting_requests")).isFalse();
		ObjectNode sglang = Json.MAPPER.createObjectNode();
		EngineMetrics.of(new MetricsScrape(url, PromText.parse("sglang:cache_hit_rate 0.1\n"), Optional.empty()),
				new MetricsScrape(url, PromText.parse("sglang:cache_hit_rate 0.4\n"), Optional.empty())).writeTo(sglang);
		assertThat(sglang.path("prefix_cache_hit_rate").asDouble()).isEqualTo(0.4);
		assertThat(MetricsScrape.changes(before, after)).containsExactly(Map.entry("vllm:num_requests_running{engine=0}", 3.0),
				Map.entry("vllm:prefix_cache_queries_total", 200.0), Map.entry("vllm:prefix_cache_hits_total", 150.0),
				Map.entry("vllm:prompt_tokens_total", 200.0), Map.entry("vllm:kv_cache_usage_perc", 0.15));
	}

	@Test
	@DisplayName("an engine without /metrics (llama.cpp answers 501 without --metrics) is recorded unavailable, with the reason")
	void unavailable() {
		URI url = URI.create("http://127.0.0.1:1/metrics");
		ObjectNode node = Json.MAPPER.createObjectNode();
		EngineMetrics.of(MetricsScrape.unavailable(url, "GET " + url + " answered HTTP 501"), MetricsScrape.unavailable(url, "x")).writeTo(node);
		assertThat(node.toString()).isEqualTo("{\"url\":\"http://127.0.0.1:1/metrics\",\"available\":false,\"unavailable\":\"GET "
				+ "http://127.0.0.1:1/metrics answered HTTP 501\"}");
		assertThat(MetricsScrape.of(URI.create("http://127.0.0.1:1/v1")).unavailable()).hasValueSatisfying(
				why -> assertThat(why).startsWith("GET http://127.0.0.1:1/metrics: "));
	}

	private static Path fixture(String engine) {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path page = dir.resolve("fixtures/wire/" + engine + "/metrics.txt");
			if (Files.isRegularFile(page)) {
				return page;
			}
		}
		throw new IllegalStateException("fixtures/wire/" + engine + "/metrics.txt not found");
	}
}
