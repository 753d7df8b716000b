package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestOutcome;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the gateway cost bench's CPU ratio to cmd: per request, batch pair by batch pair, PENDING on a broken reading")
class CpuRatioTests {

	private static final UpstreamLag.Reading QUIET_DOUBLE = new UpstreamLag.Reading(1_000, 50, 300, 900);

	@Test
	@DisplayName("the ratio is the median of the pairs' CPU-per-request ratios, whatever each batch's request count")
	void pairedRatios() {
		// cmd: 0.1 ms per request, in batches of 50; jdk: 0.30 to 0.45 ms per request, in batches of 200
		List<Double> jdkCpu = new ArrayList<>();
		List<Double> cmdCpu = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			jdkCpu.add(200 * (0.30 + 0.01 * i) / 1e3);
			cmdCpu.add(50 * 0.1 / 1e3);
		}

		ConfidenceInterval ratio = CpuRatio.ratio("jdk", arms(200, jdkCpu, false), "cmd", arms(50, cmdCpu, false), 7);

		assertThat(ratio.isDefined()).isTrue();
		assertThat(ratio.statistic()).isEqualTo(CpuRatio.STATISTIC);
		// the pairs' ratios are 3.0, 3.1, ..., 4.5: their median is (3.7 + 3.8) / 2
		assertThat(ratio.estimate()).isCloseTo(3.75, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(ratio.lo()).isBetween(3.0, 3.75);
		assertThat(ratio.hi()).isBetween(3.75, 4.5);
		assertThat(ratio.width()).isLessThan(1.5);
		assertThat(CpuRatio.words(ratio)).startsWith("3.75x cmd's [");
	}

	@Test
	@DisplayName("equal readings give the ratio itself, written with its interval and a SIMULATED verdict")
	void written() {
		ObjectNode row = Json.MAPPER.createObjectNode();

		CpuRatio.writeTo(row, CpuRatio.ratio("jdk", arms(100, repeat(0.030, 8), false), "cmd", arms(100, repeat(0.008, 8), false), 7));

		assertThat(row.path("cpu_ratio_to_cmd").asDouble()).isEqualTo(3.75);
		assertThat(row.path("cpu_ratio_to_cmd_ci95").path(0).asDouble()).isEqualTo(3.75);
		assertThat(row.path("cpu_ratio_to_cmd_ci95").path(1).asDouble()).isEqualTo(3.75);
		assertThat(row.path("cpu_ratio_to_cmd_verdict").asText()).isEqualTo("SIMULATED");
		assertThat(row.path("cpu_ratio_to_cmd_pending").isNull()).isTrue();
		assertThat(row.path("cpu_ratio_to_cmd_interval").path("statistic").asText()).isEqualTo(CpuRatio.STATISTIC);
	}

	@Test
	@DisplayName("a missing reading of cmd makes the ratio PENDING_MEASUREMENT naming the server and the batch, never a number")
	void missingReading() {
		List<Double> cmdCpu = repeat(0.008, 8);
		cmdCpu.set(4, Double.NaN);
		ObjectNode row = Json.MAPPER.createObjectNode();

		ConfidenceInterval ratio = CpuRatio.ratio("jdk", arms(100, repeat(0.030, 8), false), "cmd", arms(100, cmdCpu, false), 7);
		CpuRatio.writeTo(row, ratio);

		assertThat(ratio.isDefined()).isFalse();
		assertThat(row.path("cpu_ratio_to_cmd").isNull()).isTrue();
		assertThat(row.path("cpu_ratio_to_cmd_ci95").isNull()).isTrue();
		assertThat(row.path("cpu_ratio_to_cmd_verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(row.path("cpu_ratio_to_cmd_pending").asText())
				.isEqualTo("cmd: no CPU reading for gateway batch 5 (its process gone or /proc unreadable)");
		assertThat(CpuRatio.words(ratio)).startsWith("PENDING_MEASUREMENT (cmd: no CPU reading");
	}

	@Test
	@DisplayName("a reading of the gateway that went backwards makes the ratio PENDING_MEASUREMENT, never a number")
	void backwards() {
		List<Double> jdkCpu = repeat(0.030, 8);
		jdkCpu.set(0, -0.02);

		ConfidenceInterval ratio = CpuRatio.ratio("jdk", arms(100, jdkCpu, false), "cmd", arms(100, repeat(0.008, 8), false), 7);

		assertThat(ratio.isDefined()).isFalse();
		assertThat(ratio.estimate()).isNaN();
		assertThat(ratio.reason()).contains(
				"jdk: the CPU reading went backwards by 0.020 s over gateway batch 1 (a process of its tree ended?)");
	}

	@Test
	@DisplayName("no CPU tick in a batch, too few pairs, unequal batch counts, readings missing or failed requests: PENDING, each naming why")
	void otherBrokenInputs() {
		List<Double> zero = repeat(0.008, 8);
		zero.set(2, 0.0);
		assertThat(CpuRatio.ratio("jdk", arms(100, repeat(0.030, 8), false), "cmd", arms(100, zero, false), 7).reason())
				.contains("jdk/cmd: a ratio needs positive samples; denominator sample 2 is 0.0");
		assertThat(CpuRatio.ratio("jdk", arms(100, repeat(0.030, 4), false), "cmd", arms(100, repeat(0.008, 4), false), 7)
				.reason()
				.orElseThrow()).startsWith("jdk/cmd: 4 samples, fewer than the 6");
		assertThat(CpuRatio.ratio("jdk", arms(100, repeat(0.030, 8), false), "cmd", arms(100, repeat(0.008, 6), false), 7).reason())
				.contains("jdk has 8 gateway batches, cmd 6: no pairs");
		CostRun.Arms short1 = arms(100, repeat(0.030, 8), false);
		short1.gatewayCpuS().removeLast();
		assertThat(CpuRatio.ratio("jdk", short1, "cmd", arms(100, repeat(0.008, 8), false), 7).reason())
				.contains("jdk: 7 CPU readings for 8 gateway batches");
		assertThat(CpuRatio.ratio("jdk", arms(100, repeat(0.030, 8), false), "cmd", arms(100, repeat(0.008, 8), true), 7).reason())
				.contains("cmd: 1 request(s) failed in gateway batch 1, so its CPU is not that of served requests");
	}

	private static List<Double> repeat(double seconds, int count) {
		return new ArrayList<>(java.util.Collections.nCopies(count, seconds));
	}

	/** One gateway batch of {@code perBatch} requests per CPU reading (and a raw one beside each), blocks of two pairs. */
	private static CostRun.Arms arms(int perBatch, List<Double> cpuS, boolean firstFails) {
		List<LoadResult> raw = new ArrayList<>();
		List<LoadResult> gateway = new ArrayList<>();
		List<String> blocks = new ArrayList<>();
		List<UpstreamLag.Reading> lag = new ArrayList<>();
		for (int i = 0; i < cpuS.size(); i++) {
			raw.add(Synthetic.result("raw", Synthetic.oks("raw", perBatch, 0.3), 0, 0.1, Synthetic.QUIET));
			List<RequestOutcome> outcomes = new ArrayList<>(Synthetic.oks("gateway", perBatch, 0.8));
			if (firstFails && i == 0) {
				outcomes.set(0, Synthetic.failed("gateway", 0, 502));
			}
			gateway.add(Synthetic.result("gateway", outcomes, 0, 0.1, Synthetic.QUIET));
			if (i % 2 == 0) {
				blocks.add("ABBA");
				lag.add(QUIET_DOUBLE);
			}
		}
		return new CostRun.Arms(raw, gateway, blocks, lag, new ArrayList<>(cpuS));
	}
}
