package dev.fakbattery.bench.tax;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.load.RequestStats;
import dev.fakbattery.core.stats.Percentiles;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

/**
 * One arm of the tax witness (raw or gateway) in fak's fields: {@code samples, ok_samples,
 * median_latency_s (6 dp), median_decode_tps (3 dp), leg_samples[]}, each sample {@code name, status,
 * http_status, body_excerpt, response_excerpt, perf{...}} and the row metadata (determinism mode,
 * precision, batching regime). Latency is E2EL (send to last token chunk); decode tok/s is completion
 * tokens over first-to-last token; fak's definition (completion tokens over the whole request)
 * is {@code e2e_decode_tps} beside it. Failed samples stay in {@code leg_samples} and are counted.
 *
 * @param name the arm's sample prefix, e.g. {@code raw_vllm}
 * @param samples the arm's samples in order
 * @since 0.1
 */
public record ArmReport(String name, List<InterleavingRunner.Sample> samples) {

	/** E2EL in seconds of the successful samples. */
	public double[] latencyS() {
		return ok().mapToDouble(o -> o.e2elMs() / 1000).toArray();
	}

	/** Decode tok/s (first to last token) of the successful samples where it is known. */
	public double[] decodeTps() {
		return ok().mapToDouble(RequestOutcome::decodeTps).filter(Double::isFinite).toArray();
	}

	/** fak's decode tok/s: completion tokens over the whole request time. */
	public double[] e2eDecodeTps() {
		return ok().mapToDouble(RequestOutcome::e2eCompletionTps).filter(Double::isFinite).toArray();
	}

	/** Successful samples. */
	public int okSamples() {
		return (int) ok().count();
	}

	/** Conversations sent (requests of a single-turn workload). */
	public int conversations() {
		return (int) samples.stream().filter(s -> s.outcome().turn() == 0).count();
	}

	/** Conversations of which a request failed. */
	public int failedConversations() {
		return (int) samples.stream()
				.map(InterleavingRunner.Sample::outcome)
				.filter(o -> !o.ok())
				.map(o -> o.detail().conversation())
				.distinct()
				.count();
	}

	/** Every request of the arm, in order. */
	public List<RequestOutcome> outcomes() {
		return samples.stream().map(InterleavingRunner.Sample::outcome).toList();
	}

	/** Samples by HTTP status, 0 meaning no response. */
	public Map<Integer, Long> statusCounts() {
		Map<Integer, Long> counts = new TreeMap<>();
		samples.forEach(s -> counts.merge(s.outcome().httpStatus(), 1L, Long::sum));
		return counts;
	}

	/** The first failure's reason, or null when every sample succeeded. */
	public String firstError() {
		return samples.stream()
				.map(InterleavingRunner.Sample::outcome)
				.filter(o -> !o.ok())
				.map(RequestOutcome::error)
				.findFirst()
				.orElse(null);
	}

	private java.util.stream.Stream<RequestOutcome> ok() {
		return samples.stream().map(InterleavingRunner.Sample::outcome).filter(RequestOutcome::ok);
	}

	/** The arm object; {@code rows} are the per-row metadata fields. */
	public ObjectNode toJson(Map<String, String> rows) {
		ObjectNode arm = Json.MAPPER.createObjectNode();
		arm.put("samples", samples.size());
		arm.put("conversations", conversations());
		arm.put("ok_samples", okSamples());
		arm.put("failed_samples", samples.size() - okSamples());
		arm.put("retried_samples", samples.stream().filter(sample -> sample.outcome().retried()).count());
		ObjectNode statuses = arm.putObject("http_status_counts");
		statusCounts().forEach((status, count) -> statuses.put(String.valueOf(status), count));
		JsonNumbers.put(arm, "median_latency_s", Percentiles.median(latencyS()), 6);
		JsonNumbers.put(arm, "median_decode_tps", Percentiles.median(decodeTps()), 3);
		JsonNumbers.put(arm, "median_e2e_decode_tps", Percentiles.median(e2eDecodeTps()), 3);
		JsonNumbers.put(arm, "median_ttft_s", Percentiles.median(ok().mapToDouble(o -> o.ttftMs() / 1000).toArray()), 6);
		rows.forEach(arm::put);
		RequestStats.writeLatencies(arm.putObject("latency"), outcomes());
		RequestStats.writeTo(arm, outcomes());
		ArrayNode rowsArray = arm.putArray("leg_samples");
		for (int i = 0; i < samples.size(); i++) {
			rowsArray.add(sample(i, samples.get(i), rows));
		}
		return arm;
	}

	private ObjectNode sample(int i, InterleavingRunner.Sample sample, Map<String, String> rows) {
		RequestOutcome o = sample.outcome();
		ObjectNode row = Json.MAPPER.createObjectNode();
		row.put("name", name + "_" + (i + 1));
		row.put("status", o.ok() ? "PASS" : "FAIL");
		row.put("http_status", o.httpStatus());
		row.put("order", sample.position());
		row.put("conversation", o.detail().conversation());
		row.put("turn", o.turn());
		row.put("body_excerpt", o.ok() || o.httpStatus() == 200 ? "" : cut(o.excerpt(), 2000));
		row.put("response_excerpt", o.ok() ? cut(o.excerpt(), 500) : "");
		row.put("error", o.error());
		row.put("retry", o.retry());
		ObjectNode perf = row.putObject("perf");
		JsonNumbers.put(perf, "duration_s", o.e2elMs() / 1000, 6);
		JsonNumbers.put(perf, "request_s", o.requestMs() / 1000, 6);
		JsonNumbers.put(perf, "ttft_s", o.ttftMs() / 1000, 6);
		JsonNumbers.put(perf, "tpot_ms", o.tpotMs(), 4);
		putTokens(perf, o);
		JsonNumbers.put(perf, "decode_tps", o.decodeTps(), 3);
		JsonNumbers.put(perf, "e2e_decode_tps", o.e2eCompletionTps(), 3);
		double total = o.promptTokens().isPresent() && o.ok() ? o.promptTokens().getAsInt() + o.outputTokens() : Double.NaN;
		JsonNumbers.put(perf, "e2e_total_tps", total / (o.requestMs() / 1000), 3);
		perf.put("output_tokens_source", o.outputTokensSource().name().toLowerCase(java.util.Locale.ROOT));
		perf.put("itl_per_token_from_usage", o.itlPerTokenFromUsage());
		rows.forEach(row::put);
		return row;
	}

	private static void putTokens(ObjectNode perf, RequestOutcome o) {
		if (o.promptTokens().isPresent()) {
			perf.put("prompt_tokens", o.promptTokens().getAsInt());
		}
		else {
			perf.putNull("prompt_tokens");
		}
		if (o.ok()) {
			perf.put("completion_tokens", o.outputTokens());
		}
		else {
			perf.putNull("completion_tokens");
		}
		if (o.ok() && o.promptTokens().isPresent()) {
			perf.put("total_tokens", o.promptTokens().getAsInt() + o.outputTokens());
		}
		else {
			perf.putNull("total_tokens");
		}
	}

	private static String cut(String text, int max) {
		return text.length() <= max ? text : text.substring(0, max);
	}
}
