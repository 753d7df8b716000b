package dev.fakbattery.bench.tax;

import static dev.fakbattery.bench.tax.Synthetic.ci;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestOutcome;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a concurrency level: its failures per arm, its ratios, and the level object it writes")
class SweepLevelTests {

	private static final UpstreamLag.Reading CALM = new UpstreamLag.Reading(500, 80, 400, 700);

	/** {@code ok} requests of 8 tokens each and {@code failed} HTTP {@code status} ones, over one second. */
	private static LoadResult batch(String target, int ok, int failed, int status, int notSent) {
		List<RequestOutcome> outcomes = new ArrayList<>(Synthetic.oks(target, ok, 100));
		for (int i = 0; i < failed; i++) {
			outcomes.add(Synthetic.failed(target, ok + i, status));
		}
		return Synthetic.result(target, outcomes, notSent, 1, Synthetic.QUIET);
	}

	private static SweepLevel level() {
		LoadResult a = batch("raw", 3, 1, 500, 1);
		LoadResult b = batch("gateway", 2, 2, 502, 2);
		return new SweepLevel(4, List.of(a), List.of(b), a, b, ci(0.75, 0.7, 0.8), ci(0.9, 0.85, 0.95), ci(1.1, 1.05, 1.15), 3,
				Optional.of(CALM), Optional.empty(), Optional.empty(),
				List.of(Synthetic.failed("raw", 90, 500), Synthetic.failed("gateway", 91, 503), Synthetic.failed("gateway", 92, 504)));
	}

	@Test
	@DisplayName("failed and unsent requests of both arms count; the warm-up's failures are split by arm, the gateway's first named")
	void failures() {
		SweepLevel level = level();
		assertThat(level.failed()).as("1 + 2 failed, 1 + 2 unsent").isEqualTo(6);
		assertThat(level.warmupFailuresByArm())
				.isEqualTo(new ArmFailures("c=4 warm-up", 1, 2, SweepLevel.warmupRequests(4), "HTTP 503: boom"));
		assertThat(level.throughputRatio()).as("16 tokens over 24 in the same second").isCloseTo(2.0 / 3, within(1e-9));
		assertThat(level).hasToString("c=4 ratio 0.7500 [0.7000, 0.8000]");
	}

	@Test
	@DisplayName("the level object carries both arms, every ratio with its interval, the batches, the warm-up by arm and the lags")
	void levelObject() {
		ObjectNode json = level().toJson("raw", "gateway");
		assertThat(json.path("concurrency").asInt()).isEqualTo(4);
		assertThat(json.path("raw").path("target").asText()).isEqualTo("raw");
		assertThat(json.path("gateway").path("target").asText()).isEqualTo("gateway");
		assertThat(json.path("ratio").asDouble()).isEqualTo(0.75);
		assertThat(json.path("ratio_ci95")).extracting(JsonNode::asDouble).containsExactly(0.7, 0.8);
		assertThat(json.path("ratio_ci").path("level").asDouble()).isEqualTo(0.95);
		assertThat(json.path("ratio_ci").path("blocks").isObject()).isTrue();
		assertThat(json.at("/batch_output_throughput/raw")).extracting(JsonNode::asDouble).containsExactly(24.0);
		assertThat(json.at("/batch_output_throughput/gateway")).extracting(JsonNode::asDouble).containsExactly(16.0);
		assertThat(json.at("/batch_client_lag_p99_us/raw")).hasSize(1);
		assertThat(json.at("/batch_client_lag_p99_us/gateway")).hasSize(1);
		assertThat(json.path("per_request_ratio").asDouble()).isEqualTo(0.9);
		assertThat(json.path("per_request_ratio_ci95")).extracting(JsonNode::asDouble).containsExactly(0.85, 0.95);
		assertThat(json.path("throughput_ratio").asDouble()).isEqualTo(0.6667);
		assertThat(json.path("latency_tax").asDouble()).isEqualTo(1.1);
		assertThat(json.path("latency_tax_ci95")).extracting(JsonNode::asDouble).containsExactly(1.05, 1.15);
		assertThat(json.path("warmup_requests").asInt()).isEqualTo(4);
		assertThat(json.path("warmup_failed").asInt()).isEqualTo(3);
		assertThat(json.at("/warmup_failed_by_arm/raw").asInt()).isOne();
		assertThat(json.at("/warmup_failed_by_arm/gateway").asInt()).isEqualTo(2);
		assertThat(json.at("/engine_double_lag/count").asInt()).isEqualTo(500);
		assertThat(json.path("client_lag").isEmpty()).isFalse();
	}

	@Test
	@DisplayName("before the first look: the median of the finished pairs' ratios, pairs without a throughput left out")
	void soFar() {
		LoadResult a = batch("raw", 4, 0, 500, 0);
		LoadResult half = batch("gateway", 2, 0, 500, 0);
		LoadResult same = batch("gateway", 4, 0, 500, 0);
		LoadResult nothing = batch("gateway", 0, 1, 502, 0);
		assertThat(SweepLevel.soFar(List.of(a), List.of(half)))
				.isEqualTo("ratio so far 0.5000 over 1 pair (no interval before the first look)");
		assertThat(SweepLevel.soFar(List.of(a, a, a), List.of(half, same, nothing)))
				.isEqualTo("ratio so far 0.7500 over 2 pairs (no interval before the first look)");
		assertThat(SweepLevel.soFar(List.of(a, a, a), List.of(same, half, same))).startsWith("ratio so far 1.0000 over 3 pairs");
		assertThat(SweepLevel.soFar(List.of(a), List.of(nothing))).isEqualTo("ratio ?");
	}
}
