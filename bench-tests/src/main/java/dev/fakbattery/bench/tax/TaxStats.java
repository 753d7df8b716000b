package dev.fakbattery.bench.tax;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.stats.Percentiles;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The gateway tax over a raw engine, as fak's tax witness defines it, with bootstrap
 * confidence intervals fak did not have:
 * <ul>
 * <li>{@code latency_tax = median(gateway latency) / median(raw latency)};</li>
 * <li>{@code decode_tps_tax = median(raw decode tok/s) / median(gateway decode tok/s)}.</li>
 * </ul>
 * Both are at least 1 when the gateway is slower. Beside them the same two taxes as medians of paired ratios
 * ({@code latency_tax_paired}: the median over ABBA pairs of gateway latency / raw latency of the pair's two
 * conversations; {@code decode_tps_tax_paired} likewise), which the witness judges its A/A floor, its framing and its
 * stopping on: an engine whose speed wanders over the run moves both conversations of a pair together, so each ratio
 * cancels it, where a pooled median lands between the levels (a CPU llama.cpp container's A/A at 6144 per arm: ratio
 * of medians 1.0077 [0.9991, 1.0166], its median of paired ratios, recomputed from the same samples, 1.0014
 * [0.9991, 1.0031]). Medians are Python's {@code statistics.median},
 * intervals are {@link BootstrapCi#ratioOfMediansOverBlocks} over {@link PairedBlocks}: blocks of consecutive ABBA pairs,
 * both arms of a block drawn together, the block length from the data, so latencies that drift or wander together over
 * a run do not narrow the interval (resampling single samples of each arm independently did: on a series correlated
 * as AR(1) 0.9, a 95 % interval covered about 55 %, the paired blocks 94 %: {@code PairedBlocksTests}). Nothing is rounded in computation: fak rounded the medians (6 dp, 3 dp)
 * before dividing; here the ratio is of the exact medians and rounding happens only in
 * {@link #writeTo(ObjectNode)}. A failed arm (no samples), or one with fewer than
 * {@value BootstrapCi#MIN_SAMPLES_PER_ARM} samples (an interval of a median needs that many, see {@link BootstrapCi}),
 * makes its tax {@code NaN} with a reason, which {@link TaxGate} turns into NO_BENCH: never a one-point "interval".
 *
 * <pre>
 * TaxStats tax = TaxStats.compute(rawArm.samples(), gatewayArm.samples(), BootstrapCi.seeded(seed));
 * tax.writeTo(report.putObject("tax"));
 * </pre>
 *
 * @param latencyTax gateway / raw median latency, with its interval
 * @param decodeTpsTax raw / gateway median decode tok/s, with its interval
 * @param latencyTaxPaired the median over pairs of gateway / raw latency, with its interval
 * @param decodeTpsTaxPaired the median over pairs of raw / gateway decode tok/s, with its interval
 * @param rawMedianLatencyS {@code NaN} when the raw arm has no samples
 * @param gatewayMedianLatencyS {@code NaN} when the gateway arm has no samples
 * @param rawMedianDecodeTps {@code NaN} when unknown
 * @param gatewayMedianDecodeTps {@code NaN} when unknown
 * @param latencyBlocks the blocks latency_tax's interval was drawn over
 * @param decodeBlocks the blocks decode_tps_tax's interval was drawn over
 * @since 0.1
 */
public record TaxStats(ConfidenceInterval latencyTax, ConfidenceInterval decodeTpsTax, ConfidenceInterval latencyTaxPaired,
		ConfidenceInterval decodeTpsTaxPaired, double rawMedianLatencyS,
		double gatewayMedianLatencyS, double rawMedianDecodeTps, double gatewayMedianDecodeTps, PairedBlocks latencyBlocks,
		PairedBlocks decodeBlocks) {

	static final String INTERPRETATION = "latency_tax/decode_tps_tax >= 1 means the gateway is slower than the raw "
			+ "engine; each is a ratio of medians with a percentile-bootstrap interval over paired blocks of consecutive "
			+ "ABBA pairs (both arms of a block drawn together, the block length from the data)";

	static final String PAIRED_INTERPRETATION = "latency_tax_paired/decode_tps_tax_paired: the median over ABBA pairs of "
			+ "the ratio of the pair's two conversations (one of each arm, sent one after the other), with a bootstrap interval "
			+ "over the same blocks of pairs; a speed the engine wanders to over the run cancels inside each pair. The A/A "
			+ "floor, the honest framing and the sequential stopping are judged on these; the regression gate on fak's "
			+ "latency_tax";

	/**
	 * Computes both taxes from the successful requests of each arm, in schedule order.
	 * @param raw the raw engine's samples
	 * @param gateway the gateway's samples, interleaved with {@code raw}
	 */
	public static TaxStats compute(List<InterleavingRunner.Sample> raw, List<InterleavingRunner.Sample> gateway,
			BootstrapCi bootstrap) {
		PairedBlocks latency = PairedBlocks.of(raw, gateway, PairedBlocks.LATENCY_S, bootstrap.minSamples());
		PairedBlocks decode = PairedBlocks.of(raw, gateway, PairedBlocks.DECODE_TPS, bootstrap.minSamples());
		ArmReport rawArm = new ArmReport("raw", raw);
		ArmReport gatewayArm = new ArmReport("gateway", gateway);
		return new TaxStats(latency.bOverA(bootstrap), decode.aOverB(bootstrap), latency.pairedBOverA(bootstrap),
				decode.pairedAOverB(bootstrap), Percentiles.median(rawArm.latencyS()),
				Percentiles.median(gatewayArm.latencyS()), Percentiles.median(rawArm.decodeTps()),
				Percentiles.median(gatewayArm.decodeTps()), latency, decode);
	}

	/**
	 * Writes fak's {@code tax} fields, rounded as fak writes them: {@code latency_tax},
	 * {@code decode_tps_tax} (4 dp), {@code raw/gateway_median_latency_s} (6 dp),
	 * {@code raw/gateway_median_decode_tps} (3 dp), {@code interpretation}; plus
	 * {@code latency_tax_ci} and {@code decode_tps_tax_ci} ({@link ConfidenceInterval#writeTo}, 4 dp,
	 * with which arm is the numerator); then {@code latency_tax_paired}, {@code decode_tps_tax_paired} with their
	 * {@code _ci95} and {@code _ci} and {@code paired_interpretation}. Unknown values are {@code null}.
	 */
	public void writeTo(ObjectNode tax) {
		JsonNumbers.put(tax, "latency_tax", latencyTax.estimate(), 4);
		JsonNumbers.put(tax, "decode_tps_tax", decodeTpsTax.estimate(), 4);
		JsonNumbers.put(tax, "raw_median_latency_s", rawMedianLatencyS, 6);
		JsonNumbers.put(tax, "gateway_median_latency_s", gatewayMedianLatencyS, 6);
		JsonNumbers.put(tax, "raw_median_decode_tps", rawMedianDecodeTps, 3);
		JsonNumbers.put(tax, "gateway_median_decode_tps", gatewayMedianDecodeTps, 3);
		tax.put("interpretation", INTERPRETATION);
		ObjectNode latencyCi = tax.putObject("latency_tax_ci");
		writeInterval(latencyCi, latencyTax, "gateway", "raw");
		latencyBlocks.writeTo(latencyCi.putObject("blocks"));
		ObjectNode decodeCi = tax.putObject("decode_tps_tax_ci");
		writeInterval(decodeCi, decodeTpsTax, "raw", "gateway");
		decodeBlocks.writeTo(decodeCi.putObject("blocks"));
		JsonNumbers.put(tax, "latency_tax_paired", latencyTaxPaired.estimate(), 4);
		JsonNumbers.putPair(tax, "latency_tax_paired_ci95", latencyTaxPaired.lo(), latencyTaxPaired.hi(), 4);
		writeInterval(tax.putObject("latency_tax_paired_ci"), latencyTaxPaired, "gateway", "raw");
		JsonNumbers.put(tax, "decode_tps_tax_paired", decodeTpsTaxPaired.estimate(), 4);
		JsonNumbers.putPair(tax, "decode_tps_tax_paired_ci95", decodeTpsTaxPaired.lo(), decodeTpsTaxPaired.hi(), 4);
		writeInterval(tax.putObject("decode_tps_tax_paired_ci"), decodeTpsTaxPaired, "raw", "gateway");
		tax.put("paired_interpretation", PAIRED_INTERPRETATION);
	}

	private static void writeInterval(ObjectNode node, ConfidenceInterval interval, String numerator,
			String denominator) {
		node.put("numerator", numerator);
		node.put("denominator", denominator);
		interval.writeTo(node, 4);
	}
}
