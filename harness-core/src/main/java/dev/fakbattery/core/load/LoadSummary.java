package dev.fakbattery.core.load;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.Goodput;
import dev.fakbattery.core.stats.LatencyRecorder;
import dev.fakbattery.core.stats.Percentiles;
import dev.fakbattery.core.stats.Slo;
import dev.fakbattery.core.stats.Summary;
import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * The statistics of one {@link LoadResult}, under {@code vllm bench serve}'s field names (see the
 * package documentation for how each maps to GuideLLM and AIPerf). Distributions are summarised by
 * {@link LatencyRecorder}: exact up to 10,000 samples, from an HdrHistogram beyond. Only successful
 * requests enter the distributions; failed ones are counted by status and error.
 *
 * @param result the run
 * @param ttft time to first token, ms
 * @param tpot time per output token after the first (vLLM's TPOT), ms
 * @param itl gap between token chunks, pooled over requests (vLLM's ITL), ms
 * @param itlPerToken per-token gap, split by continuous usage where reported, ms
 * @param e2el send to last token chunk, ms
 * @param clientQueueTime actual send minus intended send, ms
 * @param goodput under the SLO, when one was given
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record LoadSummary(LoadResult result, Summary ttft, Summary tpot, Summary itl, Summary itlPerToken, Summary e2el,
		Summary clientQueueTime, Optional<Goodput> goodput) {

	/** Summarises a run; {@code slo} adds goodput. */
	public static LoadSummary of(LoadResult result, Optional<Slo> slo) {
		LatencyRecorder ttft = new LatencyRecorder();
		LatencyRecorder tpot = new LatencyRecorder();
		LatencyRecorder itl = new LatencyRecorder();
		LatencyRecorder itlToken = new LatencyRecorder();
		LatencyRecorder e2el = new LatencyRecorder();
		LatencyRecorder queue = new LatencyRecorder();
		for (RequestOutcome o : result.outcomes()) {
			queue.recordMillis(Math.max(0, o.queueMs()));
			if (!o.ok()) {
				continue;
			}
			recordIfKnown(ttft, o.ttftMs());
			recordIfKnown(tpot, o.tpotMs());
			recordIfKnown(e2el, o.e2elMs());
			for (double gap : o.itlMs()) {
				itl.recordMillis(Math.max(0, gap));
			}
			for (double gap : o.itlPerTokenMs()) {
				itlToken.recordMillis(Math.max(0, gap));
			}
		}
		Optional<Goodput> good = slo.map(s -> Goodput.of(s, result.outcomes().stream().map(RequestOutcome::timing).toList(),
				result.durationS()));
		return new LoadSummary(result, ttft.summary(), tpot.summary(), itl.summary(), itlToken.summary(), e2el.summary(),
				queue.summary(), good);
	}

	private static void recordIfKnown(LatencyRecorder recorder, double ms) {
		if (Double.isFinite(ms)) {
			recorder.recordMillis(Math.max(0, ms));
		}
	}

	/** Median of the per-request decode tok/s ({@link RequestOutcome#decodeTps()}); {@code NaN} when none. */
	public double medianDecodeTps() {
		return Percentiles.median(result.ok().stream().mapToDouble(RequestOutcome::decodeTps).filter(Double::isFinite).toArray());
	}

	/** Requests whose output tokens were re-counted from chunks because usage was absent (flagged). */
	public long recountedRequests() {
		return result.ok().stream().filter(o -> o.outputTokensSource().recounted()).count();
	}

	/** Requests by HTTP status, 0 meaning no response; failed and successful alike. */
	public Map<Integer, Long> httpStatusCounts() {
		Map<Integer, Long> counts = new TreeMap<>();
		result.outcomes().forEach(o -> counts.merge(o.httpStatus(), 1L, Long::sum));
		return counts;
	}

	/** The distinct failure reasons with their counts, in first-seen order. */
	public Map<String, Long> errors() {
		Map<String, Long> errors = new LinkedHashMap<>();
		result.failed().forEach(o -> errors.merge(o.error(), 1L, Long::sum));
		return errors;
	}

	/** Requests sent a second time because the first attempt went unanswered on a closed connection, failed or not. */
	public long retried() {
		return result.outcomes().stream().filter(RequestOutcome::retried).count();
	}

	/** Writes the summary; see the package documentation for every field. */
	public void writeTo(ObjectNode node) {
		node.put("target", result.target());
		node.put("base_url", result.baseUrl());
		node.put("mode", result.mode());
		node.put("max_concurrency", result.concurrency());
		JsonNumbers.put(node, "request_rate", result.rate());
		node.put("num_prompts", result.planned());
		node.put("requests_sent", result.outcomes().size());
		node.put("completed", result.ok().size());
		node.put("failed", result.failed().size());
		node.put("not_sent", result.notSent());
		node.put("time_capped", result.timeCapped());
		node.put("warmup_requests", result.warmupSent());
		node.put("warmup_failed", result.warmupFailed());
		node.put("retried", retried());
		ObjectNode retries = node.putObject("retry_reasons");
		result.outcomes()
				.stream()
				.filter(RequestOutcome::retried)
				.forEach(o -> retries.put(o.retry(), retries.path(o.retry()).asLong() + 1));
		ObjectNode statuses = node.putObject("http_status_counts");
		httpStatusCounts().forEach((status, count) -> statuses.put(String.valueOf(status), count));
		ObjectNode errors = node.putObject("errors");
		errors().entrySet().stream().limit(10).forEach(e -> errors.put(e.getKey(), e.getValue()));
		writeThroughput(node);
		writeTokenSources(node);
		ttft.writeTo(node, "ttft");
		tpot.writeTo(node, "tpot");
		itl.writeTo(node, "itl");
		itlPerToken.writeTo(node, "itl_per_token");
		e2el.writeTo(node, "e2el");
		clientQueueTime.writeTo(node, "client_queue_time");
		result.scheduleLagMs().ifPresent(lag -> lag.writeTo(node, "schedule_lag"));
		result.clientLag().writeTo(node.putObject("client_lag"));
		goodput.ifPresent(g -> g.writeTo(node));
		RequestStats.writeTo(node, result.outcomes());
	}

	private void writeThroughput(ObjectNode node) {
		List<RequestOutcome> ok = result.ok();
		long out = ok.stream().mapToLong(RequestOutcome::outputTokens).sum();
		long in = ok.stream().mapToLong(o -> o.promptTokens().orElse(0)).sum();
		boolean inputKnown = ok.stream().allMatch(o -> o.promptTokens().isPresent());
		double duration = result.durationS();
		JsonNumbers.put(node, "duration", duration, 6);
		node.put("total_output_tokens", out);
		if (inputKnown) {
			node.put("total_input_tokens", in);
		}
		else {
			node.putNull("total_input_tokens");
		}
		JsonNumbers.put(node, "request_throughput", result.requestThroughput(), 4);
		JsonNumbers.put(node, "output_throughput", result.outputThroughput(), 3);
		JsonNumbers.put(node, "total_token_throughput", inputKnown && duration > 0 ? (in + out) / duration : Double.NaN, 3);
		JsonNumbers.put(node, "median_decode_tps", medianDecodeTps(), 3);
		JsonNumbers.put(node, "median_output_tps_per_request",
				Percentiles.median(ok.stream().mapToDouble(RequestOutcome::outputTpsPerRequest).filter(Double::isFinite).toArray()), 3);
	}

	private void writeTokenSources(ObjectNode node) {
		Map<TokenSource, Long> sources = new EnumMap<>(TokenSource.class);
		result.ok().forEach(o -> sources.merge(o.outputTokensSource(), 1L, Long::sum));
		ObjectNode counts = node.putObject("output_tokens_source");
		sources.forEach((source, count) -> counts.put(source.name().toLowerCase(java.util.Locale.ROOT), count));
		node.put("output_tokens_recounted", recountedRequests());
		node.put("itl_per_token_split_by_usage", result.ok().stream().filter(RequestOutcome::itlPerTokenFromUsage).count());
	}
}
