package dev.fakbattery.core.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.WireJson;

/**
 * Reads one response into a {@link RequestOutcome}: a stream event by event as the HTTP client hands over its bytes
 * ({@link StreamBody}), each timed at the delivery that completed it, before its JSON is parsed, through
 * {@link StreamTimer}; a non-stream body whole. A stream is read to its end after {@code [DONE]}, so the connection
 * goes back to the pool.
 */
final class ResponseReader {

	private static final int EXCERPT = StreamBody.EXCERPT;

	private final String target;

	private final int index;

	private final boolean warmup;

	private final long intendedNanos;

	private long sentNanos;

	private String retry;

	private final ChatPayload payload;

	ResponseReader(String target, int index, boolean warmup, long intendedNanos, ChatPayload payload) {
		this.target = target;
		this.index = index;
		this.warmup = warmup;
		this.intendedNanos = intendedNanos;
		this.payload = payload;
	}

	private RequestDetail detail(java.util.OptionalInt cached, java.util.List<RequestDetail.Call> calls, String finish) {
		return new RequestDetail(index, 0, payload.promptTokensAsked(), payload.maxTokens(), cached, calls, finish);
	}

	void sentAt(long nanos) {
		this.sentNanos = nanos;
	}

	/** The request is sent once more at {@code nanos}, because of {@code why}: timing restarts there. */
	void retried(String why, long nanos) {
		this.retry = why;
		this.sentNanos = nanos;
	}

	/** When the request was (last) sent: {@link System#nanoTime()}. */
	long sentNanos() {
		return sentNanos;
	}

	/** A reader of the streamed answer with HTTP {@code status}, parsed as it arrives ({@link StreamBody}). */
	StreamBody streaming(int status, String where) {
		return new StreamBody(this, status, where);
	}

	/** The outcome of a stream read to its end: its timer, the first error seen, and how the stream ended. */
	RequestOutcome streamed(StreamTimer timer, String firstError, boolean sawDone, boolean endedMidEvent, int events) {
		long end = System.nanoTime();
		String error = firstError;
		if (error == null && !sawDone) {
			error = "stream ended without data: [DONE]" + (endedMidEvent ? " (cut mid-event)" : "");
		}
		if (error == null && !timer.sawToken()) {
			error = "stream carried no token (" + events + " events)";
		}
		if (error != null) {
			return failed(end, 200, error, timer.text());
		}
		return new RequestOutcome(target, index, warmup, intendedNanos, sentNanos, end, 200, null, timer.ttftMs(),
				timer.e2elMs(), timer.itlMs(), timer.itlPerTokenMs(), timer.itlPerTokenFromUsage(), timer.outputTokens(),
				timer.tokenSource(), timer.promptTokens(), timer.text(), retry,
				detail(timer.cachedTokens(), timer.toolCalls(), timer.finishReason()));
	}

	RequestOutcome whole(int status, InputStream body) throws IOException {
		if (status != 200) {
			return nonOk(status, body);
		}
		String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
		long end = System.nanoTime();
		JsonNode json = WireJson.read(text).orElse(null);
		if (json == null || !json.path("choices").isArray() || json.path("choices").isEmpty()) {
			return failed(end, status,
					"HTTP 200 without choices", excerpt(text));
		}
		JsonNode usage = json.path("usage");
		JsonNode completion = usage.path("completion_tokens");
		String content = json.path("choices").path(0).path("message").path("content").asText("");
		int tokens = completion.isIntegralNumber() ? completion.asInt() : 0;
		TokenSource source = completion.isIntegralNumber() ? TokenSource.USAGE : TokenSource.NONE;
		OptionalInt prompt = usage.path("prompt_tokens").isIntegralNumber()
				? OptionalInt.of(usage.path("prompt_tokens").asInt())
				: OptionalInt.empty();
		double e2el = (end - sentNanos) / 1e6;
		JsonNode cached = usage.path("prompt_tokens_details").path("cached_tokens");
		JsonNode choice = json.path("choices").path(0);
		java.util.List<RequestDetail.Call> calls = new java.util.ArrayList<>();
		for (JsonNode call : choice.path("message").path("tool_calls")) {
			calls.add(new RequestDetail.Call(call.path("id").asText(""), call.path("function").path("name").asText(""),
					call.path("function").path("arguments").asText("")));
		}
		return new RequestOutcome(target, index, warmup, intendedNanos, sentNanos, end, status, null, Double.NaN, e2el,
				new double[0], new double[0], false, tokens, source, prompt, content.length() > 500 ? content.substring(0, 500) : content,
				retry, detail(cached.isIntegralNumber() ? OptionalInt.of(cached.asInt()) : OptionalInt.empty(), calls,
						choice.path("finish_reason").isTextual() ? choice.path("finish_reason").asText() : null));
	}

	RequestOutcome transportFailure(String error) {
		return failed(System.nanoTime(), 0, error, "");
	}

	private RequestOutcome failed(long end, int status, String error, String excerpt) {
		RequestOutcome failed = RequestOutcome.failed(target, index, warmup, intendedNanos, sentNanos, end, status, error, excerpt)
				.withDetail(detail(OptionalInt.empty(), java.util.List.of(), null));
		return retry == null ? failed : failed.withRetry(retry);
	}

	private RequestOutcome nonOk(int status, InputStream body) throws IOException {
		String text = new String(body.readNBytes(EXCERPT), StandardCharsets.UTF_8);
		body.transferTo(OutputStream.nullOutputStream());
		return nonOk(status, text);
	}

	/** A non-200 answer, from the first bytes of its body. */
	RequestOutcome nonOk(int status, String excerpt) {
		return failed(System.nanoTime(), status, "HTTP " + status + ": " + abbreviate(excerpt), excerpt);
	}

	private static String abbreviate(String text) {
		String line = text.replace('\n', ' ').strip();
		return line.length() <= 200 ? line : line.substring(0, 197) + "...";
	}

	private static String excerpt(String text) {
		return text.length() > EXCERPT ? text.substring(0, EXCERPT) : text;
	}
}
