package dev.fakbattery.bench.tax;

/**
 * The verdict of the latency-tax regression gate, as fak's {@code vllm_tax_witness.py} names
 * it. A baseline file that cannot be read is not a verdict: it throws (fak's {@code ERROR},
 * exit 5), and is never read as "no baseline".
 *
 * @since 0.1
 */
public enum TaxVerdict {
	/** The tax is within tolerance of the baseline. */
	KEEP(0),
	/**
	 * There is no baseline to compare with (fak said KEEP here): nothing was judged, so the gate is pending,
	 * never a pass; fak's tool's exit code 0 is kept for compatibility.
	 */
	NO_BASELINE(0),
	/** The tax regressed past the tolerance. */
	REVERT(3),
	/** Nothing was measured, so nothing was judged; never a silent KEEP. */
	NO_BENCH(4);

	private final int exitCode;

	TaxVerdict(int exitCode) {
		this.exitCode = exitCode;
	}

	/** The seed tool's exit code for this verdict (0, 3, 4). */
	public int exitCode() {
		return exitCode;
	}
}
