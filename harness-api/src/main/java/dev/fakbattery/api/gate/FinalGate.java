package dev.fakbattery.api.gate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.Verdict;
import dev.fakbattery.wire.Json;

/**
 * Reads every required artifact of {@link ArtifactId} from one folder and decides whether the
 * battery is COMPLETE. A missing, unreadable, mislabelled, pending or planned artifact keeps it
 * PENDING_MEASUREMENT; SIMULATED artifacts count as passed but forbid an authority draft.
 *
 * @since 0.1
 */
public final class FinalGate {

	private FinalGate() {
	}

	public static GateResult evaluate(Path experimentsDir) {
		List<GateRow> rows = new ArrayList<>();
		for (ArtifactId artifact : ArtifactId.requiredArtifacts()) {
			rows.add(row(artifact, experimentsDir.resolve(artifact.fileName())));
		}
		boolean complete = rows.stream().allMatch(GateRow::passed);
		return new GateResult(complete ? GateResult.COMPLETE : GateResult.PENDING, List.copyOf(rows));
	}

	/** What a partly measured rung did measure (its headline), then what it still lacks. */
	private static String withHeadline(JsonNode summary, String reason) {
		String headline = summary.path("headline").asText("");
		return headline.isEmpty() ? reason : headline + "; pending: " + reason;
	}

	static GateRow row(ArtifactId artifact, Path file) {
		String path = file.toString();
		if (!Files.isRegularFile(file)) {
			return new GateRow(artifact, "MISSING", "MISSING", path, "missing: no " + artifact.fileName());
		}
		JsonNode doc;
		try {
			doc = Json.MAPPER.readTree(file.toFile());
		}
		catch (IOException e) {
			return new GateRow(artifact, "FAIL", "FAIL", path, "unreadable JSON: " + e.getMessage());
		}
		String schema = doc.path("schema").asText("");
		if (!artifact.schema().equals(schema)) {
			return new GateRow(artifact, "FAIL", "FAIL", path,
					"schema [" + schema + "], expected [" + artifact.schema() + "]");
		}
		Verdict verdict;
		try {
			verdict = Verdict.valueOf(doc.path("verdict").asText(""));
		}
		catch (IllegalArgumentException e) {
			return new GateRow(artifact, "FAIL", "FAIL", path,
					"verdict [" + doc.path("verdict").asText("") + "] is not one of " + List.of(Verdict.values()));
		}
		JsonNode summary = doc.path("summary");
		return switch (verdict) {
			case PASS, SIMULATED -> new GateRow(artifact, "PASS", verdict.name(), path, summary.path("headline").asText(""));
			case FAIL -> new GateRow(artifact, "FAIL", verdict.name(), path, summary.path("failure").asText(doc.path("error").asText("")));
			case PENDING_MEASUREMENT -> new GateRow(artifact, "MISSING", verdict.name(), path,
					withHeadline(summary, summary.path("pending_reason").asText("")));
			case PLANNED -> new GateRow(artifact, "MISSING", verdict.name(), path, "dry run: " + doc.path("dry_run").asText(""));
		};
	}
}
