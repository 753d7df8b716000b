package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.StubEngine;
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
	@DisplayName("p50, p99 and max read the samples, and are written as such; without samples each is NaN, written as null, never 0")
	void readings() {
		ClientLag lag = ClientLag.ofMicros(10, 20, 999);
		assertThat(lag.count()).isEqualTo(3);
		assertThat(lag.p50Micros()).isEqualTo(20);
		assertThat(lag.p99Micros()).isEqualTo(999);
		assertThat(lag.maxMicros()).isEqualTo(999);
		ObjectNode node = Json.MAPPER.createObjectNode();
		lag.writeTo(node);
		assertThat(node.path("count").asLong()).isEqualTo(3);
		assertThat(node.path("p50_us").asDouble()).isEqualTo(20);
		assertThat(node.path("p99_us").asDouble()).isEqualTo(999);
		assertThat(node.path("max_us").asDouble()).isEqualTo(999);
		ClientLag none = ClientLag.none();
		assertThat(none.p50Micros()).isNaN();
		assertThat(none.maxMicros()).isNaN();
		ObjectNode empty = Json.MAPPER.createObjectNode();
		none.writeTo(empty);
		assertThat(empty.path("count").asLong()).isZero();
		assertThat(empty.path("within_limit").asBoolean(true)).isFalse();
		for (String field : List.of("p50_us", "p99_us", "max_us")) {
			assertThat(empty.path(field).getNodeType()).as(field).isEqualTo(com.fasterxml.jackson.databind.node.JsonNodeType.NULL);
		}
	}

	@Test
	@DisplayName("the limit is inclusive: a p99 of exactly 1000 us counts, 1001 us does not; a negative reading counts as 0")
	void limitBoundary() {
		assertThat(ClientLag.ofMicros(1_000).withinLimit()).isTrue();
		assertThat(ClientLag.ofMicros(1_001).withinLimit()).isFalse();
		ClientLag clock = ClientLag.ofMicros(-5);
		assertThat(clock.count()).isEqualTo(1);
		assertThat(clock.maxMicros()).isZero();
		assertThat(clock.withinLimit()).isTrue();
	}

	@Test
	@DisplayName("the one-line reading a rung's invalid reason quotes: p99, p50, max and the sample count")
	void text() {
		assertThat(ClientLag.ofMicros(10, 20, 999)).hasToString("p99 999.0 us (p50 20.0, max 999.0) over 3 samples");
		assertThat(ClientLag.none()).hasToString("p99 NaN us (p50 NaN, max NaN) over 0 samples");
	}

	@Test
	@DisplayName("the probe records about one sample per millisecond while it runs, none after reset, and stops when closed")
	void probe() throws InterruptedException {
		try (ClientLagProbe probe = ClientLagProbe.start()) {
			// a loaded machine may not run the probe's virtual thread for a while: wait up to 10 s for 50 samples
			long deadline = System.nanoTime() + 10_000_000_000L;
			do {
				Thread.sleep(60);
			} while (probe.read().count() < 50 && System.nanoTime() < deadline);
			assertThat(probe.read().count()).isGreaterThanOrEqualTo(50);
			// after reset only what the probe sampled since: about one a millisecond, however long this thread was
			// descheduled in between (beside two CPU burners it once read 4); without the reset it would be 50 more
			long reset = System.nanoTime();
			probe.reset();
			long count = probe.read().count();
			long elapsedMillis = (System.nanoTime() - reset) / 1_000_000;
			assertThat(count).as("samples in the %d ms between reset and read", elapsedMillis).isLessThanOrEqualTo(elapsedMillis + 2);
		}
	}

	@Test
	@DisplayName("a load run carries the client's lag of its measured phase")
	void inLoadRun() throws Exception {
		try (StubEngine stub = StubEngine.chat("ok"); TargetClient client = TargetClient.open("raw", stub.uri())) {
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
