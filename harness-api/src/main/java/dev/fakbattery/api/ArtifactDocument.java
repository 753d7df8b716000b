package dev.fakbattery.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * Lays out a rung artifact: schema, generated_at, verdict, the rung's own fields, measurements,
 * pending reasons, acceptance checks, summary and provenance.
 */
final class ArtifactDocument {

	private ArtifactDocument() {
	}

	static ObjectNode build(RungRun run, Verdict verdict, Optional<Throwable> thrown) {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", run.artifact().schema());
		doc.put("generated_at", Instant.now().truncatedTo(ChronoUnit.MICROS).toString());
		doc.put("verdict", verdict.name());
		doc.put("rung", run.artifact().rung());
		doc.put("artifact_id", run.artifact().id());
		run.simulatedBecause().ifPresent(why -> doc.put("simulated", why));
		run.plannedBecause().ifPresent(why -> doc.put("dry_run", why));
		doc.setAll(run.body());
		doc.set("measurements", measurements(run));
		doc.set("pending", pending(run));
		doc.set("acceptance", acceptance(run));
		thrown.ifPresent(t -> doc.put("error", t.getClass().getSimpleName() + ": " + t.getMessage()));
		doc.set("summary", summary(run, verdict, doc.path("summary"), thrown));
		doc.set("provenance", Provenance.collect(run.config(), run.provenanceOverrides()));
		return doc;
	}

	private static ArrayNode measurements(RungRun run) {
		ArrayNode array = Json.MAPPER.createArrayNode();
		for (Measurement m : run.measurements()) {
			if (m instanceof Measurement.Measured measured) {
				array.addObject()
					.put("name", measured.name())
					.put("value", measured.value())
					.put("unit", measured.unit())
					.put("source", measured.source());
			}
		}
		return array;
	}

	private static ArrayNode pending(RungRun run) {
		ArrayNode array = Json.MAPPER.createArrayNode();
		for (Measurement.Pending p : run.pendings()) {
			array.addObject()
				.put("name", p.name())
				.put("status", Verdict.PENDING_MEASUREMENT.name())
				.put("missing", p.missing())
				.put("how_to_provide", p.howToProvide());
		}
		return array;
	}

	private static ObjectNode acceptance(RungRun run) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		for (Check check : run.checks()) {
			node.putObject(check.name())
				.put("status", check.status())
				.put("detail", check.observed())
				.put("expected", check.expected())
				.put("observed", check.observed());
		}
		return node;
	}

	private static ObjectNode summary(RungRun run, Verdict verdict, com.fasterxml.jackson.databind.JsonNode existing,
			Optional<Throwable> thrown) {
		ObjectNode summary = existing.isObject() ? ((ObjectNode) existing).deepCopy() : Json.MAPPER.createObjectNode();
		summary.put("verdict", verdict.name());
		summary.put("passed", run.checks().stream().filter(Check::passed).count());
		summary.put("checks", run.checks().size());
		summary.put("headline", run.headline().orElse(null));
		if (verdict == Verdict.PENDING_MEASUREMENT) {
			summary.put("pending_reason", RungOutcome.pendingReason(run, thrown));
		}
		if (verdict == Verdict.FAIL) {
			summary.put("failure", RungOutcome.failureMessage(run));
		}
		return summary;
	}
}
