package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@DisplayName("client disconnect")
@EveryFront
class ClientDisconnectTests {

	private final HttpFront front;

	ClientDisconnectTests(HttpFront front) {
		this.front = front;
	}

	/** At most this many chunks, 20 ms apart: the slow upstream gives up after 10 s. */
	private static final int MAX_CHUNKS = 500;

	/** 120 s for the whole test, a guard against a hang: at a load average near 30 on 2 cores 30 s once ran out. */
	@Test
	@Timeout(120)
	@DisplayName("a client that leaves mid-stream cancels the upstream request")
	void disconnectCancelsUpstream() throws Exception {
		CountDownLatch upstreamSawCancel = new CountDownLatch(1);
		AtomicInteger sent = new AtomicInteger();
		try (Rig rig = Rig.start(front, "vllm")) {
			rig.upstream.chat((exchange, request) -> {
				OutputStream out = UpstreamDouble.startStream(exchange);
				try {
					for (int i = 0; i < MAX_CHUNKS; i++) {
						UpstreamDouble.frame(out,
								"{\"id\":\"slow\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t"
										+ i + "\"},\"finish_reason\":null}]}");
						sent.incrementAndGet();
						Thread.sleep(20);
					}
					UpstreamDouble.frame(out, "[DONE]");
				}
				catch (IOException cancelled) {
					upstreamSawCancel.countDown();
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
			HttpResponse<InputStream> response = GatewayClient.HTTP
					.send(HttpRequest.newBuilder(URI.create(rig.base() + "/chat/completions"))
							.POST(HttpRequest.BodyPublishers.ofString(GatewayClient.request("m", true)))
							.build(), HttpResponse.BodyHandlers.ofInputStream());
			try (SseReader reader = new SseReader(response.body())) {
				assertThat(reader.next()).get().extracting(SseEvent::data).asString().contains("\"content\":\"t0\"");
				assertThat(reader.next()).get().extracting(SseEvent::data).asString().contains("\"content\":\"t1\"");
			}

			assertThat(upstreamSawCancel.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(sent.get()).isLessThan(MAX_CHUNKS);
			assertThat(Awaiting.until(() -> rig.gateway.metrics().clientCancels() == 1, Duration.ofSeconds(5))).isTrue();
			assertThat(Awaiting.until(() -> rig.gateway.metrics().activeStreams() == 0, Duration.ofSeconds(5))).isTrue();
		}
	}
}
