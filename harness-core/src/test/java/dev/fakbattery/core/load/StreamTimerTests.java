package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fakbattery.wire.ChatChunk;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StreamTimer")
class StreamTimerTests {

	private static final long MS = 1_000_000L;

	private static ChatChunk chunk(String json) {
		return ChatChunk.parse(json);
	}

	private static ChatChunk content(String text, Integer completionTokens) {
		String usage = completionTokens == null ? "" : ",\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":" + completionTokens + "}";
		return chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]" + usage + "}");
	}

	private static final ChatChunk ROLE = chunk("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}");

	private static final ChatChunk USAGE = chunk("{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3}}");

	@Test
	@DisplayName("a role-only chunk is never the first token; e2el ends at the last token chunk, not the usage chunk")
	void roleChunkIsNotTtft() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(ROLE, 5 * MS);
		timer.onChunk(content("a", null), 200 * MS);
		timer.onChunk(content("b", null), 210 * MS);
		timer.onChunk(content("c", null), 230 * MS);
		timer.onChunk(USAGE, 900 * MS);
		assertThat(timer.ttftMs()).isEqualTo(200.0);
		assertThat(timer.e2elMs()).isEqualTo(230.0);
		assertThat(timer.itlMs()).containsExactly(10.0, 20.0);
		assertThat(timer.outputTokens()).isEqualTo(3);
		assertThat(timer.tokenSource()).isEqualTo(TokenSource.USAGE);
		assertThat(timer.promptTokens()).hasValue(7);
		assertThat(timer.text()).isEqualTo("abc");
	}

	@Test
	@DisplayName("without continuous usage the per-token ITL assumes a token per chunk and says so")
	void perTokenWithoutUsage() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(content("a", null), 10 * MS);
		timer.onChunk(content("b", null), 14 * MS);
		assertThat(timer.itlPerTokenFromUsage()).isFalse();
		assertThat(timer.itlPerTokenMs()).containsExactly(4.0);
	}

	@Test
	@DisplayName("continuous usage splits a chunk gap into per-token gaps that sum to e2el - ttft")
	void perTokenSplitByUsage() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],"
				+ "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":0}}"), 1 * MS);
		timer.onChunk(content("a", 1), 10 * MS);
		timer.onChunk(content("bcd", 4), 22 * MS);
		timer.onChunk(content("e", 5), 25 * MS);
		assertThat(timer.itlPerTokenFromUsage()).isTrue();
		assertThat(timer.itlMs()).containsExactly(12.0, 3.0);
		assertThat(timer.itlPerTokenMs()).containsExactly(4.0, 4.0, 4.0, 3.0);
		double sum = 0;
		for (double gap : timer.itlPerTokenMs()) {
			sum += gap;
		}
		assertThat(sum).isCloseTo(timer.e2elMs() - timer.ttftMs(), within(1e-9));
		assertThat(timer.tokenSource()).isEqualTo(TokenSource.CONTINUOUS_USAGE);
		assertThat(timer.outputTokens()).isEqualTo(5);
	}

	@Test
	@DisplayName("a chunk whose continuous usage rose carries a token even with empty content (EOS on the finish chunk)")
	void usageRiseWithoutTextIsAToken() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(content("a", 1), 10 * MS);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"stop\"}],"
				+ "\"usage\":{\"completion_tokens\":2}}"), 17 * MS);
		assertThat(timer.e2elMs()).isEqualTo(17.0);
		assertThat(timer.tokenChunks()).isEqualTo(2);
	}

	@Test
	@DisplayName("a tool-call delta is a token; a stream without usage re-counts chunks and flags it")
	void toolCallDeltaAndRecount() {
		StreamTimer timer = new StreamTimer(2 * MS);
		timer.onChunk(ROLE, 3 * MS);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"c1\","
				+ "\"type\":\"function\",\"function\":{\"name\":\"allow_read\",\"arguments\":\"\"}}]}}]}"), 12 * MS);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}"),
				15 * MS);
		assertThat(timer.ttftMs()).isEqualTo(10.0);
		assertThat(timer.tokenSource()).isEqualTo(TokenSource.CHUNK_COUNT);
		assertThat(timer.tokenSource().recounted()).isTrue();
		assertThat(timer.outputTokens()).isEqualTo(2);
	}

	@Test
	@DisplayName("no token at all: ttft and e2el are unknown, not 0")
	void nothingMeasured() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(ROLE, MS);
		assertThat(timer.sawToken()).isFalse();
		assertThat(timer.ttftMs()).isNaN();
		assertThat(timer.e2elMs()).isNaN();
		assertThat(timer.tokenSource()).isEqualTo(TokenSource.NONE);
	}

	@Test
	@DisplayName("tool-call deltas are assembled by index; the finish reason and cached prompt tokens are kept")
	void toolCallsAndCache() {
		StreamTimer timer = new StreamTimer(0);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\","
				+ "\"function\":{\"name\":\"allow_read\",\"arguments\":\"\"}}]}}]}"), 10 * MS);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
				+ "\"{\\\"p\\\": 1}\"}}]}}]}"), 20 * MS);
		timer.onChunk(chunk("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}"), 30 * MS);
		timer.onChunk(chunk("{\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":2,"
				+ "\"prompt_tokens_details\":{\"cached_tokens\":32}}}"), 40 * MS);
		assertThat(timer.toolCalls()).containsExactly(new RequestDetail.Call("c1", "allow_read", "{\"p\": 1}"));
		assertThat(timer.finishReason()).isEqualTo("tool_calls");
		assertThat(timer.cachedTokens()).hasValue(32);
		StreamTimer plain = new StreamTimer(0);
		plain.onChunk(content("a", 1), MS);
		assertThat(plain.toolCalls()).isEmpty();
		assertThat(plain.cachedTokens()).isEmpty();
	}
}
