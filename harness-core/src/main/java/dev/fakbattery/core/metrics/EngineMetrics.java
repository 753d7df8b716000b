package dev.fakbattery.core.metrics;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * An engine's own view of an arm: its Prometheus {@code /metrics} read before and after, and what changed, under the
 * engine's names (vLLM, SGLang, llama.cpp with {@code --metrics}; the engine double serves vLLM's or SGLang's). Gauges
 * (running and waiting requests, KV-cache usage) are written before, after and at their peak during the arm; counters (prefix-cache queries and
 * hits, preemptions, prompt and generation tokens) as the change over the arm; the prefix-cache hit rate is the
 * change in hits over the change in queries (vLLM), or SGLang's own gauge after the arm.
 *
 * <pre>
 * EngineMetrics metrics = EngineMetrics.before(baseUrl);
 * ... run the arm ...
 * metrics.after().writeTo(artifact.putObject("engine_metrics"));
 * </pre>
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class EngineMetrics {

	/** A quantity and the names the engines give it, first found wins. */
	enum Quantity {
		RUNNING_REQUESTS(false, "vllm:num_requests_running", "sglang:num_running_reqs", "llamacpp:requests_processing"),
		WAITING_REQUESTS(false, "vllm:num_requests_waiting", "sglang:num_queue_reqs", "llamacpp:requests_deferred"),
		KV_CACHE_USAGE(false, "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
				"llamacpp:kv_cache_usage_ratio"),
		PREFIX_CACHE_QUERIES(true, "vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"),
		PREFIX_CACHE_HITS(true, "vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"),
		PREFIX_CACHE_HIT_RATE(false, "sglang:cache_hit_rate"),
		PREEMPTIONS(true, "vllm:num_preemptions_total"),
		PROMPT_TOKENS(true, "vllm:prompt_tokens_total", "sglang:prompt_tokens_total", "llamacpp:prompt_tokens_total"),
		GENERATION_TOKENS(true, "vllm:generation_tokens_total", "sglang:generation_tokens_total", "llamacpp:tokens_predicted_total");

		final boolean counter;

		final List<String> names;

		Quantity(boolean counter, String... names) {
			this.counter = counter;
			this.names = List.of(names);
		}

		String key() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}
	}

	/** How often the gauges are read during an arm, for their peak. */
	static final long PEAK_INTERVAL_MILLIS = 500;

	private final MetricsScrape before;

	private final MetricsScrape after;

	private final URI baseUrl;

	private final java.util.Map<String, Double> peaks;

	private final Thread sampler;

	private EngineMetrics(URI baseUrl, MetricsScrape before, MetricsScrape after, java.util.Map<String, Double> peaks, Thread sampler) {
		this.baseUrl = baseUrl;
		this.before = Objects.requireNonNull(before);
		this.after = after;
		this.peaks = peaks;
		this.sampler = sampler;
	}

	/**
	 * Reads the page of the engine at {@code baseUrl} now, before an arm, and then every {@value #PEAK_INTERVAL_MILLIS} ms
	 * for the gauges' peaks (running and waiting requests, KV-cache usage) until {@link #after()}; a page that cannot be
	 * read is not sampled.
	 */
	public static EngineMetrics before(URI baseUrl) {
		MetricsScrape first = MetricsScrape.of(baseUrl);
		java.util.Map<String, Double> peaks = new java.util.concurrent.ConcurrentHashMap<>();
		Thread sampler = first.unavailable().isPresent() ? null : Thread.ofVirtual().name("fak-engine-metrics").start(() -> {
			while (!Thread.currentThread().isInterrupted()) {
				try {
					Thread.sleep(PEAK_INTERVAL_MILLIS);
				}
				catch (InterruptedException e) {
					return;
				}
				MetricsScrape now = MetricsScrape.of(baseUrl);
				if (now.unavailable().isPresent()) {
					return; // the engine went away: nothing more to sample, and no thread left polling
				}
				for (Quantity quantity : Quantity.values()) {
					if (!quantity.counter) {
						quantity.names.forEach(name -> now.sum(name).ifPresent(v -> peaks.merge(name, v, Math::max)));
					}
				}
			}
		});
		return new EngineMetrics(baseUrl, first, null, peaks, sampler);
	}

	/**
	 * How the engine stood when a measurement began: its running and waiting requests as its page exports them (empty
	 * where it does not), and how long it was waited for.
	 *
	 * @param running running plus waiting requests at the last read; empty when the page has neither
	 * @param waitedS seconds waited for them to reach 0
	 * @param idle whether they read 0; true where they cannot be read (nothing known to be running)
	 * @since 0.10
	 */
	public record Idle(OptionalDouble running, double waitedS, boolean idle) {

		/**
		 * {@code running_requests}, {@code waited_s}, {@code idle}; where the page exports neither gauge, {@code idle} is
		 * null and {@code unknown} says why.
		 */
		public void writeTo(ObjectNode node) {
			running.ifPresent(r -> JsonNumbers.put(node, "running_requests", r, 1));
			JsonNumbers.put(node, "waited_s", waitedS, 2);
			if (running.isPresent()) {
				node.put("idle", idle);
			}
			else {
				node.putNull("idle");
				node.put("unknown", "the engine's /metrics carries no running or waiting gauge, or could not be read");
			}
			node.put("method", "the engine's /metrics read every 100 ms until its running and waiting requests are 0, at most the cap;"
					+ " an engine without those gauges is not waited for");
		}
	}

	/**
	 * Waits until the engine at {@code baseUrl} runs and queues no request (its page's running and waiting gauges both
	 * 0), reading it every 100 ms, at most {@code cap}: what a measurement that ended requests early left behind drains
	 * before the next one starts. An engine whose page is unreadable or carries neither gauge is not waited for.
	 */
	public static Idle awaitIdle(URI baseUrl, java.time.Duration cap) {
		long start = System.nanoTime();
		long deadline = start + cap.toNanos();
		while (true) {
			MetricsScrape now = MetricsScrape.of(baseUrl);
			OptionalDouble running = now.unavailable().isPresent() ? OptionalDouble.empty() : busy(now);
			double waited = (System.nanoTime() - start) / 1e9;
			if (running.isEmpty() || running.getAsDouble() == 0 || System.nanoTime() >= deadline) {
				return new Idle(running, waited, running.isEmpty() || running.getAsDouble() == 0);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return new Idle(running, waited, false);
			}
		}
	}

	/** Running plus waiting requests, each by the first name the page carries; empty when it carries neither. */
	private static OptionalDouble busy(MetricsScrape page) {
		OptionalDouble total = OptionalDouble.empty();
		for (Quantity quantity : List.of(Quantity.RUNNING_REQUESTS, Quantity.WAITING_REQUESTS)) {
			for (String name : quantity.names) {
				OptionalDouble value = page.sum(name);
				if (value.isPresent()) {
					total = OptionalDouble.of(total.orElse(0) + value.getAsDouble());
					break;
				}
			}
		}
		return total;
	}

	/** Both reads given, for tests and for readings taken elsewhere. */
	public static EngineMetrics of(MetricsScrape before, MetricsScrape after) {
		return new EngineMetrics(before.url(), before, after, java.util.Map.of(), null);
	}

	/** Stops the peak sampler and reads the page again, after the arm. */
	public EngineMetrics after() {
		if (sampler != null) {
			sampler.interrupt();
			try {
				sampler.join(2_000);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}
		return new EngineMetrics(baseUrl, before, MetricsScrape.of(baseUrl), java.util.Map.copyOf(peaks), null);
	}

	/** The change of a counter, or the value after of a gauge; empty when the page does not carry it. */
	OptionalDouble change(Quantity quantity) {
		for (String name : quantity.names) {
			OptionalDouble then = before.sum(name);
			OptionalDouble now = after == null ? OptionalDouble.empty() : after.sum(name);
			if (now.isPresent()) {
				return quantity.counter
						? then.isPresent()
								? OptionalDouble.of(now.getAsDouble() - then.getAsDouble())
								: OptionalDouble.empty()
						: now;
			}
		}
		return OptionalDouble.empty();
	}

	/**
	 * Writes {@code url}, {@code available} (or {@code unavailable} with the reason), then per quantity the counter
	 * changes ({@code prompt_tokens}, ...) or the gauges before and after ({@code running_requests: {before, after}}),
	 * and {@code prefix_cache_hit_rate}; a quantity the engine does not export is left out, never 0.
	 */
	public void writeTo(ObjectNode node) {
		node.put("url", before.url().toString());
		MetricsScrape missing = before.unavailable().isPresent()
				? before
				: after == null
						? null
						: after.unavailable().isPresent()
								? after
								: null;
		node.put("available", missing == null && after != null);
		if (after == null) {
			node.put("unavailable", "read only before the arm");
			return;
		}
		if (missing != null) {
			node.put("unavailable", missing.unavailable().orElseThrow());
			return;
		}
		node.put("method", "scraped before and after the arm; counters as the change, gauges before, after and at their peak (read every "
				+ PEAK_INTERVAL_MILLIS + " ms during the arm)");
		for (Quantity quantity : Quantity.values()) {
			if (quantity == Quantity.PREFIX_CACHE_HIT_RATE) {
				continue;
			}
			if (quantity.counter) {
				change(quantity).ifPresent(value -> JsonNumbers.put(node, quantity.key(), value, 3));
			}
			else {
				gauge(node, quantity);
			}
		}
		OptionalDouble hits = change(Quantity.PREFIX_CACHE_HITS);
		OptionalDouble queries = change(Quantity.PREFIX_CACHE_QUERIES);
		if (hits.isPresent() && queries.isPresent()) {
			JsonNumbers.put(node, "prefix_cache_hit_rate", queries.getAsDouble() > 0
					? hits.getAsDouble() / queries.getAsDouble()
					: Double.NaN, 4);
		}
		else {
			change(Quantity.PREFIX_CACHE_HIT_RATE).ifPresent(rate -> JsonNumbers.put(node, "prefix_cache_hit_rate", rate, 4));
		}
	}

	private void gauge(ObjectNode node, Quantity quantity) {
		for (String name : quantity.names) {
			OptionalDouble now = after.sum(name);
			if (now.isPresent()) {
				ObjectNode values = node.putObject(quantity.key());
				before.sum(name).ifPresent(then -> JsonNumbers.put(values, "before", then, 4));
				if (peaks.containsKey(name)) {
					JsonNumbers.put(values, "peak", peaks.get(name), 4);
				}
				JsonNumbers.put(values, "after", now.getAsDouble(), 4);
				return;
			}
		}
	}
}
