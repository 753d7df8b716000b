package dev.fakbattery.report.gate;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;

/**
 * One required artifact as the gate found it.
 *
 * @param status PASS, FAIL or MISSING (fak's artifact_status); a stale, pending, planned or SIMULATED
 *        artifact is not PASS, nor is a PASS the gate did not count; an artifact whose verdict does not follow from
 *        its checks is FAIL
 * @param verdict the verdict as the gate judged it: the artifact's own when it follows from its checks, else the
 *        one its checks give; SIMULATED or PENDING_MEASUREMENT for a PASS not counted; {@code MISSING} when there is
 *        no readable artifact, {@code STALE} when it belongs to another run
 * @param detail headline when passed; otherwise the pending, stale or failure reason, or why a PASS was not counted
 *        ({@code PASS not counted: run profile battery is not strict (-Pgpu, -Pllamacpp)})
 * @param runId the run that wrote it; null when missing or written without one
 * @param target the measured engine ({@code target.engine}); null when the rung measured none
 * @param preProduced the artifact's {@code pre_produced} block ({@link dev.fakbattery.core.PreProduced}): what it
 *        judged that this run did not produce, with its provenance; null when the rung measured everything itself
 * @since 0.1
 */
public record GateRow(ArtifactId artifact, String status, String verdict, String path, String detail, String runId,
		GateTarget target, JsonNode preProduced) {

	/** {@value}: the artifact belongs to another run than the one judged. */
	public static final String STALE = "STALE";

	/** A row of an artifact that judged nothing pre-produced. */
	public GateRow(ArtifactId artifact, String status, String verdict, String path, String detail, String runId, GateTarget target) {
		this(artifact, status, verdict, path, detail, runId, target, null);
	}

	/** Whether the artifact judged inputs this run did not produce (floor artifacts, a SWE-bench run folder). */
	public boolean isPreProduced() {
		return preProduced != null && preProduced.isObject();
	}

	/**
	 * The pre-produced inputs and their provenance in one line: {@code DIR: FILE (producer P, version V, generated_at
	 * T, binary_sha256 H); ...}; empty when there are none.
	 */
	public String preProducedLine() {
		if (!isPreProduced()) {
			return "";
		}
		java.util.List<String> files = new java.util.ArrayList<>();
		for (JsonNode entry : preProduced.path("artifacts")) {
			java.util.List<String> fields = new java.util.ArrayList<>();
			for (var field : entry.properties()) {
				if (!field.getKey().equals("file") && field.getValue().isValueNode() && !field.getValue().isNull()) {
					fields.add(field.getKey() + " " + field.getValue().asText());
				}
			}
			if (entry.path("missing").size() > 0) {
				fields.add("missing " + entry.path("missing"));
			}
			files.add(java.nio.file.Path.of(entry.path("file").asText("?")).getFileName() + " (" + String.join(", ", fields) + ")");
		}
		return preProduced.path("source").asText("?") + ": " + String.join("; ", files);
	}

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
		return new GateRow(artifact, status, verdict, displayPath, detail, runId, target, preProduced);
	}
}
