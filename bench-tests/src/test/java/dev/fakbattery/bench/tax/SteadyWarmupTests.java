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
	@DisplayName("a window whose last two batches hold exactly 1,000 samples reaches no further back")
	void windowOfExactlyEnough() {
		ClientLag half = lag(500, 0, 0);
		ClientLag lateHalf = lag(500, 10, 2_500);

		assertThat(SteadyWarmup.latest(List.of(lateHalf, half, half)).count()).isEqualTo(1_000);
		assertThat(SteadyWarmup.latest(List.of(lateHalf, half, half)).withinLimit()).as("the late batch before the window").isTrue();
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

	@Test
	@DisplayName("the cap and the seconds count from the clock's reading at the start, whatever that reading is")
	void clockNotAtZero() {
		nanos.set(1_000_000_000_000L);
		SteadyWarmup warmup = SteadyWarmup.until(p -> pair(CALM, LATE), 1, 16, Duration.ofSeconds(5), nanos::get);
		assertThat(warmup.lags()).as("pairs until 5 s have passed").hasSize(10);
		assertThat(warmup.seconds()).isEqualTo(5.0);
	}

	@Test
	@DisplayName("the progress detail names the batches, the window's p99 and samples, and the limit")
	void detail() {
		assertThat(SteadyWarmup.detail(List.of(LATE, CALM, CALM), 16))
				.isEqualTo("3 batches of 16, client lag p99 100 us over the last 2000 samples (limit 1000 us)");
	}

	@Test
	@DisplayName("writes each arm's failed warm-up requests with its first error, and the seconds it took")
	void writesFailures() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		SteadyWarmup.until(p -> pair(CALM, CALM), 2, 16, Duration.ofMinutes(2), nanos::get)
				.withFailures(List.of(Synthetic.failed("raw", 0, 500)),
						List.of(Synthetic.failed("gateway", 0, 502), Synthetic.failed("gateway", 1, 503)))
				.writeTo(node);
		assertThat(node.at("/failed/raw").asInt()).isOne();
		assertThat(node.at("/failed/gateway").asInt()).isEqualTo(2);
		assertThat(node.at("/failed/raw_first").asText()).isEqualTo("HTTP 500: boom");
		assertThat(node.at("/failed/gateway_first").asText()).isEqualTo("HTTP 502: boom");
		assertThat(node.get("seconds").asDouble()).isEqualTo(1.0);
	}

	@Test
	@DisplayName("says when its window holds fewer samples than steadiness needs, and not when it holds exactly enough")
	void toldWithItsWindow() {
		SteadyWarmup full = SteadyWarmup.until(p -> pair(CALM, CALM), 1, 16, Duration.ofMinutes(2), nanos::get);
		assertThat(full).hasToString("warm-up c=1: 2 batches of 16 in 1 s, steady (client lag p99 100 us over the last 2000 samples)");
		ClientLag few = lag(500, 0, 0);
		SteadyWarmup exactly = SteadyWarmup.until(p -> pair(few, few), 1, 16, Duration.ZERO, nanos::get);
		assertThat(exactly.toString()).endsWith("over the last 1000 samples)");
		ClientLag fewer = lag(100, 0, 0);
		SteadyWarmup tooFew = SteadyWarmup.until(p -> pair(fewer, fewer), 1, 16, Duration.ZERO, nanos::get);
		assertThat(tooFew.toString()).endsWith("over the last 200 samples, fewer than the 1000 it needs)");
	}
}
