package dev.fakbattery.api.stats;

/**
 * The verdict of the latency-tax regression gate, as the seed's {@code vllm_tax_witness.py} names
 * it. A baseline file that cannot be read is not a verdict: it throws (the seed's {@code ERROR},
 * exit 5), and is never read as "no baseline".
 *
 * @since 0.1
 */
public enum TaxVerdict {
	/** The tax is within tolerance of the baseline, or there was no baseline yet. */
	KEEP(0),
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
