package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("TaxStats")
class TaxStatsTests {

	private static final BootstrapCi BOOTSTRAP = BootstrapCi.seeded(8);

	/** Eight samples per arm, as fak's battery takes them. */
	private static final double[] RAW_S = { 0.4012, 0.3987, 0.4105, 0.4023, 0.3951, 0.4077, 0.4031, 0.3999 };

	private static final double[] GATEWAY_S = { 0.4519, 0.4488, 0.4602, 0.4533, 0.4477, 0.4590, 0.4541, 0.4506 };

	private static final double[] RAW_TPS = { 79.8, 80.3, 78.9, 80.0, 81.1, 79.5, 80.2, 80.6 };

	private static final double[] GATEWAY_TPS = { 74.1, 73.8, 74.6, 73.2, 74.9, 74.0, 73.5, 74.3 };

	private static final List<InterleavingRunner.Sample> RAW = samples("raw", RAW_S, RAW_TPS, 0);

	private static final List<InterleavingRunner.Sample> GATEWAY = samples("gateway", GATEWAY_S, GATEWAY_TPS, 1);

	/**
	 * One streamed request per latency, the {@code i}-th in schedule slot {@code 2 i + slot} (so the {@code i}-th of each
	 * arm share an ABBA pair), 16 tokens decoded at the given tok/s ({@code NaN}: no tokens, rate unknown).
	 */
	static List<InterleavingRunner.Sample> samples(String target, double[] latencyS, double[] tps, int slot) {
		List<InterleavingRunner.Sample> samples = new ArrayList<>();
		for (int i = 0; i < latencyS.length; i++) {
			double e2elMs = latencyS[i] * 1000;
			boolean known = i < tps.length && Double.isFinite(tps[i]);
			double ttftMs = known ? e2elMs - 16 / tps[i] * 1000 : e2elMs / 2;
			samples.add(new InterleavingRunner.Sample(2 * i + slot, Synthetic.ok(target, i, ttftMs, e2elMs, known ? 16 : 0)));
		}
		return samples;
	}

	@Test
	@DisplayName("latency_tax = median(gw)/median(raw) and decode_tps_tax = median(raw tps)/median(gw tps), unrounded")
	void taxesAreRatiosOfExactMedians() {
		TaxStats tax = TaxStats.compute(RAW, GATEWAY, BOOTSTRAP);

		assertThat(tax.rawMedianLatencyS()).isEqualTo((0.4012 + 0.4023) / 2);
		assertThat(tax.gatewayMedianLatencyS()).isEqualTo((0.4519 + 0.4533) / 2);
		assertThat(tax.latencyTax().estimate()).isEqualTo(((0.4519 + 0.4533) / 2) / ((0.4012 + 0.4023) / 2));
		assertThat(tax.decodeTpsTax().estimate()).isCloseTo(((80.0 + 80.2) / 2) / ((74.0 + 74.1) / 2), within(1e-9));
		assertThat(tax.latencyTax().estimate()).isNotEqualTo(JsonNumbers.round(tax.latencyTax().estimate(), 4));
	}

	@Test
	@DisplayName("each tax carries a bootstrap interval around it; a 12% slower gateway excludes 1.0")
	void taxesCarryIntervals() {
		TaxStats tax = TaxStats.compute(RAW, GATEWAY, BOOTSTRAP);

		assertThat(tax.latencyTax().lo()).isGreaterThan(1.0).isLessThanOrEqualTo(tax.latencyTax().estimate());
		assertThat(tax.latencyTax().hi()).isGreaterThanOrEqualTo(tax.latencyTax().estimate());
		assertThat(tax.decodeTpsTax().lo()).isGreaterThan(1.0);
		TaxStats again = TaxStats.compute(RAW, GATEWAY, BootstrapCi.seeded(8));
		assertThat(again.latencyTax()).isEqualTo(tax.latencyTax());
		assertThat(again.decodeTpsTax()).isEqualTo(tax.decodeTpsTax());
	}

	@Test
	@DisplayName("serialises fak's tax fields rounded as fak does, plus the intervals")
	void writesSeedFields() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		TaxStats tax = TaxStats.compute(RAW, GATEWAY, BOOTSTRAP);

		tax.writeTo(node);

		assertThat(node.get("latency_tax").asDouble()).isEqualTo(JsonNumbers.round(tax.latencyTax().estimate(), 4))
				.isEqualTo(1.1266);
		assertThat(node.get("decode_tps_tax").asDouble()).isEqualTo(1.0817);
		assertThat(node.get("raw_median_latency_s").asDouble()).isEqualTo(0.40175);
		assertThat(node.get("gateway_median_decode_tps").asDouble()).isEqualTo(74.05);
		assertThat(node.at("/latency_tax_ci/method").asText()).startsWith(BootstrapCi.PAIRED_BLOCKS);
		assertThat(node.at("/latency_tax_ci/blocks/blocks").asInt()).isEqualTo(8);
		assertThat(node.at("/latency_tax_ci/blocks/pairs_per_block").asInt()).isEqualTo(1);
		assertThat(node.at("/latency_tax_ci/blocks/capped").isBoolean()).isTrue();
		assertThat(node.at("/decode_tps_tax_ci/blocks/method").asText()).isEqualTo(PairedBlocks.METHOD);
		assertThat(node.at("/latency_tax_ci/numerator").asText()).isEqualTo("gateway");
		assertThat(node.at("/latency_tax_ci/lo").asDouble()).isEqualTo(JsonNumbers.round(tax.latencyTax().lo(), 4));
		assertThat(node.at("/decode_tps_tax_ci/denominator").asText()).isEqualTo("gateway");
		assertThat(node.at("/latency_tax_ci/resamples").asInt()).isEqualTo(BootstrapCi.DEFAULT_RESAMPLES);
	}

	@Test
	@DisplayName("a failed gateway arm leaves the tax unknown (null), and the gate calls it NO_BENCH")
	void failedLegIsNoBench(@TempDir Path dir) {
		TaxStats tax = TaxStats.compute(RAW, List.of(), BOOTSTRAP);
		ObjectNode node = Json.MAPPER.createObjectNode();
		tax.writeTo(node);

		TaxGateResult gate = new TaxGate(dir.resolve("baseline.json"))
				.evaluate(new TaxBaselineKey("g", "vllm", "1", "m", "w", "h"), tax.latencyTax(), true);

		assertThat(tax.latencyTax().reason()).hasValue("no numerator samples");
		assertThat(node.get("latency_tax").isNull()).isTrue();
		assertThat(node.get("gateway_median_latency_s").isNull()).isTrue();
		assertThat(node.at("/latency_tax_ci/reason").asText()).isEqualTo("no numerator samples");
		assertThat(gate.verdict()).isEqualTo(TaxVerdict.NO_BENCH);
	}

	@Test
	@DisplayName("unknown decode rates leave only decode_tps_tax unknown")
	void unknownDecodeRates() {
		TaxStats tax = TaxStats.compute(samples("raw", RAW_S, new double[0], 0), samples("gateway", GATEWAY_S, new double[0], 1),
				BOOTSTRAP);

		assertThat(tax.latencyTax().isDefined()).isTrue();
		assertThat(tax.decodeTpsTax().isDefined()).isFalse();
		assertThat(tax.rawMedianDecodeTps()).isNaN();
	}
}
