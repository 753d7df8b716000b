package dev.fakbattery.bench.tax;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the witness's warm-up: every conversation sent, each one told, failures counted")
class WarmUpTests {

	@Test
	@DisplayName("count conversations to a serving target: none failed, progress told 1..count in order")
	void sendsCountAndTellsEach() throws IOException {
		List<Integer> told = new ArrayList<>();
		try (CannedSseServer canned = new CannedSseServer(); TargetClient client = TargetClient.open("canned", canned.baseUrl())) {
			int failed = InterleavingRunner.warmUp(client, RequestSource.fixed(ChatPayload.streaming("m", "hi", 1)), 5, told::add);
			assertThat(failed).isZero();
		}
		assertThat(told).containsExactly(1, 2, 3, 4, 5);
	}

	@Test
	@DisplayName("a target that refuses every connection: each warm-up request counted as failed, none skipped")
	void countsFailures() throws IOException {
		int port;
		try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = closed.getLocalPort();
		}
		List<Integer> told = new ArrayList<>();
		try (TargetClient client = TargetClient.open("gone", URI.create("http://127.0.0.1:" + port + "/v1"), Map.of(),
				Duration.ofSeconds(5))) {
			int failed = InterleavingRunner.warmUp(client, RequestSource.fixed(ChatPayload.streaming("m", "hi", 1)), 3, told::add);
			assertThat(failed).isEqualTo(3);
		}
		assertThat(told).containsExactly(1, 2, 3);
	}

	@Test
	@DisplayName("zero warm-up (tax.warmup=0) sends nothing")
	void zero() throws IOException {
		List<Integer> told = new ArrayList<>();
		try (CannedSseServer canned = new CannedSseServer(); TargetClient client = TargetClient.open("canned", canned.baseUrl())) {
			assertThat(InterleavingRunner.warmUp(client, RequestSource.fixed(ChatPayload.streaming("m", "hi", 1)), 0, told::add))
					.isZero();
		}
		assertThat(told).isEmpty();
	}

	@Test
	@DisplayName("the witness's warm-up: each conversation of each target a step of its progress, so its line has an ETA from the first on")
	void witnessWarmupIsProgress() throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		Progress progress = Progress.start("tax", "witness", 3L * 2 + 4L * 8,
				Duration.ZERO, new PrintStream(out, true, UTF_8), System::nanoTime);
		try (CannedSseServer canned = new CannedSseServer();
				TargetClient raw = TargetClient.open("raw", canned.baseUrl());
				TargetClient gateway = TargetClient.open("gateway", canned.baseUrl())) {
			assertThat(TaxWitness.warmUp(List.of(raw, gateway, raw), RequestSource.fixed(ChatPayload.streaming("m", "hi", 1)), 2, progress))
					.isEmpty();
		}
		assertThat(progress.done()).isEqualTo(6);
		assertThat(out.toString(UTF_8).lines().toList()).hasSize(6)
				.allSatisfy(line -> assertThat(line).containsPattern(
						"^\\[tax\\] witness [1-6]/38 ETA \\d+s, warming up (raw|gateway): [12] of 2 conversations \\(tax.warmup\\)$"))
				.last()
				.asString()
				.startsWith("[tax] witness 6/38 ETA ");
	}
}
