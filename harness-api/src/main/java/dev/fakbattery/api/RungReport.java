package dev.fakbattery.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.core.ReportLabels;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.extension.ExtensionContext;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StepResult;

/**
 * A rung's page in the battery report: epic {@link ReportLabels#BATTERY}, the rung as feature, the test as story;
 * its verdict in the name, as a label and a parameter; its headline as the description; what it ran against as
 * parameters (engine, engine version, model, gateway, precision, batching, workload, run id, commit); each
 * acceptance check, measurement and pending reason as a step; the artifact and its plots attached; a verdict that is
 * not a real pass written as skipped ({@link VerdictStatus}). A rung run
 * inside another test (an EngineTestKit self-test) is left out: it is not part of the battery.
 */
final class RungReport {

	private RungReport() {
	}

	static void publish(ExtensionContext context, RungRecorder run, Verdict verdict, JsonNode document, Path artifact, List<Path> extra) {
		String uuid = AllureTest.of(context).orElse(null);
		if (uuid == null) {
			return;
		}
		AllureLifecycle lifecycle = Allure.getLifecycle();
		List<Label> labels = List.of(label("epic", ReportLabels.BATTERY), label("feature", ReportLabels.feature(run.artifact())),
				label("story", context.getDisplayName()), label(ReportLabels.VERDICT, verdict.name()));
		List<Parameter> parameters = new ArrayList<>();
		parameters(verdict, document).forEach((name, value) -> parameters.add(new Parameter().setName(name).setValue(value)));
		lifecycle.updateTestCase(uuid, result -> result.setName(context.getDisplayName() + " [" + verdict + "]")
				.setDescription(description(verdict, document))
				.setParameters(parameters)
				.getLabels()
				.addAll(labels));
		run.checks()
				.forEach(check -> step(lifecycle, uuid, "check " + check.name(), stepStatus(document, check),
						Map.of("expected", check.expected(), "observed", check.observed())));
		document.path("measurements")
				.forEach(m -> step(lifecycle, uuid, measurement(m), Status.PASSED,
						Map.of("source", m.path("source").asText())));
		document.path("pending")
				.forEach(p -> step(lifecycle, uuid, "pending " + p.path("name").asText() + ": "
						+ p.path("missing").asText(), Status.SKIPPED, Map.of("how to provide", p.path("how_to_provide").asText())));
		attachFile(artifact);
		extra.forEach(RungReport::attachFile);
		VerdictStatus.record(uuid, verdict, reason(verdict, document));
	}

	/** Why a rung that is not a real pass is not one: its SIMULATED reason, its pending reason or its dry run. */
	static String reason(Verdict verdict, JsonNode doc) {
		return switch (verdict) {
			case SIMULATED -> doc.path("simulated").asText("measured on the engine double");
			case PENDING_MEASUREMENT -> doc.path("summary").path("pending_reason").asText("not measured");
			case PLANNED -> doc.path("planned").asText("dry run: nothing was measured");
			case PASS, FAIL -> doc.path("summary").path("headline").asText("");
		};
	}

	/** What the rung ran against; an unknown fact reads {@code unknown}, never a guess. */
	static Map<String, String> parameters(Verdict verdict, JsonNode doc) {
		JsonNode engine = doc.path("target").path("engine");
		JsonNode provenance = doc.path("provenance");
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("verdict", verdict.name());
		parameters.put("engine", engine.isObject()
				? (engine.path("engine_double").asBoolean()
						? "engine double (" + engine.path("dialect").asText(engine.path("engine_kind").asText("unknown")) + " dialect)"
						: engine.path("engine_kind").asText("unknown")) + " at "
						+ engine.path("base_url").asText("?")
						+ " (" + engine.path("origin").asText("?") + ")"
				: "none measured by this rung");
		parameters.put("engine version", text(engine.path("engine_version")));
		JsonNode served = engine.path("served_models");
		parameters.put("model", provenance.path("model").isTextual()
				? provenance.path("model").asText()
				: served.isArray() && !served.isEmpty() ? served.get(0).asText() + " (served)" : "unknown");
		parameters.put("gateway", text(doc.path("target").path("gateway")));
		parameters.put("precision", text(doc.path("precision").isTextual() ? doc.path("precision") : provenance.path("precision")));
		parameters.put("batching", text(doc.path("batching_regime").isTextual()
				? doc.path("batching_regime")
				: provenance.path("batching_regime")));
		if (doc.path("workload").isTextual()) {
			parameters.put("workload", doc.path("workload").asText());
		}
		parameters.put("run id", text(doc.path("run").path("run_id")));
		parameters.put("commit", text(doc.path("run").path("git_commit")));
		return parameters;
	}

	/** The headline first, then why the rung did not pass where it did not. */
	static String description(Verdict verdict, JsonNode doc) {
		JsonNode summary = doc.path("summary");
		StringBuilder text = new StringBuilder(verdict.name()).append(": ")
				.append(summary.path("headline").isTextual() ? summary.path("headline").asText() : "no headline recorded");
		if (summary.path("pending_reason").isTextual()) {
			text.append("\n\nPENDING_MEASUREMENT: ").append(summary.path("pending_reason").asText());
		}
		if (summary.path("failure").isTextual()) {
			text.append("\n\nFAIL: ").append(summary.path("failure").asText());
		}
		if (doc.path("simulated").isTextual()) {
			text.append("\n\nSIMULATED: ").append(doc.path("simulated").asText());
		}
		return text.toString();
	}

	static String measurement(JsonNode m) {
		JsonNode ci = m.path("ci95");
		double value = m.path("value").asDouble();
		String shown = !m.path("unit").asText().equals("ratio") && value == Math.rint(value) ? String.valueOf((long) value) : number(value);
		return String.format(Locale.ROOT, "measured %s = %s %s%s", m.path("name").asText(), shown,
				m.path("unit").asText(), ci.isObject()
						? ", 95% CI [" + number(ci.path("low").asDouble()) + ", "
								+ number(ci.path("high").asDouble()) + "]"
						: "");
	}

	private static String number(double value) {
		return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.4f", value);
	}

	private static Status stepStatus(JsonNode doc, Check check) {
		String status = doc.path("acceptance").path(check.name()).path("status").asText(check.status());
		return check.passed() ? Status.PASSED : "NOT_JUDGED".equals(status) ? Status.SKIPPED : Status.FAILED;
	}

	private static void step(AllureLifecycle lifecycle, String parent, String name, Status status, Map<String, String> parameters) {
		String uuid = UUID.randomUUID().toString();
		List<Parameter> params = new ArrayList<>();
		parameters.forEach((key, value) -> params.add(new Parameter().setName(key).setValue(value)));
		lifecycle.startStep(parent, uuid, new StepResult().setName(name).setStatus(status).setParameters(params));
		lifecycle.stopStep(uuid);
	}

	private static String text(JsonNode node) {
		return node.isValueNode() && !node.isNull() ? node.asText() : "unknown";
	}

	private static Label label(String name, String value) {
		return new Label().setName(name).setValue(value);
	}

	private static void attachFile(Path file) {
		String name = file.getFileName().toString();
		String extension = name.contains(".") ? name.substring(name.lastIndexOf('.')) : "";
		try (InputStream in = Files.newInputStream(file)) {
			Allure.addAttachment(name, contentType(extension), in, extension);
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not attach " + file + " to the report", e);
		}
	}

	private static String contentType(String extension) {
		return switch (extension) {
			case ".json" -> "application/json";
			case ".png" -> "image/png";
			case ".svg" -> "image/svg+xml";
			case ".md" -> "text/markdown";
			default -> "text/plain";
		};
	}
}
