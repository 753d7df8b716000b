package dev.fakbattery.api.gate;

import dev.fakbattery.api.ArtifactId;

/**
 * One required artifact as the gate found it.
 *
 * @param status PASS, FAIL or MISSING (the seed's artifact_status)
 * @param verdict the artifact's verdict, or {@code MISSING} when there is no readable artifact
 * @param detail headline when passed, the pending or failure reason otherwise
 * @since 0.1
 */
public record GateRow(ArtifactId artifact, String status, String verdict, String path, String detail) {

	public boolean passed() {
		return "PASS".equals(status);
	}

	public boolean simulated() {
		return "SIMULATED".equals(verdict);
	}
}
