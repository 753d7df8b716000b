package dev.fakbattery.api.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("client lag: the probe samples, the limit judges, readings merge")
class ClientLagTests {

	@Test
	@DisplayName("within the limit only with samples and p99 <= 1000 us; merged readings keep every sample")
	void limit() {
		assertThat(ClientLag.none().withinLimit()).isFalse();
		assertThat(ClientLag.none().p99Micros()).isNaN();
		assertThat(ClientLag.ofMicros(10, 20, 999).withinLimit()).isTrue();
		assertThat(ClientLag.ofMicros(10, 20, 1_500).withinLimit()).isFalse();
		ClientLag merged = ClientLag.merge(List.of(ClientLag.ofMicros(10), ClientLag.ofMicros(3_000)));
		assertThat(merged.count()).isEqualTo(2);
		assertThat(merged.maxMicros()).isBetween(2_999.0, 3_003.0);
		ObjectNode node = Json.MAPPER.createObjectNode();
		ClientLag.ofMicros(100).writeTo(node);
		assertThat(node.path("within_limit").asBoolean()).isTrue();
		assertThat(node.path("limit_p99_us").asDouble()).isEqualTo(1_000);
		assertThat(node.path("method").asText()).startsWith("a virtual thread on the client's carriers");
	}

	@Test
	@DisplayName("the probe records about one sample per millisecond while it runs, none after reset, and stops when closed")
	void probe() throws InterruptedException {
		try (ClientLagProbe probe = ClientLagProbe.start()) {
			// a loaded machine may not run the probe's virtual thread for a while: wait up to 10 s for its first samples
			long deadline = System.nanoTime() + 10_000_000_000L;
			do {
				Thread.sleep(60);
			}
			while (probe.read().count() == 0 && System.nanoTime() < deadline);
			assertThat(probe.read().count()).isPositive();
			probe.reset();
			assertThat(probe.read().count()).isLessThanOrEqualTo(2);
		}
	}

	@Test
	@DisplayName("a load run carries the client's lag of its measured phase")
	void inLoadRun() throws Exception {
		try (StubEngine stub = new StubEngine("ok"); TargetClient client = TargetClient.open("raw", stub.baseUrl())) {
			LoadResult result = LoadRunner.run(client, ChatPayload.streaming("m", "hi", 3),
					new ClosedLoop(2, 10, 0, java.time.Duration.ofSeconds(30)), Progress.silent());
			assertThat(result.clientLag().count()).isPositive();
			ObjectNode node = Json.MAPPER.createObjectNode();
			LoadSummary.of(result, java.util.Optional.empty()).writeTo(node);
			assertThat(node.path("client_lag").path("count").asLong()).isEqualTo(result.clientLag().count());
			assertThat(node.path("requests_sent").asInt()).isEqualTo(10);
		}
	}
}
