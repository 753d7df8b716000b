package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.stats.BootstrapCi;
import dev.fakbattery.core.stats.ConfidenceInterval;

/**
 * fak's latency-tax regression gate ({@code vllm_tax_witness.py}), against a {@link TaxBaselineFile}, made so that the
 * tax cannot creep:
 * <ul>
 * <li>nothing measured (the interval undefined: an arm failed, or sent fewer than
 * {@value BootstrapCi#MIN_SAMPLES_PER_ARM} samples) → {@link TaxVerdict#NO_BENCH}, never a silent KEEP; the baseline
 * file is not consulted;</li>
 * <li>no baseline under the {@link TaxBaselineKey} (gateway, engine and version, model, workload, host class) →
 * {@link TaxVerdict#NO_BASELINE}: nothing compared, never a KEEP (fak kept here);
 * fak's {@code <model>::<engine>} entries are never matched, and the reason names them;</li>
 * <li>otherwise KEEP if the upper bound of the measured interval is at most {@code baseline * (1 + tolerance)}, else
 * {@link TaxVerdict#REVERT}: a point estimate inside the tolerance whose interval reaches past it is not a KEEP.</li>
 * </ul>
 * With {@code record}, a KEEP or NO_BASELINE reading is kept in the entry's readings; it becomes the baseline only
 * where there was none or where its point estimate is lower. KEEP never raises the baseline, so a series of readings
 * each within tolerance of the last still meets the first one's ceiling (fak overwrote the baseline on every KEEP, and
 * the tax could creep by the tolerance a run).
 *
 * <p>A baseline file that exists but cannot be read throws (fak treated it as "no baseline" and kept), and the
 * comparison uses unrounded values (fak compared the 4-dp value).
 *
 * <pre>
 * TaxGateResult gate = new TaxGate(Path.of(".vllm-tax-baseline.json"), 0.25).evaluate(key, stats.latencyTax(), true);
 * gate.writeTo(report.putObject("gate"));
 * </pre>
 *
 * @since 0.1
 */
public final class TaxGate {

	/** fak's baseline file name. */
	public static final String DEFAULT_BASELINE_FILE = ".vllm-tax-baseline.json";

	private final TaxBaselineFile baselines;

	private final double tolerance;

	/** A gate with {@code tax.tolerance}'s default. */
	public TaxGate(Path baselineFile) {
		this(baselineFile, ConfigKeys.TAX_TOLERANCE.defaultValue().orElseThrow());
	}

	/**
	 * @param tolerance the allowed regression, a fraction of the baseline ({@code 0.25} = 25 %)
	 * @throws IllegalArgumentException unless the tolerance is a finite number > 0
	 */
	public TaxGate(Path baselineFile, double tolerance) {
		if (!(tolerance > 0) || Double.isInfinite(tolerance)) {
			throw new IllegalArgumentException(HarnessConstants.TAX_TOLERANCE + " must be a finite number > 0, got " + tolerance
					+ "; pass -D" + HarnessConstants.TAX_TOLERANCE + "=0.25");
		}
		this.baselines = new TaxBaselineFile(baselineFile);
		this.tolerance = tolerance;
	}

	/**
	 * Judges a measured latency tax.
	 * @param key what the tax was measured on
	 * @param latencyTax gateway/raw median latency with its 95 % interval; undefined when nothing was measured
	 * @param record whether to keep a KEEP or NO_BASELINE reading in the file
	 * @throws IllegalArgumentException if a defined tax is not positive and finite
	 * @throws IllegalStateException if the baseline file exists and is invalid
	 */
	public TaxGateResult evaluate(TaxBaselineKey key, ConfidenceInterval latencyTax, boolean record) {
		double nan = Double.NaN;
		Path file = baselines.path();
		if (!latencyTax.isDefined() || Double.isNaN(latencyTax.estimate()) || Double.isNaN(latencyTax.hi())) {
			return new TaxGateResult(TaxVerdict.NO_BENCH, latencyTax, nan, nan, tolerancePct(), nan, false, file, key.id(),
					"no latency tax could be measured (an arm failed, or sent fewer than the "
							+ BootstrapCi.MIN_SAMPLES_PER_ARM + " samples an interval takes); witness this run by the arm errors "
							+ "or the pending sample count, not a keep-bit");
		}
		for (double value : new double[]{ latencyTax.estimate(), latencyTax.hi() }) {
			if (!(value > 0) || Double.isInfinite(value)) {
				throw new IllegalArgumentException("a latency tax is a positive finite ratio, got " + latencyTax);
			}
		}
		OptionalDouble baseline = baselines.latencyTax(key.id());
		if (baseline.isEmpty()) {
			return withoutBaseline(key, latencyTax, record);
		}
		double base = baseline.getAsDouble();
		double ceiling = base * (1.0 + tolerance);
		double regressionPct = (latencyTax.estimate() - base) / base * 100.0;
		TaxVerdict verdict = latencyTax.hi() <= ceiling ? TaxVerdict.KEEP : TaxVerdict.REVERT;
		boolean lowered = verdict == TaxVerdict.KEEP && latencyTax.estimate() < base;
		if (record && verdict == TaxVerdict.KEEP) {
			baselines.record(key, lowered ? latencyTax.estimate() : base, latencyTax, verdict);
		}
		String reason = String.format(Locale.ROOT,
				"latency_tax %.4f [%.4f, %.4f] vs baseline %.4f (%+.1f%%); upper bound %.4f %s ceiling %.4f (tolerance %s%%) -> %s",
				latencyTax.estimate(), latencyTax.lo(), latencyTax.hi(), base, regressionPct, latencyTax.hi(),
				verdict == TaxVerdict.KEEP ? "<=" : ">", ceiling, pct(), verdict)
				+ (record && verdict == TaxVerdict.KEEP
						? lowered ? "; recorded as the new, lower baseline" : "; kept as a reading, the baseline unchanged"
						: "");
		return new TaxGateResult(verdict, latencyTax, base, ceiling, tolerancePct(), regressionPct, record && lowered, file, key.id(),
				reason);
	}

	private TaxGateResult withoutBaseline(TaxBaselineKey key, ConfidenceInterval latencyTax, boolean record) {
		if (record) {
			baselines.record(key, latencyTax.estimate(), latencyTax, TaxVerdict.NO_BASELINE);
		}
		List<String> legacy = baselines.legacyKeys();
		String reason = String.format(Locale.ROOT, "no baseline for %s; measured latency_tax %.4f", key.id(), latencyTax.estimate())
				+ (record ? " and recorded it as the baseline" : " (record it to set the keep floor)")
				+ (legacy.isEmpty()
						? ""
						: "; the file's entries under fak's <model>::<engine> key " + legacy
								+ " are not used: they name no gateway, engine version, workload or host class");
		double nan = Double.NaN;
		return new TaxGateResult(TaxVerdict.NO_BASELINE, latencyTax, nan, nan, tolerancePct(), nan, record, baselines.path(),
				key.id(), reason);
	}

	/** The allowed regression, a fraction of the baseline. */
	public double tolerance() {
		return tolerance;
	}

	/** The allowed regression in percent. */
	public double tolerancePct() {
		return tolerance * 100.0;
	}

	private String pct() {
		return dev.fakbattery.core.ConfigKey.format(Math.round(tolerance * 100.0 * 1e6) / 1e6);
	}
}
