package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * The Allure labels that put a test in the battery report, and the names the report reads: the battery report holds
 * only tests labelled with epic {@link #BATTERY} (the rungs and the final gate) or {@link #WIRE} (the wire rules
 * against the gateway under test); every other test is a self-test of the harness and goes to its own report.
 *
 * <p>Behaviors then reads {@code Battery -> rung 3 tax -> tax witness} (the rung's acceptance checks are the
 * steps of its page) and {@code Wire conformance -> W03 deny dropped -> vllm stream}.
 *
 * @since 0.3
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class ReportLabels {

	/** Epic of every rung test and of the final gate: {@value}. */
	public static final String BATTERY = "Battery";

	/** Epic of every wire rule run against the gateway under test: {@value}. */
	public static final String WIRE = "Wire conformance";

	/** Feature (under {@link #BATTERY}) of the final gate's result: {@value}. */
	public static final String GATE = "final gate";

	/** Label that carries a rung's verdict: {@value}. */
	public static final String VERDICT = "verdict";

	private ReportLabels() {
	}

	/** The feature of a rung: {@code rung 3 tax} for numbered rungs, else the rung's label ({@code wire}). */
	public static String feature(ArtifactId artifact) {
		String rung = artifact.rung();
		return Character.isDigit(rung.charAt(0)) ? "rung " + rung : rung;
	}
}
