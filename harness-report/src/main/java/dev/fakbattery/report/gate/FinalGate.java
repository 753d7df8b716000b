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
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.RungEvidence;
import dev.fakbattery.core.Verdict;
import dev.fakbattery.wire.JsonDocument;

/**
 * Reads every required artifact of {@link ArtifactId} from one folder and judges the battery. It never takes a
 * verdict as written: it recomputes each one from the checks, pending measurements and marks the artifact lists
 * ({@link RungEvidence}, the rung's own rule), and an artifact whose verdict does not follow fails. It counts an
 * artifact only for the run it judges: one of another run is STALE (listed with its run id and time, not counted),
 * and the artifacts it counts must have measured one target. A PASS counts only from a strict run
 * ({@link Profile#strict()}: {@code -Pgpu}, {@code -Pllamacpp}; an artifact without {@code run.profile} is not one), on
 * an engine that is not the double, over inputs it produced or whose provenance it names ({@link PreProduced});
 * otherwise the row says why it was not counted. A missing, unreadable, mislabelled, pending, planned, stale or
 * SIMULATED artifact keeps the battery from COMPLETE; pre-produced inputs that are test fixtures fail it.
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
			RungEvidence evidence = RungEvidence.of(doc);
			if (evidence.verdict() != verdict) {
				return row("FAIL", evidence.verdict().name(),
						"not counted: verdict " + verdict + " does not follow from its checks (" + evidence.because() + ")");
			}
			return switch (verdict) {
				case PASS -> passed(summary);
				case SIMULATED -> row("MISSING", verdict.name(), summary.path("headline").asText(""));
				case FAIL -> row("FAIL", verdict.name(), summary.path("failure").asText(doc.path("error").asText("")));
				case PENDING_MEASUREMENT ->
					row("MISSING", verdict.name(), withHeadline(summary, summary.path("pending_reason").asText("")));
				case PLANNED -> row("MISSING", verdict.name(), "dry run: " + doc.path("planned").asText(""));
			};
		}

		/**
		 * A PASS that follows from its checks counts only from a strict run ({@link Profile#strict()}), on an engine that
		 * is not the double, over inputs it produced or whose provenance it names; otherwise it is not counted, with every
		 * reason: SIMULATED when the engine was the double, else PENDING_MEASUREMENT.
		 */
		private GateRow passed(JsonNode summary) {
			List<String> refused = new ArrayList<>();
			notStrict(doc.path("run").path("profile")).ifPresent(refused::add);
			GateTarget target = GateTarget.of(doc);
			boolean engineDouble = target != null && target.engineDouble();
			if (engineDouble) {
				refused.add("engine is the engine double (target.engine.engine_double)");
			}
			unproven(doc.path(PreProduced.FIELD)).ifPresent(refused::add);
			if (refused.isEmpty()) {
				return row("PASS", Verdict.PASS.name(), summary.path("headline").asText(""));
			}
			return row("MISSING", (engineDouble ? Verdict.SIMULATED : Verdict.PENDING_MEASUREMENT).name(),
					"PASS not counted: " + String.join("; ", refused));
		}

		/** Why the run profile an artifact names is not a strict one; empty when it is. */
		private static Optional<String> notStrict(JsonNode profile) {
			String strict = " (" + Profile.strictOnes() + ")";
			if (!profile.isTextual()) {
				return Optional.of("no run profile (run.profile missing: written by an older version), not strict" + strict);
			}
			try {
				Profile parsed = Profile.parse(profile.asText());
				return parsed.strict() ? Optional.empty() : Optional.of("run profile " + parsed.id() + " is not strict" + strict);
			}
			catch (IllegalArgumentException e) {
				return Optional.of("run profile [" + profile.asText() + "] is no profile, not strict" + strict);
			}
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
