package dev.fakbattery.core.load;

import java.util.Objects;
import java.util.OptionalInt;

import dev.fakbattery.core.stats.RequestTiming;

import org.apiguardian.api.API;

/**
 * What one request of a load run measured. Times are {@link System#nanoTime()} values; durations
 * are milliseconds; unknown is {@code NaN} (or {@link TokenSource#NONE}), never 0. A failed request
 * (transport error, non-200, error frame, stream without {@code [DONE]} or without a token) keeps
 * its status and error and is counted, never dropped.
 *
 * @param target the target's name, e.g. {@code raw} or {@code gateway}
 * @param index position in the run (warm-up requests have their own numbering)
 * @param warmup whether this was a warm-up request, excluded from results
 * @param intendedNanos when the schedule meant it to be sent
 * @param sentNanos just before it was sent
 * @param endNanos when the response ended (body end or end of stream), or when it failed
 * @param httpStatus the HTTP status; 0 when no response came
 * @param error why it failed; {@code null} when it succeeded
 * @param ttftMs time to first token ({@code NaN} for non-stream requests and failures)
 * @param e2elMs send to the last token chunk (stream) or to the end of the body (non-stream)
 * @param itlMs gaps between token chunks; not copied, do not modify
 * @param itlPerTokenMs per-token gaps ({@link StreamTimer}); not copied, do not modify
 * @param itlPerTokenFromUsage whether the per-token gaps were split by continuous usage
 * @param outputTokens completion tokens from {@code outputTokensSource}
 * @param outputTokensSource where {@code outputTokens} came from
 * @param promptTokens {@code usage.prompt_tokens}, when reported
 * @param excerpt the first characters of the answer, or of the error body for a non-200
 * @param retry why the request was sent a second time ({@link dev.fakbattery.wire.StaleConnection}); {@code null}
 *        when it was sent once. Timing starts at the second send; the lost attempt is client queue time.
 * @param detail what the workload asked for and what else came back (conversation, turn, tool calls, cached tokens)
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record RequestOutcome(String target, int index, boolean warmup, long intendedNanos, long sentNanos,
		long endNanos, int httpStatus, String error, double ttftMs, double e2elMs, double[] itlMs,
		double[] itlPerTokenMs, boolean itlPerTokenFromUsage, int outputTokens, TokenSource outputTokensSource,
		OptionalInt promptTokens, String excerpt, String retry, RequestDetail detail) {

	private static final double[] NONE = new double[0];

	/** A request sent once. */
	public RequestOutcome(String target, int index, boolean warmup, long intendedNanos, long sentNanos, long endNanos,
			int httpStatus, String error, double ttftMs, double e2elMs, double[] itlMs, double[] itlPerTokenMs,
			boolean itlPerTokenFromUsage, int outputTokens, TokenSource outputTokensSource, OptionalInt promptTokens,
			String excerpt) {
		this(target, index, warmup, intendedNanos, sentNanos, endNanos, httpStatus, error, ttftMs, e2elMs, itlMs, itlPerTokenMs,
				itlPerTokenFromUsage, outputTokens, outputTokensSource, promptTokens, excerpt, null, RequestDetail.NONE);
	}

	/** A request without detail. */
	public RequestOutcome(String target, int index, boolean warmup, long intendedNanos, long sentNanos, long endNanos,
			int httpStatus, String error, double ttftMs, double e2elMs, double[] itlMs, double[] itlPerTokenMs,
			boolean itlPerTokenFromUsage, int outputTokens, TokenSource outputTokensSource, OptionalInt promptTokens,
			String excerpt, String retry) {
		this(target, index, warmup, intendedNanos, sentNanos, endNanos, httpStatus, error, ttftMs, e2elMs, itlMs, itlPerTokenMs,
				itlPerTokenFromUsage, outputTokens, outputTokensSource, promptTokens, excerpt, retry, RequestDetail.NONE);
	}

	public RequestOutcome {
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(outputTokensSource, "outputTokensSource");
		Objects.requireNonNull(promptTokens, "promptTokens");
		Objects.requireNonNull(itlMs, "itlMs");
		Objects.requireNonNull(itlPerTokenMs, "itlPerTokenMs");
		Objects.requireNonNull(detail, "detail");
		excerpt = excerpt == null ? "" : excerpt;
	}

	/** A request that failed: status (0 without a response) and the reason, nothing measured. */
	public static RequestOutcome failed(String target, int index, boolean warmup, long intendedNanos, long sentNanos,
			long endNanos, int httpStatus, String error, String excerpt) {
		return new RequestOutcome(target, index, warmup, intendedNanos, sentNanos, endNanos, httpStatus,
				Objects.requireNonNull(error, "error"), Double.NaN, Double.NaN, NONE, NONE, false, 0, TokenSource.NONE,
				OptionalInt.empty(), excerpt);
	}

	/** This outcome, marked as sent a second time because of {@code why}. */
	public RequestOutcome withRetry(String why) {
		return new RequestOutcome(target, index, warmup, intendedNanos, sentNanos, endNanos, httpStatus, error, ttftMs, e2elMs,
				itlMs, itlPerTokenMs, itlPerTokenFromUsage, outputTokens, outputTokensSource, promptTokens, excerpt,
				Objects.requireNonNull(why, "why"), detail);
	}

	/** This outcome with {@code value} as its detail. */
	public RequestOutcome withDetail(RequestDetail value) {
		return new RequestOutcome(target, index, warmup, intendedNanos, sentNanos, endNanos, httpStatus, error, ttftMs, e2elMs,
				itlMs, itlPerTokenMs, itlPerTokenFromUsage, outputTokens, outputTokensSource, promptTokens, excerpt, retry, value);
	}

	/** The turn of its conversation (0 for single-turn workloads). */
	public int turn() {
		return detail.turn();
	}

	/** Whether the request was sent a second time ({@link #retry()}). */
	public boolean retried() {
		return retry != null;
	}

	/** Whether the request succeeded: HTTP 200, a complete answer and at least one token. */
	public boolean ok() {
		return error == null;
	}

	/** Send to the end of the response in ms (after {@code [DONE]} and the end of the body). */
	public double requestMs() {
		return (endNanos - sentNanos) / 1e6;
	}

	/** Client queue time: actual send minus intended send, in ms (vLLM's {@code client_queue_time}). */
	public double queueMs() {
		return (sentNanos - intendedNanos) / 1e6;
	}

	/** vLLM's TPOT, {@code (e2el - ttft) / (out - 1)}; {@code NaN} unless ok, streamed and {@code out > 1}. */
	public double tpotMs() {
		return ok() && outputTokens > 1 ? (e2elMs - ttftMs) / (outputTokens - 1) : Double.NaN;
	}

	/**
	 * Decode tok/s: completion tokens over decode time (first token chunk to last token chunk);
	 * {@code NaN} unless ok, streamed, and the decode took time. Equals
	 * {@code out / (out - 1) * 1000 / TPOT}.
	 */
	public double decodeTps() {
		double decodeMs = e2elMs - ttftMs;
		return ok() && outputTokens > 0 && decodeMs > 0 ? outputTokens / (decodeMs / 1000) : Double.NaN;
	}

	/** fak's decode tok/s: completion tokens over the whole request time; {@code NaN} unless ok. */
	public double e2eCompletionTps() {
		double ms = requestMs();
		return ok() && outputTokens > 0 && ms > 0 ? outputTokens / (ms / 1000) : Double.NaN;
	}

	/** Per-request output throughput, completion tokens over E2EL; {@code NaN} unless ok. */
	public double outputTpsPerRequest() {
		return ok() && outputTokens > 0 && e2elMs > 0 ? outputTokens / (e2elMs / 1000) : Double.NaN;
	}

	/** The request as goodput judges it. */
	public RequestTiming timing() {
		return ok() ? RequestTiming.completed(ttftMs, e2elMs, outputTokens) : RequestTiming.failed();
	}

	@Override
	public String toString() {
		return "RequestOutcome[" + target + "#" + index + (warmup ? " warmup" : "") + " status " + httpStatus
				+ (ok() ? " e2el " + e2elMs + " ms, " + outputTokens + " tokens (" + outputTokensSource + ")" : " " + error)
				+ (retried() ? ", retried" : "") + "]";
	}
}
