package dev.fakbattery.api.gate;

import dev.fakbattery.api.ArtifactId;

/**
 * One required artifact as the gate found it.
 *
 * @param status PASS, FAIL or MISSING (the seed's artifact_status); a stale, pending, planned or SIMULATED
 *        artifact is not PASS
 * @param verdict the artifact's verdict; {@code MISSING} when there is no readable artifact, {@code STALE} when
 *        it belongs to another run
 * @param detail headline when passed, the pending, stale or failure reason otherwise
 * @param runId the run that wrote it; null when missing or written without one
 * @param target the measured engine ({@code target.engine}); null when the rung measured none
 * @since 0.1
 */
public record GateRow(ArtifactId artifact, String status, String verdict, String path, String detail, String runId,
		GateTarget target) {

	/** {@value}: the artifact belongs to another run than the one judged. */
	public static final String STALE = "STALE";

	public boolean passed() {
		return "PASS".equals(status);
	}

	/** SIMULATED, or measured on the engine double whatever else kept it from passing. */
	public boolean simulated() {
		return "SIMULATED".equals(verdict) || !stale() && target != null && target.engineDouble();
	}

	public boolean stale() {
		return STALE.equals(verdict);
	}

	GateRow relocated(String displayPath) {
		return new GateRow(artifact, status, verdict, displayPath, detail, runId, target);
	}
}
