package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("failures and dropped first attempts counted per arm: what the gateway arm has beyond the raw arm's is the gateway's")
class ArmFailuresTests {

	@Test
	@DisplayName("a gateway-arm failure the raw arm does not have is the gateway's; failures both arms share alike are the engine's")
	void failureRule() {
		assertThat(new ArmFailures("x", 0, 1, 10, "HTTP 500").gatewayFailsMore()).isTrue();
		assertThat(new ArmFailures("x", 0, 0, 10, null).gatewayFailsMore()).isFalse();
		assertThat(new ArmFailures("x", 5, 5, 10, null).gatewayFailsMore()).isFalse();
		assertThat(new ArmFailures("x", 3, 4, 10, null).gatewayFailsMore()).as("p = 0.5").isFalse();
		assertThat(new ArmFailures("x", 1, 10, 30, null).gatewayFailsMore()).as("p = 12/2048").isTrue();
		assertThat(new ArmFailures("x", 4, 0, 10, null).gatewayFailsMore()).isFalse();
	}

	@Test
	@DisplayName("the sign test is the binomial upper tail at one half")
	void signTest() {
		assertThat(ArmFailures.signTestP(3, 0)).isCloseTo(0.125, within(1e-12));
		assertThat(ArmFailures.signTestP(2, 2)).isCloseTo(11 / 16.0, within(1e-12));
		assertThat(ArmFailures.signTestP(10, 1)).isCloseTo(12 / 2048.0, within(1e-12));
		assertThat(ArmFailures.signTestP(600, 400)).as("large counts stay finite").isBetween(0.0, 1e-9);
	}

	@Test
	@DisplayName("dropped first attempts: the gateway may have 1 % of its requests (at least one) beyond the raw arm's")
	void retryAllowance() {
		assertThat(new ArmFailures("x", 0, 1, 100, null).gatewayDropsMore()).isFalse();
		assertThat(new ArmFailures("x", 0, 2, 100, null).gatewayDropsMore()).isTrue();
		assertThat(new ArmFailures("x", 3, 4, 100, null).gatewayDropsMore()).isFalse();
		assertThat(new ArmFailures("x", 0, 5, 500, null).gatewayDropsMore()).isFalse();
		assertThat(new ArmFailures("x", 0, 6, 500, null).gatewayDropsMore()).isTrue();
	}

	@Test
	@DisplayName("gateway_failures is a product check naming the phase, the counts and the first error; not run is never a pass")
	void judged() {
		RungRecorder run = Synthetic.run(ArtifactId.RATE_SWEEP);
		run.invalid("client_lag", "p99 2 ms", "a quieter machine");
		ArmFailures.judgeFailures(run, List.of(new ArmFailures("warm-up", 0, 0, 16, null),
				new ArmFailures("8.00 req/s", 0, 2, 20, "HTTP 502: bad gateway")), null);
		Check check = Synthetic.check(run, "gateway_failures");
		assertThat(check.passed()).isFalse();
		assertThat(check.product()).isTrue();
		assertThat(check.observed()).isEqualTo("8.00 req/s: gateway 2 failed of 20, raw 0 (gateway's first: HTTP 502: bad gateway)");
		assertThat(run.body().path("failures_by_arm").path("phases").get(1).path("gateway_fault").asBoolean()).isTrue();
		RungRecorder skipped = Synthetic.run(ArtifactId.RATE_SWEEP);
		ArmFailures.judgeFailures(skipped, List.of(), "not run: no engine");
		assertThat(Synthetic.check(skipped, "gateway_failures").passed()).isFalse();
		assertThat(Synthetic.check(skipped, "gateway_failures").observed()).isEqualTo("not run: no engine");
	}

	@Test
	@DisplayName("the sweeps' steady warm-up keeps each arm's failed requests: a gateway refusing every connection fails it")
	void steadyWarmupCountsFailures() throws IOException {
		int port;
		try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = closed.getLocalPort();
		}
		try (CannedSseServer canned = new CannedSseServer();
				TargetClient raw = TargetClient.open("raw", canned.baseUrl());
				TargetClient gateway = TargetClient.open("gateway", URI.create("http://127.0.0.1:" + port + "/v1"), Map.of(),
						Duration.ofSeconds(5))) {
			SteadyWarmup warmup = SteadyWarmup.run(raw, gateway, RequestSource.fixed(ChatPayload.streaming("m", "hi", 1)), 1,
					Duration.ZERO, Duration.ofSeconds(30));
			ArmFailures failures = warmup.failures();
			assertThat(failures.raw()).isZero();
			assertThat(failures.gateway()).isEqualTo(16);
			assertThat(failures.gatewayRequests()).isEqualTo(16);
			assertThat(failures.firstGatewayError()).contains("127.0.0.1:" + port);
			assertThat(failures.gatewayFailsMore()).isTrue();
		}
	}
}
