package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the load workloads need of the double: tool-loop rounds, a prefix cache, its lag over HTTP, timing options. */
@DisplayName("workload support: tool loops, prefix cache, lag endpoint, timing options")
class WorkloadSupportTests {

	private static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"allow_read\"}},"
			+ "{\"type\":\"function\",\"function\":{\"name\":\"deny_write\"}}]";

	private static final String SCRIPT = "Do it.\nCALL allow_read {\"path\": \"a\"}\nCALL deny_write {}\nTHEN\nCALL allow_read {\"path\": \"b\"}";

	private static String loop(int answeredRounds) {
		StringBuilder messages = new StringBuilder("[{\"role\":\"user\",\"content\":" + TextNode.valueOf(SCRIPT) + "}");
		for (int r = 0; r < answeredRounds; r++) {
			messages.append(",{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c")
					.append(r)
					.append("\",\"type\":\"function\",\"function\":{\"name\":\"allow_read\",\"arguments\":\"{}\"}}]}")
					.append(",{\"role\":\"tool\",\"tool_call_id\":\"c")
					.append(r)
					.append("\",\"content\":\"fine\"}");
		}
		return "{\"messages\":" + messages + "]," + TOOLS + ",\"max_tokens\":4}";
	}

	@Test
	@DisplayName("THEN splits CALL directives into rounds: round r answers after r tool rounds, then the double answers in text")
	void toolLoopRounds() throws IOException {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start()) {
			String chat = engine.baseUrl() + "/chat/completions";
			JsonNode first = parse(TestHttp.post(chat, loop(0)).body()).at("/choices/0");
			assertThat(first.at("/message/tool_calls")).hasSize(2);
			assertThat(first.at("/message/tool_calls/1/function/name").asText()).isEqualTo("deny_write");
			JsonNode second = parse(TestHttp.post(chat, loop(1)).body()).at("/choices/0");
			assertThat(second.at("/message/tool_calls")).hasSize(1);
			assertThat(second.at("/message/tool_calls/0/function/arguments").asText()).isEqualTo("{\"path\": \"b\"}");
			JsonNode done = parse(TestHttp.post(chat, loop(2)).body()).at("/choices/0");
			assertThat(done.at("/message/tool_calls").isEmpty()).isTrue();
			assertThat(done.path("finish_reason").asText()).isEqualTo("length");
			assertThat(done.at("/message/content").asText()).isNotEmpty();
		}
	}

	@Test
	@DisplayName("the prefix cache counts queried and hit tokens in whole 16-token blocks, and the cache reset empties it")
	void prefixCache() throws IOException {
		for (Dialect dialect : EngineDouble.DIALECTS) {
			try (EngineDouble engine = EngineDouble.builder().dialect(dialect).timing(TimingModel.instant()).start()) {
				String prompt = "{\"messages\":[{\"role\":\"user\",\"content\":\"" + "w ".repeat(40).strip() + "\"}],\"max_tokens\":2}";
				String chat = engine.baseUrl() + "/chat/completions";
				String metrics = engine.rootUrl() + "/metrics";
				double before = metric(TestHttp.get(metrics).body(),
						dialect == Dialect.VLLM ? "vllm:prefix_cache_hits_total" : "sglang:cache_hit_rate");
				TestHttp.post(chat, prompt);
				TestHttp.post(chat, prompt);
				String page = TestHttp.get(metrics).body();
				if (dialect == Dialect.VLLM) {
					assertThat(metric(page, "vllm:prefix_cache_hits_total") - before).isEqualTo(32);
				}
				else {
					assertThat(metric(page, "sglang:cache_hit_rate")).isGreaterThan(before);
				}
				TestHttp.post(engine.rootUrl() + (dialect == Dialect.VLLM ? "/reset_prefix_cache" : "/flush_cache"), "");
				double hits = metric(TestHttp.get(metrics).body(),
						dialect == Dialect.VLLM ? "vllm:prefix_cache_hits_total" : "sglang:cache_hit_rate");
				TestHttp.post(chat, prompt);
				assertThat(metric(TestHttp.get(metrics).body(), dialect == Dialect.VLLM
						? "vllm:prefix_cache_hits_total"
						: "sglang:cache_hit_rate")).as("no hit after the reset").isLessThanOrEqualTo(hits);
			}
		}
	}

	@Test
	@DisplayName("the scheduling lag is readable and resettable over HTTP, for a double in another process")
	void lagEndpoint() throws IOException {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start()) {
			TestHttp.post(engine.baseUrl() + "/chat/completions",
					"{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3}");
			JsonNode lag = parse(TestHttp.get(engine.rootUrl() + EngineDouble.LAG_PATH).body());
			assertThat(lag.path("count").asLong()).isEqualTo(engine.schedulingLag().count()).isPositive();
			assertThat(lag.path("p99_us").isNumber()).isTrue();
			JsonNode reset = parse(TestHttp.post(engine.rootUrl() + EngineDouble.LAG_PATH + "/reset", "").body());
			assertThat(reset.path("count").asLong()).isZero();
			assertThat(reset.path("p99_us").isNull()).isTrue();
		}
	}

	@Test
	@DisplayName("--ttft-ms, --itl-ms, --per-prompt-token-us, --batch-alpha, --jitter and --spin-us set the timing; bad numbers name the option")
	void timingOptions() {
		EngineDouble.Builder builder = Main.configure(new String[]{ "--dialect", "vllm", "--port", "0", "--ttft-ms", "50",
			"--itl-ms", "20.5", "--per-prompt-token-us", "3", "--batch-alpha", "0", "--jitter", "0.2", "--spin-us", "200" });
		assertThat(builder.timing()).isEqualTo(new TimingModel(Duration.ofMillis(50), Duration.ofNanos(3_000),
				Duration.ofNanos(20_500_000), 0, 0.2));
		assertThat(builder.spin()).isEqualTo(Duration.ofNanos(200_000));
		assertThat(Main.configure(new String[]{ "--dialect", "vllm", "--port", "0", "--itl-ms", "7", "--timing", "instant" }).timing())
				.as("the last --timing wins over earlier options")
				.isEqualTo(TimingModel.instant());
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "vllm", "--port", "0", "--itl-ms", "-1" }))
				.hasMessage("Unable to parse --itl-ms value [-1]: expected a number >= 0");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "vllm", "--port", "0", "--jitter", "2" }))
				.hasMessage("jitter must be in [0, 1], was 2.0");
	}

	private static double metric(String page, String name) {
		return page.lines()
				.filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
				.mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
				.sum();
	}
}
