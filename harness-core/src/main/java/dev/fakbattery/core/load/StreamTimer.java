package dev.fakbattery.core.load;

import java.util.List;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.ChatMessage;
import dev.fakbattery.wire.ChunkChoice;
import dev.fakbattery.wire.ToolCallAssembler;

/**
 * Times one streamed chat request from its chunks and their arrival times, without I/O.
 *
 * <h2>Which chunk carries a token</h2>
 * A chunk carries a token when a choice's delta has non-empty {@code content}, non-empty reasoning
 * or a tool-call delta, or when its {@code continuous_usage_stats} {@code completion_tokens} rose
 * since the previous chunk. A role-only chunk ({@code "content":""}) never does, so it is never the
 * first token (vllm#3759). The final usage chunk ({@code "choices":[]}) and {@code [DONE]} carry none.
 *
 * <h2>What is measured</h2>
 * <ul>
 * <li>TTFT: first token chunk minus the send time.</li>
 * <li>E2EL: last token chunk minus the send time (not the usage chunk, not {@code [DONE]}).</li>
 * <li>ITL per chunk: the gap between consecutive token chunks (vLLM's ITL).</li>
 * <li>ITL per token: when every token chunk carries continuous usage, each rise of
 * {@code completion_tokens} by k splits the gap since the previous rise into k equal gaps (the split
 * proposed in vLLM PRs #28183/#42661); the extra tokens of the first rise are part of TTFT and get no
 * gap, so the gaps sum to E2EL minus TTFT. Without continuous usage on every token chunk it equals
 * the per-chunk ITL (one token per chunk assumed) and {@link #itlPerTokenFromUsage()} is false.</li>
 * <li>Output tokens: {@code usage.completion_tokens} of the final usage chunk, else the last
 * continuous value, else the token chunks counted ({@link TokenSource#CHUNK_COUNT}, flagged).</li>
 * </ul>
 *
 * @since 0.1
 */
final class StreamTimer {

	private static final int TEXT_LIMIT = 500;

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	private final long sentNanos;

	private long firstTokenNanos = -1;

	private long lastTokenNanos = -1;

	private final DoubleList chunkGapsMs = new DoubleList();

	private final DoubleList tokenGapsMs = new DoubleList();

	private long lastUsageCount = -1;

	private long lastRiseNanos = -1;

	private boolean everyTokenChunkHadUsage = true;

	private int tokenChunks;

	private long finalCompletionTokens = -1;

	private long promptTokens = -1;

	private long cachedTokens = -1;

	private String finishReason;

	private ToolCallAssembler toolCalls;

	private final StringBuilder text = new StringBuilder();

	/** @param sentNanos {@link System#nanoTime()} just before the request was sent */
	public StreamTimer(long sentNanos) {
		this.sentNanos = sentNanos;
	}

	/**
	 * Accounts one chunk that arrived at {@code atNanos}.
	 * @throws dev.fakbattery.wire.WireFormatException if the chunk breaks the wire types
	 */
	public void onChunk(ChatChunk chunk, long atNanos) {
		ObjectNode usage = chunk.usage().orElse(null);
		if (usage != null && usage.path("prompt_tokens").isIntegralNumber()) {
			promptTokens = usage.path("prompt_tokens").asLong();
		}
		if (usage != null && usage.path("prompt_tokens_details").path("cached_tokens").isIntegralNumber()) {
			cachedTokens = usage.path("prompt_tokens_details").path("cached_tokens").asLong();
		}
		if (chunk.isUsageOnly()) {
			JsonNode completion = usage.path("completion_tokens");
			if (completion.isIntegralNumber()) {
				finalCompletionTokens = completion.asLong();
			}
			return;
		}
		long rise = usageRise(usage);
		boolean visible = visibleDelta(chunk);
		if (!visible && rise <= 0) {
			return;
		}
		everyTokenChunkHadUsage &= rise >= 0;
		if (firstTokenNanos < 0) {
			firstTokenNanos = atNanos;
		}
		else {
			chunkGapsMs.add((atNanos - lastTokenNanos) / NANOS_PER_MILLI);
		}
		if (rise > 0) {
			if (lastRiseNanos >= 0) {
				double gap = (atNanos - lastRiseNanos) / NANOS_PER_MILLI / rise;
				for (long k = 0; k < rise; k++) {
					tokenGapsMs.add(gap);
				}
			}
			lastRiseNanos = atNanos;
		}
		lastTokenNanos = atNanos;
		tokenChunks++;
	}

	/** The rise of {@code completion_tokens} over the previous value; -1 when this chunk has none. */
	private long usageRise(ObjectNode usage) {
		JsonNode completion = usage == null ? null : usage.get("completion_tokens");
		if (completion == null || !completion.isIntegralNumber()) {
			return -1;
		}
		long now = completion.asLong();
		long rise = now - Math.max(0, lastUsageCount);
		lastUsageCount = now;
		return Math.max(0, rise);
	}

	private boolean visibleDelta(ChatChunk chunk) {
		boolean visible = false;
		assembleToolCalls(chunk);
		for (ChunkChoice choice : chunk.choices()) {
			choice.finishReason().ifPresent(reason -> finishReason = reason);
			ChatMessage delta = choice.delta();
			String content = delta.content().orElse("");
			String reasoning = delta.reasoning().orElse("");
			boolean calls = !delta.toolCalls().isEmpty();
			if (!content.isEmpty() || !reasoning.isEmpty() || calls) {
				visible = true;
				appendText(content.isEmpty() ? reasoning : content);
			}
		}
		return visible;
	}

	/** Feeds the chunk to the tool-call assembler once a chunk carried a call; a call it cannot read stays partial. */
	private void assembleToolCalls(ChatChunk chunk) {
		if (toolCalls == null && chunk.choices().stream().allMatch(choice -> choice.toolCalls().isEmpty())) {
			return;
		}
		if (toolCalls == null) {
			toolCalls = new ToolCallAssembler();
		}
		try {
			toolCalls.accept(chunk);
		}
		catch (dev.fakbattery.wire.WireFormatException e) {
			// the timing stands; the call list keeps what was readable
		}
	}

	private void appendText(String piece) {
		int room = TEXT_LIMIT - text.length();
		if (room > 0) {
			text.append(piece, 0, Math.min(room, piece.length()));
		}
	}

	/** Whether any chunk carried a token. */
	public boolean sawToken() {
		return firstTokenNanos >= 0;
	}

	/** Time to first token in ms; {@code NaN} when no chunk carried one. */
	public double ttftMs() {
		return sawToken() ? (firstTokenNanos - sentNanos) / NANOS_PER_MILLI : Double.NaN;
	}

	/** Send to the last token chunk in ms; {@code NaN} when no chunk carried a token. */
	public double e2elMs() {
		return sawToken() ? (lastTokenNanos - sentNanos) / NANOS_PER_MILLI : Double.NaN;
	}

	/** {@link System#nanoTime()} of the last token chunk; -1 when none. */
	public long lastTokenNanos() {
		return lastTokenNanos;
	}

	/** Gaps between consecutive token chunks, in ms. */
	public double[] itlMs() {
		return chunkGapsMs.toArray();
	}

	/** Per-token gaps in ms; see the class comment. */
	public double[] itlPerTokenMs() {
		return itlPerTokenFromUsage() ? tokenGapsMs.toArray() : chunkGapsMs.toArray();
	}

	/** Whether {@link #itlPerTokenMs()} was split by continuous usage (true) or assumes a token per chunk. */
	public boolean itlPerTokenFromUsage() {
		return sawToken() && everyTokenChunkHadUsage;
	}

	/** Chunks that carried a token. */
	public int tokenChunks() {
		return tokenChunks;
	}

	/** Where {@link #outputTokens()} came from. */
	public TokenSource tokenSource() {
		if (finalCompletionTokens >= 0) {
			return TokenSource.USAGE;
		}
		if (lastUsageCount >= 0) {
			return TokenSource.CONTINUOUS_USAGE;
		}
		return tokenChunks > 0 ? TokenSource.CHUNK_COUNT : TokenSource.NONE;
	}

	/** Output tokens from {@link #tokenSource()}; 0 for {@link TokenSource#NONE}. */
	public int outputTokens() {
		return switch (tokenSource()) {
			case USAGE -> (int) finalCompletionTokens;
			case CONTINUOUS_USAGE -> (int) lastUsageCount;
			case CHUNK_COUNT -> tokenChunks;
			case NONE -> 0;
		};
	}

	/** {@code usage.prompt_tokens} as last reported; empty when the server sent none. */
	public OptionalInt promptTokens() {
		return promptTokens >= 0 ? OptionalInt.of((int) promptTokens) : OptionalInt.empty();
	}

	/** {@code usage.prompt_tokens_details.cached_tokens} as last reported; empty when the server sent none. */
	public OptionalInt cachedTokens() {
		return cachedTokens >= 0 ? OptionalInt.of((int) cachedTokens) : OptionalInt.empty();
	}

	/** The last {@code finish_reason} seen; null when none came. */
	public String finishReason() {
		return finishReason;
	}

	/** The tool calls the stream proposed, assembled by index, in the order they started. */
	public List<RequestDetail.Call> toolCalls() {
		if (toolCalls == null) {
			return List.of();
		}
		return toolCalls.calls().stream().map(StreamTimer::call).toList();
	}

	static RequestDetail.Call call(AssembledToolCall call) {
		return new RequestDetail.Call(call.id().orElse(""), call.name().orElse(""), call.arguments());
	}

	/** The first 500 characters of the streamed text (content, or reasoning when there was no content). */
	public String text() {
		return text.toString();
	}
}
