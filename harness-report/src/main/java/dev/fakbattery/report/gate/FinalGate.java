package dev.fakbattery.report.gate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.PreProduced;
import dev.fakbattery.core.Verdict;
import dev.fakbattery.wire.JsonDocument;

/**
 * Reads every required artifact of {@link ArtifactId} from one folder and judges the battery. It trusts an
 * artifact's verdict only for the run it judges: an artifact of another run is STALE (listed with its run id
 * and time, not counted), and the artifacts it counts must have measured one target. A missing, unreadable,
 * mislabelled, pending, planned, stale or SIMULATED artifact keeps the battery from COMPLETE, and so does a PASS
 * over inputs the run did not produce ({@link PreProduced}) that does not name their provenance; such inputs that
 * are test fixtures fail it.
 *
 * @since 0.1
 */
public final class FinalGate {

	private FinalGate() {
	}

	/** Judges the newest run found in {@code experimentsDir} ({@code -Pgate}). */
	public static GateResult evaluate(Path experimentsDir) {
		return evaluate(experimentsDir, Optional.empty());
	}

	/**
	 * Judges run {@code runId} (the build's own run under {@code -Pbattery} and {@code -Pgpu}), or the newest run
	 * found when empty.
	 */
	public static GateResult evaluate(Path experimentsDir, Optional<String> runId) {
		Map<ArtifactId, Read> reads = new LinkedHashMap<>();
		for (ArtifactId artifact : ArtifactId.requiredArtifacts()) {
			reads.put(artifact, Read.of(artifact, experimentsDir.resolve(artifact.fileName())));
		}
		Optional<String> judged = runId.or(() -> newestRun(reads.values()));
		List<GateRow> rows = new ArrayList<>();
		reads.forEach((artifact, read) -> rows.add(read.row(judged)));
		return GateResult.of(judged, rows);
	}

	private static Optional<String> newestRun(java.util.Collection<Read> reads) {
		return reads.stream()
				.filter(r -> r.doc() != null && r.doc().path("run").path("run_id").isTextual())
				.max(Comparator.comparing((Read r) -> r.doc().path("run").path("started_at").asText(""))
						.thenComparing(r -> r.doc().path("run").path("run_id").asText()))
				.map(r -> r.doc().path("run").path("run_id").asText());
	}

	/** One artifact file as read: its document, or why there is none. */
	private record Read(ArtifactId artifact, Path path, JsonNode doc, String problem) {

		static Read of(ArtifactId artifact, Path file) {
			if (!Files.isRegularFile(file)) {
				return new Read(artifact, file, null, null);
			}
			JsonDocument read = JsonDocument.read(file);
			return read.isObject() ? new Read(artifact, file, read.object(), null) : new Read(artifact, file, null, read.detail());
		}

		GateRow row(Optional<String> judgedRun) {
			String path = this.path.toString();
			if (doc == null) {
				return problem == null
						? new GateRow(artifact, "MISSING", "MISSING", path, "missing: no " + artifact.fileName(), null, null)
						: new GateRow(artifact, "FAIL", "FAIL", path, problem, null, null);
			}
			String schema = doc.path("schema").asText("");
			if (!artifact.schema().equals(schema)) {
				return row("FAIL", "FAIL", "schema [" + schema + "], expected [" + artifact.schema() + "]");
			}
			Verdict verdict;
			try {
				verdict = Verdict.valueOf(doc.path("verdict").asText(""));
			}
			catch (IllegalArgumentException e) {
				return row("FAIL", "FAIL", "verdict [" + doc.path("verdict").asText("") + "] is not one of " + List.of(Verdict.values()));
			}
			String runId = doc.path("run").path("run_id").asText(null);
			if (runId == null || judgedRun.map(run -> !run.equals(runId)).orElse(true)) {
				return row("MISSING", GateRow.STALE, (runId == null
						? "written without a run id"
						: "from run " + runId + " at "
								+ doc.path("run").path("started_at").asText("?"))
						+ ", verdict " + doc.path("verdict").asText("?")
						+ "; not counted for run " + judgedRun.orElse("(none)"));
			}
			JsonNode summary = doc.path("summary");
			Optional<String> fixture = fixture(doc.path(PreProduced.FIELD));
			if (fixture.isPresent()) {
				return row("FAIL", "FAIL", "test fixture, not a measurement: " + fixture.get() + "; verdict " + verdict + " not counted");
			}
			Optional<String> unproven = unproven(doc.path(PreProduced.FIELD));
			if (verdict == Verdict.PASS && unproven.isPresent()) {
				return row("MISSING", Verdict.PENDING_MEASUREMENT.name(), "PASS not counted: " + unproven.get());
			}
			return switch (verdict) {
				case PASS -> row("PASS", verdict.name(), summary.path("headline").asText(""));
				case SIMULATED -> row("MISSING", verdict.name(), summary.path("headline").asText(""));
				case FAIL -> row("FAIL", verdict.name(), summary.path("failure").asText(doc.path("error").asText("")));
				case PENDING_MEASUREMENT ->
					row("MISSING", verdict.name(), withHeadline(summary, summary.path("pending_reason").asText("")));
				case PLANNED -> row("MISSING", verdict.name(), "dry run: " + doc.path("planned").asText(""));
			};
		}

		private GateRow row(String status, String verdict, String detail) {
			JsonNode preProduced = doc.path(PreProduced.FIELD);
			return new GateRow(artifact, status, verdict, path.toString(), detail, doc.path("run").path("run_id").asText(null),
					GateTarget.of(doc), preProduced.isObject() ? preProduced : null);
		}

		/** The test-fixture marker of a {@code pre_produced} block: as its rung recorded it, or found on disk now. */
		private static Optional<String> fixture(JsonNode block) {
			if (block.path("fixture").isTextual()) {
				return Optional.of(block.path("fixture").asText());
			}
			if (!block.path("source").isTextual()) {
				return Optional.empty();
			}
			List<Path> files = new ArrayList<>();
			block.path("artifacts").forEach(entry -> files.add(Path.of(entry.path("file").asText(""))));
			return PreProduced.fixtureMarker(Path.of(block.path("source").asText()), files);
		}

		/**
		 * Why a {@code pre_produced} block does not prove where its inputs came from: not an object, no artifact
		 * listed, or an artifact without its producer, version or generated_at, or with what its rung found missing.
		 */
		private static Optional<String> unproven(JsonNode block) {
			if (block.isMissingNode() || block.isNull()) {
				return Optional.empty();
			}
			if (!block.isObject() || block.path("artifacts").isEmpty()) {
				return Optional.of("pre-produced inputs listed without their provenance (" + PreProduced.FIELD + " " + block + ")");
			}
			List<String> problems = new ArrayList<>();
			for (JsonNode entry : block.path("artifacts")) {
				List<String> missing = new ArrayList<>(PreProduced.REQUIRED.stream()
						.filter(name -> !entry.path(name).isValueNode() || entry.path(name).asText("").isBlank())
						.toList());
				entry.path("missing").forEach(m -> missing.add(m.asText()));
				if (!missing.isEmpty()) {
					problems.add(entry.path("file").asText("?") + " missing " + missing.stream().distinct().toList());
				}
			}
			return problems.isEmpty()
					? Optional.empty()
					: Optional.of("pre-produced without provenance: " + String.join("; ", problems));
		}

		/** What a partly measured rung did measure (its headline), then what it still lacks. */
		private static String withHeadline(JsonNode summary, String reason) {
			String headline = summary.path("headline").asText("");
			return headline.isEmpty() ? reason : headline + "; pending: " + reason;
		}
	}
}
