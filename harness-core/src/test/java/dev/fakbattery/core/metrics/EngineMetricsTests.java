package dev.fakbattery.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.StubEngine;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.PromText;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Engine metrics: a /metrics page scraped before and after, and the engines' names read")
class EngineMetricsTests {

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
		EngineMetrics.of(MetricsScrape.unavailable(url, "GET " + url + " answered HTTP 501"), MetricsScrape.unavailable(url, "x"))
				.writeTo(node);
		assertThat(node.toString()).isEqualTo("{\"url\":\"http://127.0.0.1:1/metrics\",\"available\":false,\"unavailable\":\"GET "
				+ "http://127.0.0.1:1/metrics answered HTTP 501\"}");
		assertThat(MetricsScrape.of(URI.create("http://127.0.0.1:1/v1")).unavailable()).hasValueSatisfying(
				why -> assertThat(why).startsWith("GET http://127.0.0.1:1/metrics: "));
	}

	@Test
	@DisplayName("awaitIdle: returns at once on an idle engine, waits out its cap on a busy one, never waits on one without gauges")
	void awaitIdle() throws Exception {
		String idlePage = "vllm:num_requests_running{model_name=\"m\"} 0\nvllm:num_requests_waiting{model_name=\"m\"} 0\n";
		String busyPage = "vllm:num_requests_running{model_name=\"m\"} 2\nvllm:num_requests_waiting{model_name=\"m\"} 1\n";
		try (StubEngine idle = StubEngine.start(null, null, idlePage);
				StubEngine busy = StubEngine.start(null, null, busyPage);
				StubEngine bare = StubEngine.start(null, null, "vllm:generation_tokens_total 5\n")) {
			EngineMetrics.Idle calm = EngineMetrics.awaitIdle(idle.uri(), java.time.Duration.ofSeconds(30));
			assertThat(calm.idle()).isTrue();
			assertThat(calm.running()).hasValue(0);
			assertThat(calm.waitedS()).isLessThan(10);
			EngineMetrics.Idle loaded = EngineMetrics.awaitIdle(busy.uri(), java.time.Duration.ofMillis(300));
			assertThat(loaded.idle()).isFalse();
			assertThat(loaded.running()).as("running and waiting added").hasValue(3);
			assertThat(loaded.waitedS()).isGreaterThanOrEqualTo(0.3);
			ObjectNode node = Json.MAPPER.createObjectNode();
			loaded.writeTo(node);
			assertThat(node.path("idle").asBoolean(true)).isFalse();
			assertThat(node.path("running_requests").asDouble()).isEqualTo(3);
			EngineMetrics.Idle unknown = EngineMetrics.awaitIdle(bare.uri(), java.time.Duration.ofSeconds(30));
			assertThat(unknown.running()).isEmpty();
			node = Json.MAPPER.createObjectNode();
			unknown.writeTo(node);
			assertThat(node.path("idle").isNull()).isTrue();
			assertThat(node.path("unknown").asText()).contains("no running or waiting gauge");
		}
	}
}
