package dev.fakbattery.report.gate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.PreProduced;
import dev.fakbattery.wire.Json;

/**
 * Writes final-check.json (seed-compatible summary), FINAL-CHECK.md and, only when allowed,
 * BENCHMARK-AUTHORITY-DRAFT.md; a stale draft from an earlier run is deleted otherwise.
 *
 * @since 0.1
 */
public final class GateWriter {

	public static final String FINAL_CHECK_JSON = ArtifactFiles.FINAL_CHECK_JSON;
	public static final String FINAL_CHECK_MD = "FINAL-CHECK.md";
	public static final String AUTHORITY_DRAFT_MD = "BENCHMARK-AUTHORITY-DRAFT.md";
	static final String SCHEMA = "fak.glm52-vllm-agentic-battery.v1";
	static final String HONESTY = "No benchmark number is quotable until every required artifact passes, on what its run "
			+ "measured or on pre-produced inputs named with their provenance (none SIMULATED), and any copied number is linked "
			+ "from BENCHMARK-AUTHORITY.md.";

	private GateWriter() {
	}

	public static void write(Path dir, GateResult result, String reproduceCommand) {
		ArtifactFiles.writeJson(dir.resolve(FINAL_CHECK_JSON), json(result, reproduceCommand));
		ArtifactFiles.writeString(dir.resolve(FINAL_CHECK_MD), markdown(result));
		Path draft = dir.resolve(AUTHORITY_DRAFT_MD);
		if (result.authorityDraftAllowed()) {
			ArtifactFiles.writeString(draft, draft(result, reproduceCommand));
		}
		else {
			try {
				Files.deleteIfExists(draft);
			}
			catch (IOException e) {
				throw new UncheckedIOException("could not delete the stale " + draft, e);
			}
		}
	}

	static ObjectNode json(GateResult result, String reproduceCommand) {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", SCHEMA);
		doc.put("generated_at", Instant.now().truncatedTo(ChronoUnit.MICROS).toString());
		doc.put("reproduce_command", reproduceCommand);
		doc.put("run_id", result.runId().orElse(null));
		var steps = doc.putArray("steps");
		for (GateRow row : result.rows()) {
			steps.addObject()
					.put("id", row.artifact().id())
					.put("rung", row.artifact().rung())
					.put("required", true)
					.put("primary_artifact", row.path())
					.put("artifact_status", row.status())
					.put("verdict", row.verdict())
					.put("run_id", row.runId())
					.put("artifact_detail", row.detail())
					.set(PreProduced.FIELD, row.preProduced());
		}
		ObjectNode summary = doc.putObject("summary");
		summary.put("complete", result.complete());
		summary.put("status", result.status());
		summary.put("battery", result.battery());
		summary.put("required_artifacts", result.rows().size());
		summary.put("required_passed", result.passed());
		result.failed().forEach(summary.putArray("required_failed")::add);
		result.missing().forEach(summary.putArray("required_missing")::add);
		result.simulated().forEach(summary.putArray("simulated")::add);
		result.stale().forEach(summary.putArray("stale")::add);
		result.measuredThisRun().forEach(summary.putArray("measured_this_run")::add);
		result.preProduced().forEach(summary.putArray(PreProduced.FIELD)::add);
		summary.put("target_problem", result.targetProblem().orElse(null));
		summary.put("authority_draft_allowed", result.authorityDraftAllowed());
		summary.put("authority_draft_withheld", result.draftWithheldBecause().orElse(null));
		summary.put("honesty", HONESTY);
		return doc;
	}

	static String markdown(GateResult result) {
		StringBuilder md = new StringBuilder("# Final check\n\n");
		md.append("Status: **")
				.append(result.status())
				.append("**, battery **")
				.append(result.battery())
				.append("** (")
				.append(result.passed())
				.append('/')
				.append(result.rows().size())
				.append(" required artifacts passed")
				.append(result.runId().map(id -> " in run " + id).orElse(""))
				.append(")\n\n");
		result.targetProblem().ifPresent(problem -> md.append("Targets differ: ").append(problem).append("\n\n"));
		if (!result.stale().isEmpty()) {
			md.append("STALE (another run's artifacts, not counted): ").append(String.join(", ", result.stale())).append("\n\n");
		}
		result.draftWithheldBecause().ifPresent(why -> md.append("Authority draft withheld: ").append(why).append("\n\n"));
		if (!result.simulated().isEmpty()) {
			md.append("SIMULATED (engine double, not a vLLM number): ")
					.append(String.join(", ", result.simulated()))
					.append("\n\n");
		}
		md.append(preProduced(result));
		md.append(SummaryTable.markdown(result.rows())).append('\n').append(HONESTY).append('\n');
		return md.toString();
	}

	/**
	 * The draft says what this run measured and what it only judged: the artifacts measured in the run, then the
	 * pre-produced ones with their provenance; it never calls a pre-produced input a measurement of the run.
	 */
	static String draft(GateResult result, String reproduceCommand) {
		String run = result.runId().map(id -> "run " + id).orElse("this run");
		return "# Benchmark authority (DRAFT)\n\n"
				+ "Every required artifact passed in " + run + ". Measured in " + run + ": "
				+ (result.measuredThisRun().isEmpty() ? "none" : String.join(", ", result.measuredThisRun())) + ". Pre-produced, "
				+ "not measured in " + run + " (judged on the provenance they name): "
				+ (result.preProduced().isEmpty() ? "none" : String.join(", ", result.preProduced())) + ".\n\n"
				+ engines(result)
				+ preProduced(result)
				+ "A person reviews this draft, checks the provenance of every pre-produced artifact, and links each quoted "
				+ "number to its artifact before it becomes BENCHMARK-AUTHORITY.md.\n\n"
				+ "Reproduce: `" + reproduceCommand + "`\n\n" + SummaryTable.markdown(result.rows());
	}

	/**
	 * The engines the artifacts measured as they identified themselves, then under "Declared, not observed" those whose
	 * kind only {@code engine.identity} named, each with the artifacts that measured it; nothing when no artifact measured
	 * an engine.
	 */
	private static String engines(GateResult result) {
		List<String> observed = result.rows()
				.stream()
				.map(GateRow::target)
				.filter(target -> target != null && !target.declared())
				.map(GateTarget::description)
				.distinct()
				.toList();
		Map<String, List<String>> declared = new LinkedHashMap<>();
		result.rows()
				.stream()
				.filter(row -> row.target() != null && row.target().declared())
				.forEach(row -> declared.computeIfAbsent(row.target().description(), d -> new ArrayList<>()).add(row.artifact().id()));
		return (observed.isEmpty() ? "" : "Engine: " + String.join("; ", observed) + ".\n\n")
				+ (declared.isEmpty()
						? ""
						: "Declared, not observed (the engine kind was named by -Dengine.identity; nothing the engine answered "
								+ "identified it, so nothing here is evidence of it):\n\n"
								+ declared.entrySet()
										.stream()
										.map(e -> "- " + e.getKey() + ": " + String.join(", ", e.getValue()) + "\n")
										.collect(Collectors.joining())
								+ "\n");
	}

	/** One line per artifact over pre-produced inputs: its source and each file's provenance; nothing when none. */
	private static String preProduced(GateResult result) {
		StringBuilder md = new StringBuilder();
		for (GateRow row : result.rows()) {
			if (row.isPreProduced()) {
				md.append(md.isEmpty() ? "Pre-produced inputs (not produced by this run), with their provenance:\n\n" : "")
						.append("- ")
						.append(row.artifact().id())
						.append(" (")
						.append(row.verdict())
						.append("): ")
						.append(row.preProducedLine())
						.append('\n');
			}
		}
		return md.isEmpty() ? "" : md.append('\n').toString();
	}
}
