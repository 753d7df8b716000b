package dev.fakbattery.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.report.gate.GateTarget;
import dev.fakbattery.report.gate.GateWriter;
import dev.fakbattery.wire.Json;

/**
 * What one run left in its experiments folder, as the run index, the history plot and the comparison read it:
 * the run id and start, the target, the battery verdict of the final gate, each rung's verdict and headline, and
 * every headline number.
 *
 * @param runId the run read: the one asked for, else the newest run id the artifacts carry
 * @param otherRuns artifacts of the folder that belong to another run and were left out: {@code file (run ID)}
 * @param target the engine as the artifacts identified it, then the gateway; {@code unknown} when none measured one
 * @param battery the final gate's battery verdict for this run; {@code unknown} without a final-check.json of the run
 * @since 0.3
 */
public record RunSnapshot(String runId, String startedAt, String target, String battery, List<Rung> rungs, List<Reading> readings,
		List<String> otherRuns) {

	/** One rung of the run: its verdict and headline. */
	public record Rung(String rung, String verdict, String headline) {
	}

	/**
	 * Reads the artifacts of {@link ArtifactId} in {@code dir} that belong to run {@code runId}, or to the newest run
	 * found when it is empty; the folder's artifacts of other runs are listed, not read.
	 *
	 * @throws IllegalArgumentException when {@code dir} is not a folder or holds no artifact of the run
	 */
	public static RunSnapshot read(Path dir, Optional<String> runId) {
		if (!Files.isDirectory(dir)) {
			throw new IllegalArgumentException("no run folder at " + dir);
		}
		Map<String, JsonNode> all = new LinkedHashMap<>();
		for (ArtifactId artifact : ArtifactId.values()) {
			Path file = dir.resolve(artifact.fileName());
			if (Files.isRegularFile(file)) {
				all.put(artifact.fileName(), readJson(file));
			}
		}
		Optional<JsonNode> newest = all.values()
				.stream()
				.max(Comparator.comparing((JsonNode d) -> d.path("run").path("started_at").asText(""))
						.thenComparing(d -> d.path("run").path("run_id").asText("")));
		String run = runId.or(() -> newest.map(d -> d.path("run").path("run_id").asText("unknown"))).orElse("unknown");
		List<JsonNode> docs = new ArrayList<>();
		List<String> otherRuns = new ArrayList<>();
		all.forEach((file, doc) -> {
			String id = doc.path("run").path("run_id").asText("unknown");
			if (id.equals(run)) {
				docs.add(doc);
			}
			else {
				otherRuns.add(file + " (run " + id + ")");
			}
		});
		if (docs.isEmpty()) {
			throw new IllegalArgumentException("no battery artifact of run " + run + " in " + dir + " (expected files such as "
					+ ArtifactId.TAX_WITNESS.fileName() + (otherRuns.isEmpty() ? "" : "; found only " + otherRuns)
					+ "); point at an experiments folder or an archived run");
		}
		List<Rung> rungs = new ArrayList<>();
		List<Reading> readings = new ArrayList<>();
		for (JsonNode doc : docs) {
			String rung = doc.path("rung").asText("?");
			rungs.add(new Rung(rung, doc.path("verdict").asText("?"), doc.path("summary").path("headline").asText("")));
			doc.path("measurements").forEach(m -> readings.add(Reading.of(rung, m)));
		}
		Path finalCheck = dir.resolve(GateWriter.FINAL_CHECK_JSON);
		JsonNode check = Files.isRegularFile(finalCheck) ? readJson(finalCheck) : Json.MAPPER.createObjectNode();
		String battery = run.equals(check.path("run_id").asText()) ? check.path("summary").path("battery").asText("unknown") : "unknown";
		return new RunSnapshot(run, docs.get(0).path("run").path("started_at").asText("unknown"), target(docs), battery, rungs,
				readings, otherRuns);
	}

	private static String target(List<JsonNode> docs) {
		for (JsonNode doc : docs) {
			JsonNode engine = doc.path("target").path("engine");
			if (engine.isObject()) {
				return (engine.path("engine_double").asBoolean()
						? "engine double (" + GateTarget.dialect(engine) + " dialect)"
						: engine.path("engine_kind").asText("unknown")) + " " + engine.path("engine_version").asText("")
						+ " serving " + engine.path("served_models") + "; gateway " + doc.path("target").path("gateway").asText("unknown");
			}
		}
		return "unknown";
	}

	public static JsonNode readJson(Path file) {
		try {
			return Json.MAPPER.readTree(file.toFile());
		}
		catch (IOException e) {
			throw new IllegalArgumentException("unreadable JSON " + file + ": " + e.getMessage(), e);
		}
	}

	/** The run index entry: run id, start, target, battery, rungs and numbers. */
	public ObjectNode toJson() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("run_id", runId).put("started_at", startedAt).put("target", target).put("battery", battery);
		ArrayNode rungArray = node.putArray("rungs");
		rungs.forEach(r -> rungArray.addObject().put("rung", r.rung()).put("verdict", r.verdict()).put("headline", r.headline()));
		ArrayNode numbers = node.putArray("numbers");
		readings.forEach(r -> r.writeTo(numbers.addObject()));
		return node;
	}

	/** An index entry read back. */
	static RunSnapshot fromJson(JsonNode node) {
		List<Rung> rungs = new ArrayList<>();
		node.path("rungs")
				.forEach(r -> rungs.add(new Rung(r.path("rung").asText(), r.path("verdict").asText(), r.path("headline").asText())));
		List<Reading> readings = new ArrayList<>();
		node.path("numbers").forEach(n -> readings.add(Reading.of(n.path("rung").asText(), n)));
		return new RunSnapshot(node.path("run_id").asText(), node.path("started_at").asText(), node.path("target").asText(),
				node.path("battery").asText(), rungs, readings, List.of());
	}
}
