package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalDouble;

import dev.fakbattery.core.stats.BootstrapCi;

/**
 * fak's latency-tax regression gate ({@code vllm_tax_witness.py}), against a
 * {@link TaxBaselineFile}:
 * <ul>
 * <li>nothing measured ({@code NaN}: an arm failed, or sent fewer than
 * {@value BootstrapCi#MIN_SAMPLES_PER_ARM} samples, so its interval is undefined) → {@link TaxVerdict#NO_BENCH},
 * never a silent KEEP; the baseline file is not consulted;</li>
 * <li>no baseline for {@code <model>::<engine|no-cache>} → {@link TaxVerdict#NO_BASELINE}: nothing compared,
 * never a KEEP (fak kept here);</li>
 * <li>otherwise KEEP if {@code measured <= baseline * (1 + tolerance / 100)}, else
 * {@link TaxVerdict#REVERT}.</li>
 * </ul>
 * With {@code record}, the measured tax becomes the baseline, only on KEEP or NO_BASELINE.
 *
 * <p>Two departures from fak, both toward failing closed: a baseline file that exists but
 * cannot be read throws (fak treated it as "no baseline" and kept), and the comparison uses
 * the unrounded tax (fak compared the 4-dp value).
 *
 * <pre>
 * TaxGateResult gate = new TaxGate(Path.of(".vllm-tax-baseline.json"))
 *     .evaluate("glm-5.2", "vllm", stats.latencyTax().estimate(), true);
 * gate.writeTo(report.putObject("gate"));
 * </pre>
 *
 * @since 0.1
 */
public final class TaxGate {

	/** Allowed regression in percent unless told otherwise: run-to-run variance of the tax. */
	public static final double DEFAULT_TOLERANCE_PCT = 25.0;

	/** fak's baseline file name. */
	public static final String DEFAULT_BASELINE_FILE = ".vllm-tax-baseline.json";

	private final TaxBaselineFile baselines;

	private final double tolerancePct;

	/** A gate with the default tolerance of {@value #DEFAULT_TOLERANCE_PCT}%. */
	public TaxGate(Path baselineFile) {
		this(baselineFile, DEFAULT_TOLERANCE_PCT);
	}

	public TaxGate(Path baselineFile, double tolerancePct) {
		if (!(tolerancePct >= 0) || Double.isInfinite(tolerancePct)) {
			throw new IllegalArgumentException("tolerancePct must be a finite number >= 0, got " + tolerancePct);
		}
		this.baselines = new TaxBaselineFile(baselineFile);
		this.tolerancePct = tolerancePct;
	}

	/** fak's baseline key: {@code <model>::<engine>}, or {@code <model>::no-cache} without one. */
	public static String key(String model, String engine) {
		return model + "::" + (engine == null || engine.isBlank() ? "no-cache" : engine);
	}

	/**
	 * Judges a measured latency tax.
	 * @param engine the engine-cache engine ({@code vllm}, {@code sglang}); blank or null for none
	 * @param measuredLatencyTax gateway/raw median latency; {@code NaN} when nothing was measured
	 * @param record whether to record the tax as the baseline on KEEP
	 * @throws IllegalArgumentException if the tax is infinite or not positive
	 * @throws IllegalStateException if the baseline file exists and is invalid
	 */
	public TaxGateResult evaluate(String model, String engine, double measuredLatencyTax, boolean record) {
		double nan = Double.NaN;
		Path file = baselines.path();
		if (Double.isNaN(measuredLatencyTax)) {
			return new TaxGateResult(TaxVerdict.NO_BENCH, nan, nan, nan, tolerancePct, nan, false, file,
					"no latency tax could be measured (an arm failed, or sent fewer than the "
							+ BootstrapCi.MIN_SAMPLES_PER_ARM + " samples an interval takes); witness this run by the arm errors "
							+ "or the pending sample count, not a keep-bit");
		}
		if (!(measuredLatencyTax > 0) || Double.isInfinite(measuredLatencyTax)) {
			throw new IllegalArgumentException("a latency tax is a positive finite ratio, got " + measuredLatencyTax);
		}
		String key = key(model, engine);
		OptionalDouble baseline = baselines.latencyTax(key);
		if (baseline.isEmpty()) {
			return withoutBaseline(key, model, measuredLatencyTax, record);
		}
		double base = baseline.getAsDouble();
		double ceiling = base * (1.0 + tolerancePct / 100.0);
		double regressionPct = (measuredLatencyTax - base) / base * 100.0;
		TaxVerdict verdict = measuredLatencyTax <= ceiling ? TaxVerdict.KEEP : TaxVerdict.REVERT;
		boolean recorded = record && verdict == TaxVerdict.KEEP;
		if (recorded) {
			baselines.record(key, measuredLatencyTax, model);
		}
		String reason = String.format(Locale.ROOT, "latency_tax %.4f vs baseline %.4f (%+.1f%%, tolerance %.0f%%) -> %s",
				measuredLatencyTax, base, regressionPct, tolerancePct, verdict);
		return new TaxGateResult(verdict, measuredLatencyTax, base, ceiling, tolerancePct, regressionPct, recorded,
				file, reason);
	}

	private TaxGateResult withoutBaseline(String key, String model, double measured, boolean record) {
		if (record) {
			baselines.record(key, measured, model);
		}
		String reason = String.format(Locale.ROOT, "no baseline for %s; measured latency_tax %.4f", key, measured)
				+ (record ? " and recorded it as the baseline" : " (record it to set the keep floor)");
		double nan = Double.NaN;
		return new TaxGateResult(TaxVerdict.NO_BASELINE, measured, nan, nan, tolerancePct, nan, record, baselines.path(),
				reason);
	}

	public double tolerancePct() {
		return tolerancePct;
	}
}
