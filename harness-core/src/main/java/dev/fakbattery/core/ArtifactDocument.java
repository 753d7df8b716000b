package dev.fakbattery.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * Lays out a rung artifact: schema, generated_at, verdict, run, target, the rung's own fields, measurements,
 * pending reasons, acceptance checks, summary and provenance. What the harness computes (the verdict and the
 * blocks around it) cannot be set by a rung's body: a body that tries fails the rung.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class ArtifactDocument {

	/** Fields only the harness writes. */
	static final List<String> RESERVED = List.of("schema", "generated_at", "verdict", "rung", "artifact_id", "run", "target",
			"simulated", "planned", "workload", "measurements", "pending", "acceptance", "error", "provenance");

	/** Summary fields only the harness writes. */
	static final List<String> RESERVED_SUMMARY = List.of("verdict", "passed", "checks", "headline", "pending_reason", "failure");

	private ArtifactDocument() {
	}

	/**
	 * The artifact without its verdict, for {@link RungRecorder#validateArtifact} validators.
	 *
	 * @throws IllegalStateException when the rung's body sets a field only the harness writes
	 */
	public static ObjectNode draft(RungRecorder run) {
		List<String> taken = RESERVED.stream().filter(run.body()::has).toList();
		List<String> takenSummary = RESERVED_SUMMARY.stream().filter(run.body().path("summary")::has).toList();
		if (!taken.isEmpty() || !takenSummary.isEmpty()) {
			throw new IllegalStateException("rung " + run.artifact().rung() + " sets fields only the harness writes: "
					+ taken + (takenSummary.isEmpty() ? "" : " summary" + takenSummary) + "; record checks and measurements instead");
		}
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", run.artifact().schema());
		doc.put("generated_at", Instant.now().truncatedTo(ChronoUnit.MICROS).toString());
		doc.putNull("verdict");
		doc.put("rung", run.artifact().rung());
		doc.put("artifact_id", run.artifact().id());
		run.runContext().writeTo(doc.putObject("run"));
		target(run, doc.putObject("target"));
		run.simulatedBecause().ifPresent(why -> doc.put("simulated", why));
		run.plannedBecause().ifPresent(why -> doc.put("planned", why));
		run.workload().ifPresent(workload -> doc.put("workload", workload));
		doc.setAll(run.body());
		return doc;
	}

	/** The whole artifact, with the verdict computed from what the rung recorded. */
	public static ObjectNode build(RungRecorder run, ObjectNode draft, Verdict verdict, Optional<Throwable> thrown) {
		ObjectNode doc = draft;
		doc.put("verdict", verdict.name());
		doc.set("measurements", measurements(run));
		doc.set("pending", pending(run));
		doc.set("acceptance", acceptance(run));
		thrown.ifPresent(t -> doc.put("error", t.getClass().getSimpleName() + ": " + t.getMessage()));
		doc.set("summary", summary(run, verdict, doc.path("summary"), thrown));
		doc.set("provenance", Provenance.collect(run.config(), run.target(), run.provenanceOverrides()));
		return doc;
	}

	private static void target(RungRecorder run, ObjectNode node) {
		run.target().ifPresentOrElse(identity -> identity.writeTo(node.putObject("engine")), () -> node.putNull("engine"));
		node.put("gateway", run.runContext().gateway());
	}

	private static ArrayNode measurements(RungRecorder run) {
		ArrayNode array = Json.MAPPER.createArrayNode();
		for (Measurement m : run.measurements()) {
			if (m instanceof Measurement.Measured measured) {
				ObjectNode node = array.addObject()
						.put("name", measured.name())
						.put("value", measured.value())
						.put("unit", measured.unit())
						.put("source", measured.source());
				measured.ci().ifPresent(ci -> node.putObject("ci95").put("low", ci.lo()).put("high", ci.hi()));
			}
		}
		return array;
	}

	private static ArrayNode pending(RungRecorder run) {
		ArrayNode array = Json.MAPPER.createArrayNode();
		for (Measurement.Pending p : run.pendings()) {
			array.addObject()
					.put("name", p.name())
					.put("status", Verdict.PENDING_MEASUREMENT.name())
					.put("invalidated", run.invalidations().contains(p))
					.put("missing", p.missing())
					.put("how_to_provide", p.howToProvide());
		}
		return array;
	}

	private static ObjectNode acceptance(RungRecorder run) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		List<Check> unjudged = RungOutcome.unjudgedChecks(run);
		for (Check check : run.checks()) {
			ObjectNode entry = node.putObject(check.name())
					.put("status", unjudged.contains(check) ? "NOT_JUDGED" : check.status())
					.put("detail", check.observed())
					.put("expected", check.expected())
					.put("observed", check.observed());
			if (check.product()) {
				entry.put("product", true);
			}
		}
		for (Check check : run.notJudgedChecks()) {
			node.putObject(check.name())
					.put("status", "NOT_JUDGED")
					.put("pending", true)
					.put("detail", check.observed())
					.put("expected", check.expected())
					.put("observed", check.observed());
		}
		return node;
	}

	private static ObjectNode summary(RungRecorder run, Verdict verdict, JsonNode existing, Optional<Throwable> thrown) {
		ObjectNode summary = existing.isObject() ? ((ObjectNode) existing).deepCopy() : Json.MAPPER.createObjectNode();
		run.artifact().seedSummaryKey().ifPresent(key -> summary.put(key, verdict.name()));
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
