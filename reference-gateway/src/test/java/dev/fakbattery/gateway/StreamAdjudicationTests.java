package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.AssembledToolCall;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.ToolCall;
import dev.fakbattery.wire.WireFixtures;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("stream adjudication (kit fixtures, both dialects)")
@EveryFront
class StreamAdjudicationTests {

	private final HttpFront front;

	StreamAdjudicationTests(HttpFront front) {
		this.front = front;
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("mixed parallel calls: allow re-emitted fragment for fragment, deny absent, transform redacted, dense indexes, content and usage kept")
	void mixedParallelCalls(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-mixed";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request("client-alias", true));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.contentType()).isEqualTo("text/event-stream; charset=utf-8");
			List<AssembledToolCall> upstreamCalls = Sse.calls(WireFixtures.read(fixture + ".sse"));
			List<AssembledToolCall> calls = Sse.calls(answer.body());
			assertThat(calls).hasSize(2);
			assertThat(calls.get(0).index()).isZero();
			assertThat(calls.get(0).id()).isEqualTo(upstreamCalls.get(0).id());
			assertThat(calls.get(0).name()).contains("allow_read");
			assertThat(calls.get(0).arguments()).isEqualTo(upstreamCalls.get(0).arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}");
			assertThat(calls.get(1).index()).isEqualTo(1);
			assertThat(calls.get(1).id()).isEqualTo(upstreamCalls.get(2).id());
			assertThat(calls.get(1).name()).contains("transform_exec");
			assertThat(calls.get(1).arguments()).isEqualTo("{\"redacted\":true}");
			assertThat(fragments(Sse.chunks(answer.body()), 0)).isEqualTo(fragments(chunksOf(fixture), 0));
			assertThat(Sse.assembled(answer.body()).finishReason(0)).contains("tool_calls");
			assertThat(Sse.content(answer.body())).isEqualTo("I'll check.");
			assertThat(answer.data()).containsAll(callFreeData(fixture));
			assertThat(answer.data()).contains(lastChunkData(fixture));
			assertRecordThenDone(answer, KitRecord.forCalls(upstreamCalls));
			assertNoTraceOfDenied(answer, upstreamCalls.get(1));
			assertThat(rig.upstream.chatRequest().json().get("model").textValue()).isEqualTo("client-alias");
			assertThat(answer.chunks()).extracting(chunk -> chunk.model().orElseThrow()).containsOnly("Qwen/Qwen2.5-7B-Instruct");
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("an allowed call comes out as the very chunks the engine sent, then the record and [DONE]")
	void allowOnlyIsTheEngineStream(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-allow";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request("client-alias", true));

			List<String> upstream = WireFixtures.data(fixture + ".sse");
			List<String> client = answer.data();
			assertThat(client.subList(0, client.size() - 2)).isEqualTo(upstream.subList(0, upstream.size() - 1));
			assertRecordThenDone(answer, KitRecord.forCalls(Sse.calls(WireFixtures.read(fixture + ".sse"))));
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a denied call leaves nothing, not its id or name, and the finish becomes stop")
	void denyOnly(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-deny-only";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request("client-alias", true));

			List<AssembledToolCall> upstreamCalls = Sse.calls(WireFixtures.read(fixture + ".sse"));
			assertThat(Sse.calls(answer.body())).isEmpty();
			assertThat(Sse.assembled(answer.body()).finishReason(0)).contains("stop");
			assertThat(answer.data()).contains(lastChunkData(fixture));
			assertRecordThenDone(answer, KitRecord.forCalls(upstreamCalls));
			assertNoTraceOfDenied(answer, upstreamCalls.get(0));
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a transformed call goes out as a header delta and one arguments delta, in the engine's delta shapes")
	void transformShape(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			String fixture = "kit/" + engine + "/tool-call-mixed";
			rig.upstream.chat(UpstreamDouble.fixture(fixture));
			Answer answer = rig.chat(GatewayClient.request("client-alias", true));

			String id = Sse.calls(WireFixtures.read(fixture + ".sse")).get(2).id().orElseThrow();
			List<String> deltas = deltasAt(Sse.chunks(answer.body()), 1);
			if (engine.equals("vllm")) {
				assertThat(deltas).containsExactly(
						"{\"id\":\"" + id + "\",\"type\":\"function\",\"index\":1,\"function\":{\"name\":\"transform_exec\"}}",
						"{\"index\":1,\"function\":{\"arguments\":\"{\\\"redacted\\\":true}\"}}");
			}
			else {
				assertThat(deltas).containsExactly(
						"{\"id\":\"" + id
								+ "\",\"index\":1,\"type\":\"function\",\"function\":{\"name\":\"transform_exec\",\"arguments\":\"\"}}",
						"{\"id\":null,\"index\":1,\"type\":\"function\",\"function\":{\"name\":null,\"arguments\":\"{\\\"redacted\\\":true}\"}}");
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a text stream passes byte for byte, then an empty record and [DONE]")
	void textStream(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			rig.upstream.chat(UpstreamDouble.fixture(engine + "/chat-text"));
			Answer answer = rig.chat(GatewayClient.request("client-alias", true));

			String upstream = WireFixtures.read(engine + "/chat-text.sse");
			String done = "data: [DONE]\n\n";
			assertThat(answer.body()).isEqualTo(upstream.substring(0, upstream.length() - done.length())
					+ "event: adjudication\ndata: {\"calls\":[],\"result_admissions\":[]}\n\n" + done);
		}
	}

	/** The last two events are {@code event: adjudication} with the record (no {@code choices}) and {@code [DONE]}. */
	static void assertRecordThenDone(Answer answer, ObjectNode expectedRecord) {
		List<SseEvent> events = answer.events();
		SseEvent record = events.get(events.size() - 2);
		assertThat(record.event()).contains("adjudication");
		assertThat(record.json().orElseThrow()).isEqualTo(expectedRecord);
		assertThat(record.json().orElseThrow().has("choices")).isFalse();
		assertThat(events.getLast().isDone()).isTrue();
		assertThat(events.stream().filter(SseEvent::isDone)).hasSize(1);
	}

	/** Not the id, the name or the arguments of the denied call in any chunk; its arguments nowhere at all. */
	static void assertNoTraceOfDenied(Answer answer, AssembledToolCall denied) {
		String chunks = String.join("\n", answer.chunks().stream().map(ChatChunk::toJson).toList());
		assertThat(chunks).doesNotContain(denied.id().orElseThrow()).doesNotContain(denied.name().orElseThrow());
		assertThat(answer.body()).doesNotContain("passwd");
	}

	private static List<ChatChunk> chunksOf(String fixture) {
		return Sse.chunks(WireFixtures.read(fixture + ".sse"));
	}

	/** The upstream chunks that carry no tool-call delta and no finish: they must reach the client verbatim. */
	private static List<String> callFreeData(String fixture) {
		return chunksOf(fixture).stream()
				.filter(chunk -> chunk.choices().stream().allMatch(c -> c.toolCalls().isEmpty() && c.finishReason().isEmpty()))
				.map(ChatChunk::toJson)
				.toList();
	}

	private static String lastChunkData(String fixture) {
		List<String> data = WireFixtures.data(fixture + ".sse");
		return data.get(data.size() - 2);
	}

	private static List<String> fragments(List<ChatChunk> chunks, int index) {
		List<String> fragments = new ArrayList<>();
		for (ToolCall delta : deltas(chunks, index)) {
			delta.arguments().ifPresent(fragments::add);
		}
		return fragments;
	}

	private static List<String> deltasAt(List<ChatChunk> chunks, int index) {
		return deltas(chunks, index).stream().map(ToolCall::toJson).toList();
	}

	private static List<ToolCall> deltas(List<ChatChunk> chunks, int index) {
		List<ToolCall> deltas = new ArrayList<>();
		chunks.forEach(chunk -> chunk.choices()
				.forEach(choice -> choice.toolCalls()
						.stream()
						.filter(delta -> delta.index().orElse(-1) == index)
						.forEach(deltas::add)));
		return deltas;
	}
}
