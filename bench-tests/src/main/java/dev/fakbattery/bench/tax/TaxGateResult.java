package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.JsonNumbers;

/**
 * The outcome of the {@link TaxGate}, with fak's {@code gate} fields. Values are unrounded;
 * {@link #writeTo(ObjectNode)} rounds as fak writes them. Unknown values are {@code NaN} here
 * and {@code null} in JSON.
 *
 * @param verdict KEEP, REVERT or NO_BENCH
 * @param measuredLatencyTax gateway median latency / raw median latency; {@code NaN} for NO_BENCH
 * @param baselineLatencyTax the recorded baseline; {@code NaN} when there was none (or NO_BENCH)
 * @param ceilingLatencyTax {@code baseline * (1 + tolerance / 100)}; {@code NaN} without a baseline
 * @param tolerancePct allowed regression in percent
 * @param regressionPct {@code (measured - baseline) / baseline * 100}; {@code NaN} without a baseline
 * @param baselineRecorded whether the measured tax was written as the new baseline
 * @param baselineFile the baseline file consulted
 * @param reason one line saying why
 * @since 0.1
 */
public record TaxGateResult(TaxVerdict verdict, double measuredLatencyTax, double baselineLatencyTax,
		double ceilingLatencyTax, double tolerancePct, double regressionPct, boolean baselineRecorded,
		Path baselineFile, String reason) {

	public TaxGateResult {
		Objects.requireNonNull(verdict, "verdict");
		Objects.requireNonNull(baselineFile, "baselineFile");
		Objects.requireNonNull(reason, "reason");
	}

	/** Whether the gate passed: only KEEP is ok, as in fak. */
	public boolean ok() {
		return verdict == TaxVerdict.KEEP;
	}

	/**
	 * Writes fak's gate fields, every one always present: {@code verdict, ok,
	 * measured_latency_tax, baseline_latency_tax, ceiling_latency_tax} (4 dp), {@code tolerance_pct},
	 * {@code regression_pct} (2 dp), {@code baseline_recorded, baseline_file, reason}.
	 */
	public void writeTo(ObjectNode gate) {
		gate.put("verdict", verdict.name());
		gate.put("ok", ok());
		JsonNumbers.put(gate, "measured_latency_tax", measuredLatencyTax, 4);
		JsonNumbers.put(gate, "baseline_latency_tax", baselineLatencyTax, 4);
		JsonNumbers.put(gate, "ceiling_latency_tax", ceilingLatencyTax, 4);
		JsonNumbers.put(gate, "tolerance_pct", tolerancePct);
		JsonNumbers.put(gate, "regression_pct", regressionPct, 2);
		gate.put("baseline_recorded", baselineRecorded);
		gate.put("baseline_file", baselineFile.toString());
		gate.put("reason", reason);
	}
}
