package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.JsonNumbers;

/**
 * The outcome of the {@link TaxGate}, with fak's {@code gate} fields and what it judged on. Values are unrounded;
 * {@link #writeTo(ObjectNode)} rounds as fak writes them. Unknown values are {@code NaN} here and {@code null} in JSON.
 *
 * @param verdict KEEP, REVERT, NO_BASELINE or NO_BENCH
 * @param measured gateway median latency / raw median latency with its 95 % interval; undefined for NO_BENCH
 * @param baselineLatencyTax the recorded baseline; {@code NaN} when there was none (or NO_BENCH)
 * @param ceilingLatencyTax {@code baseline * (1 + tolerance / 100)}; {@code NaN} without a baseline
 * @param tolerancePct allowed regression in percent ({@code tax.tolerance} x 100)
 * @param regressionPct {@code (measured - baseline) / baseline * 100} of the point estimate; {@code NaN} without a
 *        baseline
 * @param baselineRecorded whether the measured tax was written as the new baseline (none before, or lower than it)
 * @param baselineFile the baseline file consulted
 * @param baselineKey the {@link TaxBaselineKey#id()} looked up
 * @param reason one line saying why
 * @since 0.1
 */
public record TaxGateResult(TaxVerdict verdict, ConfidenceInterval measured, double baselineLatencyTax,
		double ceilingLatencyTax, double tolerancePct, double regressionPct, boolean baselineRecorded,
		Path baselineFile, String baselineKey, String reason) {

	public TaxGateResult {
		Objects.requireNonNull(verdict, "verdict");
		Objects.requireNonNull(measured, "measured");
		Objects.requireNonNull(baselineFile, "baselineFile");
		Objects.requireNonNull(baselineKey, "baselineKey");
		Objects.requireNonNull(reason, "reason");
	}

	/** Whether the gate passed: only KEEP is ok, as in fak. */
	public boolean ok() {
		return verdict == TaxVerdict.KEEP;
	}

	/** The point estimate of the measured latency tax; {@code NaN} for NO_BENCH. */
	public double measuredLatencyTax() {
		return verdict == TaxVerdict.NO_BENCH ? Double.NaN : measured.estimate();
	}

	/** What the ceiling is compared with: the upper bound of the measured interval; {@code NaN} for NO_BENCH. */
	public double judgedLatencyTax() {
		return verdict == TaxVerdict.NO_BENCH ? Double.NaN : measured.hi();
	}

	/**
	 * Writes fak's gate fields, every one always present: {@code verdict, ok, measured_latency_tax,
	 * baseline_latency_tax, ceiling_latency_tax} (4 dp), {@code tolerance_pct}, {@code regression_pct} (2 dp),
	 * {@code baseline_recorded, baseline_file, reason}; then {@code measured_latency_tax_ci95} and
	 * {@code judged_latency_tax} (its upper bound, what the ceiling is compared with) and {@code baseline_key}.
	 */
	public void writeTo(ObjectNode gate) {
		gate.put("verdict", verdict.name());
		gate.put("ok", ok());
		JsonNumbers.put(gate, "measured_latency_tax", measuredLatencyTax(), 4);
		JsonNumbers.put(gate, "baseline_latency_tax", baselineLatencyTax, 4);
		JsonNumbers.put(gate, "ceiling_latency_tax", ceilingLatencyTax, 4);
		JsonNumbers.put(gate, "tolerance_pct", tolerancePct);
		JsonNumbers.put(gate, "regression_pct", regressionPct, 2);
		gate.put("baseline_recorded", baselineRecorded);
		gate.put("baseline_file", baselineFile.toString());
		gate.put("reason", reason);
		boolean judged = verdict != TaxVerdict.NO_BENCH;
		JsonNumbers.putPair(gate, "measured_latency_tax_ci95", judged ? measured.lo() : Double.NaN, judgedLatencyTax(), 4);
		JsonNumbers.put(gate, "judged_latency_tax", judgedLatencyTax(), 4);
		gate.put("baseline_key", baselineKey);
	}
}
