package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Conversation;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/** The steady warm-up run for real against the engine double: arm A served, arm B answered 404, a cap of 0.3 s. */
@DisplayName("a steady warm-up's batches: each its own warm-up conversations, their lags read, every failure kept per arm")
class SteadyWarmupRunTests {

	private static final int CONCURRENCY = 5;

	@Test
	@ResourceLock(Resources.SYSTEM_OUT)
	@DisplayName("at 5 streams batches of 20 alternate A, B with fresh warm-up conversations; B's failures are kept, and it says what it did")
	void pairsOfBatches() throws IOException {
		List<Integer> asked = new CopyOnWriteArrayList<>();
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		PrintStream out = System.out;
		SteadyWarmup warmup;
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				TargetClient raw = TargetClient.open("raw", URI.create(engine.baseUrl()));
				TargetClient gateway = TargetClient.open("gateway", URI.create(engine.baseUrl().replace("/v1", "/no-such-api")))) {
			ChatPayload payload = ChatPayload.streaming(engine.model(), "hi", 4);
			RequestSource source = index -> {
				asked.add(index);
				return Conversation.single(payload);
			};
			System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
			try {
				warmup = SteadyWarmup.run(raw, gateway, source, CONCURRENCY, Duration.ofMillis(300), Duration.ofSeconds(30));
			}
			finally {
				System.setOut(out);
			}
		}

		int batch = 20;
		assertThat(warmup.concurrency()).isEqualTo(CONCURRENCY);
		assertThat(warmup.batchRequests()).as("max(4c, 16)").isEqualTo(batch);
		assertThat(warmup.lags()).as("whole pairs").isNotEmpty().hasSize(2 * (warmup.lags().size() / 2));
		int batches = warmup.lags().size();
		assertThat(warmup.failedA()).as("A's requests, served").isEmpty();
		assertThat(warmup.failedB()).as("B's requests, each answered 404")
				.hasSize(batches / 2 * batch)
				.allMatch(o -> o.target().equals("gateway"));
		assertThat(warmup.failures()).isEqualTo(new ArmFailures("warm-up", 0, batches / 2 * batch, batches / 2 * batch,
				warmup.failedB().get(0).error()));
		assertThat(asked).as("one conversation per request").hasSize(batches * batch);
		for (int k = 0; k < batches; k++) {
			int from = RequestSource.WARMUP_OFFSET + k * batch;
			assertThat(new HashSet<>(asked.subList(k * batch, (k + 1) * batch))).as("batch %d's conversations (A, B, A, ...)", k)
					.isEqualTo(IntStream.range(from, from + batch).boxed().collect(Collectors.toSet()));
		}
		String printed = console.toString(StandardCharsets.UTF_8);
		assertThat(printed).as("the progress line's last reading, then the warm-up")
				.contains("[tax] warm-up c=5 (until the client lag p99 <= 1 ms) seconds")
				.contains(", " + batches + " batches of 20, client lag p99 ")
				.contains("[tax] " + warmup + System.lineSeparator());
	}
}
