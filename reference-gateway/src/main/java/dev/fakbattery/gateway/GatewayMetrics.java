package dev.fakbattery.gateway;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.fakbattery.gateway.policy.Action;

/**
 * The gateway's counters, read by tests and exported as Prometheus text on {@code GET /metrics}.
 *
 * <h2>Exported series</h2>
 * <pre>
 * fak_gateway_requests_total                  chat completion requests received (valid or not)
 * fak_gateway_adjudications_total{action=...} tool calls adjudicated, by ALLOW|DENY|TRANSFORM
 * fak_gateway_quarantines_total               tool results quarantined before forwarding
 * fak_gateway_cache_resets_total              engine prefix-cache resets that succeeded
 * fak_gateway_cache_reset_failures_total      resets that failed (the request got a 502)
 * fak_gateway_upstream_errors_total           upstream unreachable, non-200, not JSON, or a stream cut short
 * fak_gateway_upstream_retries_total          chat requests sent to the engine once more on a new connection: the engine
 *                                             had closed the kept-alive one before answering (llama.cpp, after a stream)
 * fak_gateway_client_cancels_total            streams the client left early (upstream request cancelled)
 * fak_gateway_active_streams                  streams being relayed now (gauge)
 * </pre>
 *
 * @since 0.1
 */
public final class GatewayMetrics {

	private final LongAdder requests = new LongAdder();

	private final Map<Action, LongAdder> adjudications = new EnumMap<>(Action.class);

	private final LongAdder quarantines = new LongAdder();

	private final LongAdder cacheResets = new LongAdder();

	private final LongAdder cacheResetFailures = new LongAdder();

	private final LongAdder upstreamErrors = new LongAdder();

	private final LongAdder clientCancels = new LongAdder();

	private final LongAdder upstreamRetries = new LongAdder();

	private final AtomicInteger activeStreams = new AtomicInteger();

	GatewayMetrics() {
		for (Action action : Action.values()) {
			adjudications.put(action, new LongAdder());
		}
	}

	/** Chat completion requests received, including those answered 400. */
	public long requests() {
		return requests.sum();
	}

	/** Tool calls adjudicated with {@code action}. */
	public long adjudications(Action action) {
		return adjudications.get(action).sum();
	}

	/** Tool results quarantined (content replaced before forwarding). */
	public long quarantines() {
		return quarantines.sum();
	}

	/** Engine prefix-cache resets that succeeded. */
	public long cacheResets() {
		return cacheResets.sum();
	}

	/** Engine prefix-cache resets that failed. */
	public long cacheResetFailures() {
		return cacheResetFailures.sum();
	}

	/** Upstream failures: unreachable, a non-200 status passed through, a body that is not JSON, a stream cut short. */
	public long upstreamErrors() {
		return upstreamErrors.sum();
	}

	/** Chat requests sent to the engine once more on a new connection, because it had closed the kept-alive one unanswered. */
	public long upstreamRetries() {
		return upstreamRetries.sum();
	}

	/** Streams whose client disconnected before the end, so the upstream request was cancelled. */
	public long clientCancels() {
		return clientCancels.sum();
	}

	/** Streams being relayed right now. */
	public int activeStreams() {
		return activeStreams.get();
	}

	void request() {
		requests.increment();
	}

	void adjudicated(Action action) {
		adjudications.get(action).increment();
	}

	void quarantined(int results) {
		quarantines.add(results);
	}

	void cacheReset(boolean succeeded) {
		(succeeded ? cacheResets : cacheResetFailures).increment();
	}

	void upstreamError() {
		upstreamErrors.increment();
	}

	void upstreamRetried() {
		upstreamRetries.increment();
	}

	void clientCancelled() {
		clientCancels.increment();
	}

	void streamOpened() {
		activeStreams.incrementAndGet();
	}

	void streamClosed() {
		activeStreams.decrementAndGet();
	}

	/** Prometheus text exposition format 0.0.4. */
	String prometheusText() {
		StringBuilder out = new StringBuilder();
		counter(out, "requests_total", "Chat completion requests received.", requests());
		out.append("# HELP fak_gateway_adjudications_total Tool calls adjudicated, by action.\n");
		out.append("# TYPE fak_gateway_adjudications_total counter\n");
		for (Action action : Action.values()) {
			out.append("fak_gateway_adjudications_total{action=\"")
					.append(action)
					.append("\"} ")
					.append(adjudications(action))
					.append('\n');
		}
		counter(out, "quarantines_total", "Tool results quarantined before forwarding.", quarantines());
		counter(out, "cache_resets_total", "Engine prefix-cache resets that succeeded.", cacheResets());
		counter(out, "cache_reset_failures_total", "Engine prefix-cache resets that failed.", cacheResetFailures());
		counter(out, "upstream_errors_total", "Upstream unreachable, non-200, not JSON, or a stream cut short.", upstreamErrors());
		counter(out, "upstream_retries_total",
				"Chat requests sent to the engine once more on a new connection (kept-alive one closed unanswered).",
				upstreamRetries());
		counter(out, "client_cancels_total", "Streams the client left early.", clientCancels());
		out.append("# HELP fak_gateway_active_streams Streams being relayed now.\n");
		out.append("# TYPE fak_gateway_active_streams gauge\n");
		out.append("fak_gateway_active_streams ").append(activeStreams()).append('\n');
		return out.toString();
	}

	private static void counter(StringBuilder out, String name, String help, long value) {
		out.append("# HELP fak_gateway_").append(name).append(' ').append(help).append('\n');
		out.append("# TYPE fak_gateway_").append(name).append(" counter\n");
		out.append("fak_gateway_").append(name).append(' ').append(value).append('\n');
	}
}
