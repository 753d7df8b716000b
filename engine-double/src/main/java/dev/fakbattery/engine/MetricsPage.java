package dev.fakbattery.engine;

import java.util.Map;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.PromText;

/**
 * {@code GET /metrics} in the dialect's metric names and labels (see {@code /work/shared/wire/*}{@code /metrics.txt}),
 * with values from the double's counters, after the double's marker comment ({@link EngineDoubleMarker#METRICS_COMMENT}).
 *
 * @since 0.1
 */
final class MetricsPage {

	/** KV-cache capacity the usage ratio is computed against, in tokens. */
	static final double KV_CACHE_TOKENS = 1 << 20;

	private MetricsPage() {
	}

	static String render(Dialect dialect, String model, EngineCounters counters) {
		return EngineDoubleMarker.METRICS_COMMENT + "\n" + (dialect == Dialect.VLLM ? vllm(model, counters) : sglang(model, counters));
	}

	private static String vllm(String model, EngineCounters c) {
		Map<String, String> labels = Map.of("engine", "0", "model_name", model);
		PromText text = new PromText();
		text.metric("vllm:num_requests_running", "Number of requests in model execution batches.", "gauge", labels, c.active.get());
		text.metric("vllm:num_requests_waiting", "Number of requests waiting to be processed.", "gauge", labels, 0);
		text.metric("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", "gauge", labels, kvUsage(c));
		text.metric("vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.", "counter",
				labels, c.prefixCache.queries.sum());
		text.metric("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.", "counter", labels,
				c.prefixCache.hits.sum());
		text.metric("vllm:num_preemptions_total", "Cumulative number of preemption from the engine.", "counter", labels, 0);
		text.metric("vllm:prompt_tokens_total", "Number of prefill tokens processed.", "counter", labels, c.promptTokens.sum());
		text.metric("vllm:generation_tokens_total", "Number of generation tokens processed.", "counter", labels,
				c.generationTokens.sum());
		text.header("vllm:request_success_total", "Count of successfully processed requests.", "counter");
		text.sample("vllm:request_success_total", Map.of("engine", "0", "finished_reason", "stop", "model_name", model),
				c.finishedStop.sum());
		text.sample("vllm:request_success_total", Map.of("engine", "0", "finished_reason", "length", "model_name", model),
				c.finishedLength.sum());
		text.sample("vllm:request_success_total", Map.of("engine", "0", "finished_reason", "abort", "model_name", model),
				c.finishedAbort.sum());
		text.histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", labels, c.ttft, false);
		text.histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", labels, c.itl, false);
		text.histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", labels, c.e2e, false);
		return text.toString();
	}

	private static String sglang(String model, EngineCounters c) {
		Map<String, String> labels = Map.of("model_name", model);
		Map<String, String> scheduler = Map.of("engine_type", "unified", "model_name", model, "pp_rank", "0", "tp_rank", "0");
		PromText text = new PromText();
		text.metric("sglang:prompt_tokens_total", "Number of prefill tokens processed.", "counter", labels, c.promptTokens.sum());
		text.metric("sglang:generation_tokens_total", "Number of generation tokens processed.", "counter", labels,
				c.generationTokens.sum());
		text.metric("sglang:num_requests_total", "Number of requests processed.", "counter", labels,
				c.finishedStop.sum() + c.finishedLength.sum() + c.finishedAbort.sum());
		text.metric("sglang:num_aborted_requests_total", "Number of requests aborted.", "counter", labels, c.finishedAbort.sum());
		text.metric("sglang:num_running_reqs", "The number of running requests.", "gauge", scheduler, c.active.get());
		text.metric("sglang:num_queue_reqs", "The number of requests in the waiting queue.", "gauge", scheduler, 0);
		text.metric("sglang:num_used_tokens", "The number of used tokens.", "gauge", scheduler, c.activeContextTokens.get());
		text.metric("sglang:token_usage", "The token usage", "gauge", scheduler, kvUsage(c));
		long queries = c.prefixCache.queries.sum();
		text.metric("sglang:cache_hit_rate", "The cache hit rate", "gauge", scheduler,
				queries == 0 ? 0 : c.prefixCache.hits.sum() / (double) queries);
		text.histogram("sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.", labels, c.ttft, true);
		text.histogram("sglang:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", labels, c.itl, true);
		text.histogram("sglang:e2e_request_latency_seconds", "Histogram of End-to-end request latency in seconds", labels, c.e2e, true);
		return text.toString();
	}

	private static double kvUsage(EngineCounters c) {
		return Math.min(1.0, c.activeContextTokens.get() / KV_CACHE_TOKENS);
	}
}
