package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("gateway cost comparison: added latency, and no number from a lagging instrument")
class CostComparisonTests {

	private static final UpstreamLag.Reading QUIET_DOUBLE = new UpstreamLag.Reading(1_000, 50, 300, 900);

	private static final UpstreamLag.Reading LATE_DOUBLE = new UpstreamLag.Reading(1_000, 50, 1_700, 4_000);

	@Test
	@DisplayName("a valid comparison writes the added p50/p99 with intervals and target_met from the p99")
	void validComparison() {
		ObjectNode row = write(arms(0.3, 0.8, Synthetic.QUIET, QUIET_DOUBLE, false));

		assertThat(row.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(row.path("added_p50_ms").asDouble()).isEqualTo(0.5);
		assertThat(row.path("added_p99_ms").asDouble()).isEqualTo(0.5);
		assertThat(row.path("added_p99_ms_ci95")).hasSize(2);
		assertThat(row.path("target_met").asBoolean()).isTrue();
		assertThat(row.path("blocks")).hasSize(2);
		assertThat(row.path("gateway_cpu_ms_per_request").asDouble()).isEqualTo(0.5);
		assertThat(row.path("gateway_cpu_pending").isNull()).isTrue();
		assertThat(row.path("blocks").path(1).path("second_pair").path("gateway_cpu_ms").asDouble()).isEqualTo(50.0);
	}

	@Test
	@DisplayName("a CPU reading that went backwards leaves the CPU per request null, PENDING with the reason, never a number")
	void cpuWentBackwards() {
		CostRun.Arms arms = arms(0.3, 0.8, Synthetic.QUIET, QUIET_DOUBLE, false);
		arms.gatewayCpuS().set(2, -0.01);

		ObjectNode row = write(arms);

		assertThat(row.path("gateway_cpu_ms_per_request").isNull()).isTrue();
		assertThat(row.path("gateway_cpu_pending").asText())
				.isEqualTo("jdk: the CPU reading went backwards by 0.010 s over gateway batch 3 (a process of its tree ended?)");
	}

	@Test
	@DisplayName("an added p99 over 1 ms is recorded target_met false, never asserted")
	void overTarget() {
		ObjectNode row = write(arms(0.3, 2.3, Synthetic.QUIET, QUIET_DOUBLE, false));

		assertThat(row.path("added_p99_ms").asDouble()).isEqualTo(2.0);
		assertThat(row.path("target_met").asBoolean()).isFalse();
		assertThat(row.path("how_to_fix").isNull()).isTrue();
	}

	@Test
	@DisplayName("a lagging client makes it PENDING_MEASUREMENT, its readings kept apart as not a result")
	void clientLagged() {
		ObjectNode row = write(arms(0.3, 0.8, Synthetic.LATE, QUIET_DOUBLE, false));

		assertThat(row.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(row.path("pending").asText()).startsWith("the load client lagged: p99 2");
		assertThat(row.path("how_to_fix").asText()).isEqualTo(CostComparison.QUIETER);
		assertThat(row.has("added_p99_ms")).isFalse();
		assertThat(row.path("not_a_result").path("added_p99_ms").asDouble()).isEqualTo(0.5);
		assertThat(row.path("target_met").isNull()).isTrue();
	}

	@Test
	@DisplayName("a lagging engine double, or a failed request, makes it PENDING_MEASUREMENT naming why")
	void doubleLaggedOrFailed() {
		assertThat(write(arms(0.3, 0.8, Synthetic.QUIET, LATE_DOUBLE, false)).path("pending").asText())
				.isEqualTo("the engine double lagged: worst block p99 1700 us, limit 1000 us");
		assertThat(write(arms(0.3, 0.8, Synthetic.QUIET, QUIET_DOUBLE, true)).path("pending").asText()).isEqualTo("1 request(s) failed");
		assertThat(write(arms(0.3, 0.8, Synthetic.QUIET, LATE_DOUBLE, true)).path("how_to_fix").asText())
				.isEqualTo(CostComparison.QUIETER + "; " + CostComparison.FAILED);
	}

	private static ObjectNode write(CostRun.Arms arms) {
		ObjectNode row = Json.MAPPER.createObjectNode();
		new CostComparison("jdk", "reference gateway listening on http://127.0.0.1:1/v1 (server jdk)", arms).writeTo(row, 7);
		return row;
	}

	/** Two ABBA blocks (four pairs) of 100 requests per batch: raw at {@code rawMs}, gateway at {@code gatewayMs}. */
	private static CostRun.Arms arms(double rawMs, double gatewayMs, ClientLag lag, UpstreamLag.Reading doubleLag, boolean oneFails) {
		List<LoadResult> raw = new ArrayList<>();
		List<LoadResult> gateway = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			raw.add(Synthetic.result("raw", Synthetic.oks("raw", 100, rawMs), 0, 0.1, lag));
			List<RequestOutcome> outcomes = new ArrayList<>(Synthetic.oks("gateway", 100, gatewayMs));
			if (oneFails && i == 0) {
				outcomes.set(0, Synthetic.failed("gateway", 0, 502));
			}
			gateway.add(Synthetic.result("gateway", outcomes, 0, 0.1, lag));
		}
		return new CostRun.Arms(raw, gateway, List.of("ABBA", "BAAB"), List.of(doubleLag, doubleLag),
				new ArrayList<>(List.of(0.05, 0.05, 0.05, 0.05)));
	}
}
