package dev.fakbattery.bench.swebench;

/**
 * The files of a compare run folder, with fak's names.
 *
 * @since 0.1
 */
public final class RunDirFiles {

	/** The compare preflight: {@value}. */
	public static final String COMPARE_PREFLIGHT = "COMPARE-PREFLIGHT.json";

	/** The compare result: {@value}. */
	public static final String COMPARE = "compare.json";

	/** The human summary: {@value}. */
	public static final String COMPARE_MD = "COMPARE.md";

	/** The launcher's completion sentinel, holding the exit code: {@value}. */
	public static final String DONE_RC = "DONE.rc";

	/** Schema of {@value #COMPARE_PREFLIGHT}: {@value}. */
	public static final String PREFLIGHT_SCHEMA = "fak.dgx-swebench-compare-preflight.v1";

	/** Schema of {@value #COMPARE}: {@value}. */
	public static final String COMPARE_SCHEMA = "fak.dgx-swebench-compare.v1";

	private RunDirFiles() {
	}
}
