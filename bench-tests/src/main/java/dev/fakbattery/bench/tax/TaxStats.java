package dev.fakbattery.bench.tax;

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
 * Both are at least 1 when the gateway is slower. Medians are Python's {@code statistics.median},
 * intervals are {@link BootstrapCi#ratioOfMedians(double[], double[])} (arms resampled
 * independently). Nothing is rounded in computation: fak rounded the medians (6 dp, 3 dp)
 * before dividing; here the ratio is of the exact medians and rounding happens only in
 * {@link #writeTo(ObjectNode)}. A failed arm (no samples), or one with fewer than
 * {@value BootstrapCi#MIN_SAMPLES_PER_ARM} samples (an interval of a median needs that many, see {@link BootstrapCi}),
 * makes its tax {@code NaN} with a reason, which {@link TaxGate} turns into NO_BENCH: never a one-point "interval".
 *
 * <pre>
 * TaxStats tax = TaxStats.compute(rawLatencyS, gatewayLatencyS, rawTps, gatewayTps, BootstrapCi.seeded(seed));
 * tax.writeTo(report.putObject("tax"));
 * </pre>
 *
 * @param latencyTax gateway / raw median latency, with its interval
 * @param decodeTpsTax raw / gateway median decode tok/s, with its interval
 * @param rawMedianLatencyS {@code NaN} when the raw arm has no samples
 * @param gatewayMedianLatencyS {@code NaN} when the gateway arm has no samples
 * @param rawMedianDecodeTps {@code NaN} when unknown
 * @param gatewayMedianDecodeTps {@code NaN} when unknown
 * @since 0.1
 */
public record TaxStats(ConfidenceInterval latencyTax, ConfidenceInterval decodeTpsTax, double rawMedianLatencyS,
		double gatewayMedianLatencyS, double rawMedianDecodeTps, double gatewayMedianDecodeTps) {

	static final String INTERPRETATION = "latency_tax/decode_tps_tax >= 1 means the gateway is slower than the raw "
			+ "engine; each is a ratio of medians with a percentile-bootstrap interval (arms resampled independently)";

	/**
	 * Computes both taxes from the per-sample values of the successful requests of each arm.
	 * @param rawLatencyS raw-engine request latencies in seconds
	 * @param gatewayLatencyS gateway request latencies in seconds
	 * @param rawDecodeTps raw-engine decode tok/s; may be empty when unknown
	 * @param gatewayDecodeTps gateway decode tok/s; may be empty when unknown
	 * @throws IllegalArgumentException if a sample is {@code NaN} or infinite
	 */
	public static TaxStats compute(double[] rawLatencyS, double[] gatewayLatencyS, double[] rawDecodeTps,
			double[] gatewayDecodeTps, BootstrapCi bootstrap) {
		return new TaxStats(bootstrap.ratioOfMedians(gatewayLatencyS, rawLatencyS),
				bootstrap.ratioOfMedians(rawDecodeTps, gatewayDecodeTps), Percentiles.median(rawLatencyS),
				Percentiles.median(gatewayLatencyS), Percentiles.median(rawDecodeTps),
				Percentiles.median(gatewayDecodeTps));
	}

	/**
	 * Writes fak's {@code tax} fields, rounded as fak writes them: {@code latency_tax},
	 * {@code decode_tps_tax} (4 dp), {@code raw/gateway_median_latency_s} (6 dp),
	 * {@code raw/gateway_median_decode_tps} (3 dp), {@code interpretation}; plus
	 * {@code latency_tax_ci} and {@code decode_tps_tax_ci} ({@link ConfidenceInterval#writeTo}, 4 dp,
	 * with which arm is the numerator). Unknown values are {@code null}.
	 */
	public void writeTo(ObjectNode tax) {
		JsonNumbers.put(tax, "latency_tax", latencyTax.estimate(), 4);
		JsonNumbers.put(tax, "decode_tps_tax", decodeTpsTax.estimate(), 4);
		JsonNumbers.put(tax, "raw_median_latency_s", rawMedianLatencyS, 6);
		JsonNumbers.put(tax, "gateway_median_latency_s", gatewayMedianLatencyS, 6);
		JsonNumbers.put(tax, "raw_median_decode_tps", rawMedianDecodeTps, 3);
		JsonNumbers.put(tax, "gateway_median_decode_tps", gatewayMedianDecodeTps, 3);
		tax.put("interpretation", INTERPRETATION);
		writeInterval(tax.putObject("latency_tax_ci"), latencyTax, "gateway", "raw");
		writeInterval(tax.putObject("decode_tps_tax_ci"), decodeTpsTax, "raw", "gateway");
	}

	private static void writeInterval(ObjectNode node, ConfidenceInterval interval, String numerator,
			String denominator) {
		node.put("numerator", numerator);
		node.put("denominator", denominator);
		interval.writeTo(node, 4);
	}
}
