package dev.fakbattery.report;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.wire.Json;

/** Writes small artifacts of one run into a folder, the way the rungs lay them out. */
final class RunFixture {

	private final Path dir;
	private final String runId;

	RunFixture(Path dir, String runId) {
		this.dir = dir;
		this.runId = runId;
	}

	/** An artifact of {@code artifact} with verdict and headline; add numbers with {@link #number}. */
	ObjectNode artifact(ArtifactId artifact, String verdict, String headline) {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", artifact.schema()).put("verdict", verdict).put("rung", artifact.rung()).put("artifact_id", artifact.id());
		doc.putObject("run").put("run_id", runId).put("started_at", startedAt()).put("profile", "battery");
		ObjectNode engine = doc.putObject("target").putObject("engine");
		engine.put("origin", "embedded")
				.put("engine_kind", "vllm")
				.put("engine_version", "0.29.0+engine-double")
				.put("engine_double", true)
				.putArray("served_models")
				.add("Qwen/Qwen2.5-7B-Instruct");
		((ObjectNode) doc.get("target")).put("gateway", "embedded reference gateway");
		doc.putArray("measurements");
		doc.putObject("summary").put("headline", headline);
		return doc;
	}

	/** A measurement with a structured interval ({@code low}, {@code high} not NaN) or none. */
	static ObjectNode number(ObjectNode doc, String name, double value, String unit, double low, double high) {
		ObjectNode m = ((ArrayNode) doc.get("measurements")).addObject()
				.put("name", name)
				.put("value", value)
				.put("unit", unit)
				.put("source", "fixture");
		if (!Double.isNaN(low)) {
			m.putObject("ci95").put("low", low).put("high", high);
		}
		return m;
	}

	Path write(ArtifactId artifact, ObjectNode doc) {
		return ArtifactFiles.writeJson(dir.resolve(artifact.fileName()), doc);
	}

	/** A final-check.json of this run with battery verdict {@code battery}. */
	Path finalCheck(String battery, String status) {
		ObjectNode doc = Json.MAPPER.createObjectNode().put("run_id", runId).put("generated_at", "2026-11-30T20:18:24Z");
		doc.putArray("steps")
				.addObject()
				.put("rung", "3 tax")
				.put("verdict", "SIMULATED")
				.put("artifact_status", "MISSING")
				.put("artifact_detail", "latency_tax 1.0007")
				.put("primary_artifact", "experiments/embedded/adjudication-tax-witness.json");
		ObjectNode summary = doc.putObject("summary")
				.put("battery", battery)
				.put("status", status)
				.put("required_artifacts", 8)
				.put("required_passed", 5)
				.put("authority_draft_allowed", false)
				.put("authority_draft_withheld", "SIMULATED artifacts")
				.put("honesty", "No benchmark number is quotable.");
		summary.putArray("simulated").add("vllm_tax");
		return ArtifactFiles.writeJson(dir.resolve("final-check.json"), doc);
	}

	/** A run with the tax rung's two ratios and a sweep ratio. */
	static RunFixture taxRun(Path dir, String runId, double latencyTax) {
		RunFixture run = new RunFixture(dir, runId);
		ObjectNode tax = run.artifact(ArtifactId.TAX_WITNESS, "SIMULATED", "latency_tax " + latencyTax);
		number(tax, "latency_tax", latencyTax, "ratio", latencyTax - 0.001, latencyTax + 0.001);
		number(tax, "decode_tps_tax", 1.0, "ratio", 0.999, 1.001);
		number(tax, "raw_median_latency_s", 1.31, "s", Double.NaN, Double.NaN);
		run.write(ArtifactId.TAX_WITNESS, tax);
		ObjectNode sweep = run.artifact(ArtifactId.CONCURRENCY_SWEEP, "SIMULATED", "ratio c=1 0.999");
		number(sweep, "ratio_c1", 0.999, "ratio", 0.995, 1.002);
		run.write(ArtifactId.CONCURRENCY_SWEEP, sweep);
		return run;
	}

	Path dir() {
		return dir;
	}

	String startedAt() {
		return runId.substring(0, 4) + "-" + runId.substring(4, 6) + "-" + runId.substring(6, 8) + "T" + runId.substring(9, 11) + ":"
				+ runId.substring(11, 13) + ":" + runId.substring(13, 15) + "Z";
	}
}
