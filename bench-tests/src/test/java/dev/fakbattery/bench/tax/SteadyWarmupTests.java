package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The sweep warm-up's stopping rule, on scripted client lags and a scripted clock. */
@DisplayName("steady warm-up")
class SteadyWarmupTests {

	/** 1,000 samples, 3 % of them 2.5 ms late: p99 over the limit, alone or with a calm batch. */
	private static final ClientLag LATE = lag(1_000, 30, 2_500);

	/** 1,000 samples, all 0.1 ms. */
	private static final ClientLag CALM = lag(1_000, 0, 0);

	/** One second per pair on a scripted clock. */
	private final AtomicLong nanos = new AtomicLong();

	private static ClientLag lag(int samples, int late, long lateMicros) {
		long[] values = new long[samples];
		Arrays.fill(values, 100);
		Arrays.fill(values, 0, late, lateMicros);
		return ClientLag.ofMicros(values);
	}

	private ClientLag[] pair(ClientLag a, ClientLag b) {
		nanos.addAndGet(1_000_000_000L);
		return new ClientLag[]{ a, b };
	}

	@Test
	@DisplayName("stops at the first pair that reads within 1 ms, not before")
	void stopsWhenSteady() {
		SteadyWarmup warmup = SteadyWarmup.until(p -> switch (p) {
			case 0 -> pair(LATE, LATE);
			case 1 -> pair(CALM, LATE);
			default -> pair(CALM, CALM);
		}, 4, 16, Duration.ofMinutes(2), nanos::get);

		assertThat(warmup.steady()).isTrue();
		assertThat(warmup.lags()).hasSize(6);
		assertThat(warmup.seconds()).isEqualTo(3.0);
	}

	@Test
	@DisplayName("a client that never steadies stops at the cap and says so")
	void stopsAtTheCap() {
		SteadyWarmup warmup = SteadyWarmup.until(p -> pair(CALM, LATE), 1, 16, Duration.ofSeconds(5), nanos::get);

		assertThat(warmup.steady()).isFalse();
		assertThat(warmup.lags()).hasSize(10);
		assertThat(warmup.toString()).isEqualTo("warm-up c=1: 10 batches of 16 in 5 s, not steady by the cap "
				+ "(client lag p99 2501 us over the last 2000 samples)");
	}

	@Test
	@DisplayName("short batches are judged together: a few calm samples are not steadiness, and one late one is not lag")
	void shortBatchesAreJudgedOverAWindow() {
		ClientLag fewCalm = lag(100, 0, 0);
		ClientLag oneLate = lag(100, 1, 3_000);
		assertThat(SteadyWarmup.latest(List.of(fewCalm, fewCalm)).withinLimit()).as("200 samples").isFalse();
		assertThat(SteadyWarmup.latest(List.of(LATE, fewCalm, fewCalm)).withinLimit()).as("the window reaches back to LATE").isFalse();
		List<ClientLag> calmWithOneLate = new java.util.ArrayList<>(java.util.Collections.nCopies(9, fewCalm));
		calmWithOneLate.add(oneLate);
		assertThat(SteadyWarmup.latest(calmWithOneLate).count()).isEqualTo(1_000);
		assertThat(SteadyWarmup.latest(calmWithOneLate).withinLimit()).as("1 late sample in 1,000").isTrue();
	}

	@Test
	@DisplayName("runs one pair even when the cap has passed at once")
	void runsOnePair() {
		SteadyWarmup warmup = SteadyWarmup.until(p -> pair(LATE, LATE), 1, 16, Duration.ZERO, nanos::get);

		assertThat(warmup.lags()).hasSize(2);
		assertThat(warmup.steady()).isFalse();
	}

	@Test
	@DisplayName("writes what it did, batch by batch")
	void writesItsReadings() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		SteadyWarmup.until(p -> p == 0 ? pair(LATE, CALM) : pair(CALM, CALM), 2, 16, Duration.ofMinutes(2), nanos::get).writeTo(node);

		assertThat(node.get("batches").asInt()).isEqualTo(4);
		assertThat(node.get("requests").asInt()).isEqualTo(64);
		assertThat(node.get("steady").asBoolean()).isTrue();
		assertThat(node.get("batch_client_lag_p99_us").toString()).isEqualTo("[2501.0,100.0,100.0,100.0]");
		assertThat(node.get("rule").asText()).startsWith("pairs of closed-loop batches");
	}

	@Test
	@DisplayName("warms at 8 streams where the levels reach them, never below the first level nor above the highest")
	void concurrency() {
		assertThat(SteadyWarmup.concurrency(List.of(1, 8, 64, 128))).as("the embedded default's levels").isEqualTo(8);
		assertThat(SteadyWarmup.concurrency(List.of(1, 4))).as("no level reaches 8").isEqualTo(4);
		assertThat(SteadyWarmup.concurrency(List.of(1))).isEqualTo(1);
		assertThat(SteadyWarmup.concurrency(List.of(64, 128))).as("the first level is above 8").isEqualTo(64);
	}
}
