package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.gateway.GatewayClient.Answer;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

// runs alone (junit-platform.properties runs classes concurrently): its 256 streams would load the machine other classes time
@DisplayName("capacity")
@Isolated
@EveryFront
class ConcurrentStreamsTests {

	private final HttpFront front;

	ConcurrentStreamsTests(HttpFront front) {
		this.front = front;
	}

	/** Streams at once; {@code -Dreference-gateway.streams=N} measures another count. */
	private static final int STREAMS = Integer.getInteger("reference-gateway.streams", 256);

	private static final int CHUNKS = 20;

	@Test
	@Timeout(value = 180, unit = TimeUnit.SECONDS)
	@DisplayName("256 streams of 20 chunks at once, all open together, all complete and correct")
	void concurrentStreams(TestReporter reporter) throws Exception {
		CountDownLatch allOpen = new CountDownLatch(1);
		try (Rig rig = Rig.start(front, "vllm"); ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
			Thread.ofVirtual().start(() -> {
				// one watcher latches the moment the gateway relays every stream at once; the upstream holds each
				// stream after its first chunk until then, so no stream can finish (and drop the gauge) before it
				if (Awaiting.until(() -> rig.gateway.metrics().activeStreams() >= STREAMS, Duration.ofSeconds(120))) {
					allOpen.countDown();
				}
			});
			rig.upstream.chat((exchange, request) -> {
				OutputStream out = UpstreamDouble.startStream(exchange);
				UpstreamDouble.frame(out, chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
				try {
					allOpen.await(120, TimeUnit.SECONDS);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
				for (int i = 0; i < CHUNKS; i++) {
					UpstreamDouble.frame(out, chunk("{\"content\":\"t" + i + " \"}", "null"));
				}
				UpstreamDouble.frame(out, chunk("{}", "\"stop\""));
				UpstreamDouble.frame(out, "[DONE]");
				out.close();
			});
			long start = System.nanoTime();
			List<Future<Answer>> answers = new ArrayList<>();
			for (int i = 0; i < STREAMS; i++) {
				answers.add(clients.submit(() -> rig.chat(GatewayClient.request("m", true))));
			}
			for (Future<Answer> future : answers) {
				Answer answer = future.get(150, TimeUnit.SECONDS);
				assertThat(answer.status()).isEqualTo(200);
				assertThat(Sse.content(answer.body())).isEqualTo(expectedContent());
				assertThat(answer.data()).endsWith("{\"calls\":[],\"result_admissions\":[]}", "[DONE]");
			}
			long millis = (System.nanoTime() - start) / 1_000_000;
			reporter.publishEntry("streams", STREAMS + " x " + (CHUNKS + 2) + " chunks in " + millis + " ms, "
					+ Runtime.getRuntime().availableProcessors() + " cores");
			assertThat(allOpen.getCount()).as("the gateway relayed %d streams at once", STREAMS).isZero();
			assertThat(rig.gateway.metrics().activeStreams()).isZero();
		}
	}

	private static String expectedContent() {
		StringBuilder content = new StringBuilder();
		for (int i = 0; i < CHUNKS; i++) {
			content.append('t').append(i).append(' ');
		}
		return content.toString();
	}

	private static String chunk(String delta, String finish) {
		return "{\"id\":\"chatcmpl-load\",\"object\":\"chat.completion.chunk\",\"created\":1790507353,\"model\":\"m\","
				+ "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":" + finish + "}]}";
	}
}
