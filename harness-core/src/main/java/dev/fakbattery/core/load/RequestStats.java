package dev.fakbattery.core.load;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.LatencyRecorder;
import dev.fakbattery.wire.JsonNumbers;

import org.apiguardian.api.API;

/**
 * What a workload's requests asked for against what the engine served, over the successful requests of a run or a
 * arm: token drift (prompt tokens asked by the workload vs {@code usage.prompt_tokens}; {@code max_tokens} vs
 * completion tokens), the prompt tokens served from the prefix cache where the engine reports them, the tool calls
 * the answers proposed (by the kit's {@code allow_}/{@code deny_}/{@code transform_} naming) and, for multi-turn
 * workloads, TTFT per turn.
 *
 * @since 0.3
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class RequestStats {

	/** The arguments the kit's policy convention gives a transformed call. */
	public static final String REDACTED = "{\"redacted\":true}";

	private RequestStats() {
	}

	/** Writes {@code tokens}, {@code tool_calls} and (multi-turn only) {@code per_turn} for {@code outcomes}. */
	public static void writeTo(ObjectNode node, List<RequestOutcome> outcomes) {
		List<RequestOutcome> ok = outcomes.stream().filter(RequestOutcome::ok).toList();
		writeTokens(node.putObject("tokens"), ok);
		writeToolCalls(node.putObject("tool_calls"), ok);
		if (ok.stream().anyMatch(o -> o.turn() > 0)) {
			writePerTurn(node.putArray("per_turn"), ok);
		}
	}

	/** Writes the four latency distributions (ttft, tpot, itl, e2el: p50, p90, p95, p99, p99.9) of the successful requests. */
	public static void writeLatencies(ObjectNode node, List<RequestOutcome> outcomes) {
		LatencyRecorder ttft = new LatencyRecorder();
		LatencyRecorder tpot = new LatencyRecorder();
		LatencyRecorder itl = new LatencyRecorder();
		LatencyRecorder e2el = new LatencyRecorder();
		for (RequestOutcome o : outcomes) {
			if (!o.ok()) {
				continue;
			}
			record(ttft, o.ttftMs());
			record(tpot, o.tpotMs());
			record(e2el, o.e2elMs());
			for (double gap : o.itlMs()) {
				record(itl, gap);
			}
		}
		ttft.summary().writeTo(node, "ttft");
		tpot.summary().writeTo(node, "tpot");
		itl.summary().writeTo(node, "itl");
		e2el.summary().writeTo(node, "e2el");
	}

	private static void record(LatencyRecorder recorder, double ms) {
		if (Double.isFinite(ms)) {
			recorder.recordMillis(Math.max(0, ms));
		}
	}

	private static void writeTokens(ObjectNode node, List<RequestOutcome> ok) {
		List<RequestOutcome> prompt = ok.stream()
				.filter(o -> o.detail().promptTokensAsked().isPresent() && o.promptTokens().isPresent())
				.toList();
		node.put("prompt_compared", prompt.size());
		node.put("prompt_tokens_asked", prompt.stream().mapToLong(o -> o.detail().promptTokensAsked().getAsInt()).sum());
		node.put("prompt_tokens_served", prompt.stream().mapToLong(o -> o.promptTokens().getAsInt()).sum());
		JsonNumbers.put(node, "prompt_drift_mean",
				mean(prompt, o -> o.promptTokens().getAsInt() - o.detail().promptTokensAsked().getAsInt()), 3);
		JsonNumbers.put(node, "prompt_drift_relative_mean", mean(prompt, o -> (o.promptTokens().getAsInt()
				- o.detail().promptTokensAsked().getAsInt()) / (double) Math.max(1, o.detail().promptTokensAsked().getAsInt())), 4);
		List<RequestOutcome> output = ok.stream().filter(o -> o.detail().outputTokensAsked() > 0).toList();
		node.put("output_compared", output.size());
		node.put("output_tokens_asked", output.stream().mapToLong(o -> o.detail().outputTokensAsked()).sum());
		node.put("output_tokens_served", output.stream().mapToLong(RequestOutcome::outputTokens).sum());
		JsonNumbers.put(node, "output_drift_mean", mean(output, o -> o.outputTokens() - o.detail().outputTokensAsked()), 3);
		node.put("output_short_requests", output.stream().filter(o -> o.outputTokens() < o.detail().outputTokensAsked()).count());
		List<RequestOutcome> cached = ok.stream()
				.filter(o -> o.detail().cachedTokens().isPresent() && o.promptTokens().isPresent())
				.toList();
		node.put("cached_reported", cached.size());
		long cachedTokens = cached.stream().mapToLong(o -> o.detail().cachedTokens().getAsInt()).sum();
		long cachedPrompt = cached.stream().mapToLong(o -> o.promptTokens().getAsInt()).sum();
		JsonNumbers.put(node, "cached_token_share", cachedPrompt > 0 ? cachedTokens / (double) cachedPrompt : Double.NaN, 4);
	}

	private static double mean(List<RequestOutcome> outcomes, ToDoubleFunction<RequestOutcome> value) {
		return outcomes.stream().mapToDouble(value).average().orElse(Double.NaN);
	}

	private static void writeToolCalls(ObjectNode node, List<RequestOutcome> ok) {
		Map<String, Long> byKind = new TreeMap<>();
		long total = 0;
		long redacted = 0;
		for (RequestOutcome o : ok) {
			for (RequestDetail.Call call : o.detail().toolCalls()) {
				total++;
				byKind.merge(kind(call.name()), 1L, Long::sum);
				redacted += REDACTED.equals(call.arguments().replaceAll("\\s", "")) ? 1 : 0;
			}
		}
		node.put("requests_with_calls", ok.stream().filter(o -> !o.detail().toolCalls().isEmpty()).count());
		node.put("total", total);
		node.put("redacted", redacted);
		ObjectNode kinds = node.putObject("by_kind");
		byKind.forEach(kinds::put);
	}

	/** The kit's policy class of a tool name: {@code allow}, {@code deny}, {@code transform} or {@code other}. */
	public static String kind(String name) {
		for (String kind : new String[]{ "allow", "deny", "transform" }) {
			if (name.startsWith(kind + "_")) {
				return kind;
			}
		}
		return "other";
	}

	private static void writePerTurn(ArrayNode array, List<RequestOutcome> ok) {
		Map<Integer, LatencyRecorder> ttft = new TreeMap<>();
		for (RequestOutcome o : ok) {
			if (Double.isFinite(o.ttftMs())) {
				ttft.computeIfAbsent(o.turn(), t -> new LatencyRecorder()).recordMillis(Math.max(0, o.ttftMs()));
			}
		}
		ttft.forEach((turn, recorder) -> {
			ObjectNode row = array.addObject().put("turn", turn);
			recorder.summary().writeTo(row, "ttft");
		});
	}
}
