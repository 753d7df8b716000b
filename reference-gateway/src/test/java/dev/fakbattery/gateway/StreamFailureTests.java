package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.fakbattery.gateway.GatewayClient.Answer;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.WireFixtures;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("stream failures and flushing")
@EveryFront
class StreamFailureTests {

	private final HttpFront front;

	StreamFailureTests(HttpFront front) {
		this.front = front;
	}

	private static final String TRUNCATED = "{\"error\":{\"message\":\"upstream stream truncated\",\"type\":\"BadGatewayError\",\"code\":502}}";

	private static final String EMPTY_RECORD = "{\"calls\":[],\"result_admissions\":[]}";

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("an in-stream error frame passes through as sent, then the record and [DONE]")
	void inStreamErrorFrame(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			rig.upstream.chat(UpstreamDouble.status(200, "text/event-stream", WireFixtures.bytes(engine + "/stream-error.sse")));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			List<String> upstream = WireFixtures.data(engine + "/stream-error.sse");
			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.data()).containsExactly(upstream.get(0), upstream.get(1), EMPTY_RECORD, "[DONE]");
			assertThat(answer.events().get(1).isError()).isTrue();
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a stream cut inside an allowed call: what streamed through stays, the truncation frame and [DONE] follow, no finish")
	void truncatedMidAllowedCall(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			List<String> upstream = WireFixtures.data("kit/" + engine + "/tool-call-allow.sse");
			rig.upstream.chat(UpstreamDouble.rawStream(frames(upstream.subList(0, 4)) + "data: {\"id\":\"cut"));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.data()).startsWith(upstream.get(0), upstream.get(1), upstream.get(2), upstream.get(3));
			assertThat(answer.data().subList(4, answer.data().size())).containsExactly(TRUNCATED,
					WireJson.write(KitRecord.forCalls(Sse.calls(frames(upstream.subList(0, 4))))), "[DONE]");
			assertThat(answer.body()).doesNotContain("finish_reason\":\"");
			assertThat(rig.gateway.metrics().upstreamErrors()).isEqualTo(1);
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "vllm", "sglang" })
	@DisplayName("a stream cut inside a transformed call ends with the truncation frame, and the held call never goes out")
	void truncatedMidHeldCall(String engine) {
		try (Rig rig = Rig.start(front, engine)) {
			List<String> upstream = WireFixtures.data("kit/" + engine + "/tool-call-allow.sse")
					.stream()
					.map(data -> data.replace("allow_read", "transform_read"))
					.toList();
			rig.upstream.chat(UpstreamDouble.rawStream(frames(upstream.subList(0, 4)) + "data: {\"id\":\"cut"));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.data()).containsExactly(upstream.get(0), TRUNCATED, EMPTY_RECORD, "[DONE]");
			assertThat(answer.body()).doesNotContain("transform_read").doesNotContain("tool_calls");
		}
	}

	@Test
	@DisplayName("a malformed data line after the stream started ends it with the truncation frame")
	void malformedDataLine() {
		try (Rig rig = Rig.start(front, "vllm")) {
			List<String> upstream = WireFixtures.data("vllm/chat-text.sse");
			rig.upstream.chat(UpstreamDouble
					.rawStream(frames(upstream.subList(0, 2)) + "data: {not json\n\n" + frames(upstream.subList(2, upstream.size()))));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			assertThat(answer.data()).containsExactly(upstream.get(0), upstream.get(1), TRUNCATED, EMPTY_RECORD, "[DONE]");
		}
	}

	@Test
	@DisplayName("a stream that ends before its first event is a 502")
	void nothingSentYet() {
		try (Rig rig = Rig.start(front, "vllm")) {
			rig.upstream.chat(UpstreamDouble.rawStream(": keep-alive\n\n"));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			assertThat(answer.status()).isEqualTo(502);
			assertThat(answer.body()).isEqualTo(
					"{\"error\":{\"message\":\"upstream stream ended without any event\",\"type\":\"BadGatewayError\",\"param\":null,\"code\":502}}");
		}
	}

	@Test
	@DisplayName("a stream cut while every event so far was a held tool delta is a 502: the client got nothing")
	void cutWhileOnlyHolding() {
		try (Rig rig = Rig.start(front, "vllm")) {
			List<String> upstream = WireFixtures.data("kit/vllm/tool-call-allow.sse")
					.stream()
					.map(data -> data.replace("allow_read", "transform_read"))
					.toList();
			rig.upstream.chat(UpstreamDouble.rawStream(frames(upstream.subList(1, 3))));
			Answer answer = rig.chat(GatewayClient.request("m", true));

			assertThat(answer.status()).isEqualTo(502);
			assertThat(answer.body()).isEqualTo(
					"{\"error\":{\"message\":\"upstream stream truncated\",\"type\":\"BadGatewayError\",\"param\":null,\"code\":502}}");
		}
	}

	@Test
	@DisplayName("a non-JSON upstream body is a 502, stream or not")
	void nonJsonUpstream() {
		try (Rig rig = Rig.start(front, "sglang")) {
			rig.upstream.chat(UpstreamDouble.status(200, "text/html", "<html>proxy error</html>".getBytes(StandardCharsets.UTF_8)));
			Answer whole = rig.chat(GatewayClient.request("m", false));
			Answer stream = rig.chat(GatewayClient.request("m", true));

			assertThat(whole.status()).isEqualTo(502);
			assertThat(whole.body()).isEqualTo(
					"{\"error\":{\"message\":\"upstream response is not a JSON object\",\"type\":\"BadGatewayError\",\"param\":null,\"code\":502}}");
			assertThat(whole.contentType()).isEqualTo("application/json");
			assertThat(stream.status()).isEqualTo(502);
			assertThat(stream.body()).isEqualTo(
					"{\"error\":{\"message\":\"upstream stream ended without any event\",\"type\":\"BadGatewayError\",\"param\":null,\"code\":502}}");
			assertThat(rig.gateway.metrics().upstreamErrors()).isEqualTo(2);
		}
	}

	@Test
	@DisplayName("content goes out while the upstream still streams, also content that shares a chunk with an allowed call's first delta")
	void contentIsNotBuffered() throws Exception {
		CountDownLatch clientSawBoth = new CountDownLatch(1);
		AtomicBoolean sawInTime = new AtomicBoolean();
		List<String> upstream = WireFixtures.data("kit/vllm/tool-call-allow.sse");
		String split = upstream.get(1).replace("\"content\":null", "\"content\":\"Let me look.\"");
		try (Rig rig = Rig.start(front, "vllm")) {
			rig.upstream.chat((exchange, request) -> {
				OutputStream out = UpstreamDouble.startStream(exchange);
				UpstreamDouble.frame(out, upstream.get(0));
				UpstreamDouble.frame(out,
						"{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello.\"},\"finish_reason\":null}]}");
				UpstreamDouble.frame(out, split);
				try {
					sawInTime.set(clientSawBoth.await(10, TimeUnit.SECONDS));
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
				for (String data : upstream.subList(2, upstream.size())) {
					UpstreamDouble.frame(out, data);
				}
				out.close();
			});
			HttpResponse<InputStream> response = GatewayClient.HTTP
					.send(HttpRequest.newBuilder(URI.create(rig.base() + "/chat/completions"))
							.timeout(Duration.ofSeconds(30))
							.POST(HttpRequest.BodyPublishers.ofString(GatewayClient.request("m", true)))
							.build(), HttpResponse.BodyHandlers.ofInputStream());
			List<SseEvent> events = new ArrayList<>();
			try (SseReader reader = new SseReader(response.body())) {
				StringBuilder content = new StringBuilder();
				for (var event = reader.next(); event.isPresent(); event = reader.next()) {
					events.add(event.get());
					if (event.get().event().isEmpty() && !event.get().isDone()) {
						event.get().chunk().choices().forEach(c -> c.delta().content().ifPresent(content::append));
					}
					if (content.toString().equals("Hello.Let me look.")) {
						clientSawBoth.countDown();
					}
				}
			}
			assertThat(sawInTime).isTrue();
			String body = String.join("\n", events.stream().map(SseEvent::data).toList());
			assertThat(Sse.calls(frames(events.stream().filter(e -> e.event().isEmpty()).map(SseEvent::data).toList())))
					.singleElement()
					.satisfies(call -> assertThat(call.arguments()).isEqualTo("{\"path\": \"/etc/hosts\"}"));
			assertThat(events.stream().map(SseEvent::data)).contains(split);
		}
	}

	static String frames(List<String> data) {
		StringBuilder frames = new StringBuilder();
		data.forEach(d -> frames.append("data: ").append(d).append("\n\n"));
		return frames.toString();
	}
}
