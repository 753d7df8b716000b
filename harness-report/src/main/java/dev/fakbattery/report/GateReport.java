package dev.fakbattery.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ReportLabels;
import dev.fakbattery.report.gate.GateResult;
import dev.fakbattery.report.gate.GateWriter;

import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.model.Attachment;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.Stage;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResult;

/**
 * The final gate as one result of the battery report (epic {@link ReportLabels#BATTERY}, feature
 * {@link ReportLabels#GATE}), read from the final-check.json the gate wrote: passed only when the battery is
 * COMPLETE, failed when it FAILed, skipped with the reason when SIMULATED or PENDING_MEASUREMENT; one step per
 * required artifact; the final check, the run index and the ratios across runs attached.
 *
 * @since 0.3
 */
public final class GateReport {

	/** The gate's history id: one test across runs, so Trend and history follow it. */
	static final String HISTORY_ID = "fak-battery-final-gate";

	private GateReport() {
	}

	/**
	 * Writes the gate's result into {@code resultsDir}.
	 *
	 * @param attachments files attached beside final-check.json and FINAL-CHECK.md (absent ones are left out)
	 * @throws IllegalArgumentException when {@code experimentsDir} holds no final-check.json
	 */
	public static TestResult write(Path experimentsDir, Path resultsDir, List<Path> attachments) {
		Path finalCheck = finalCheck(experimentsDir);
		JsonNode check = RunSnapshot.readJson(finalCheck);
		JsonNode summary = check.path("summary");
		String battery = summary.path("battery").asText("unknown");
		long at = Instant.parse(check.path("generated_at").asText(Instant.now().toString())).toEpochMilli();
		FileSystemResultsWriter writer = new FileSystemResultsWriter(resultsDir);
		List<Attachment> attached = new ArrayList<>();
		List<Path> files = new ArrayList<>(List.of(finalCheck, experimentsDir.resolve(GateWriter.FINAL_CHECK_MD)));
		files.addAll(attachments);
		for (Path file : files.stream().filter(Files::isRegularFile).toList()) {
			attached.add(attach(writer, file));
		}
		TestResult result = new TestResult().setUuid(UUID.randomUUID().toString())
				.setHistoryId(HISTORY_ID)
				.setTestCaseId(HISTORY_ID)
				.setFullName("fak-battery final gate")
				.setName("final gate [" + battery + "]")
				.setStatus(status(battery))
				.setStage(Stage.FINISHED)
				.setStart(at)
				.setStop(at)
				.setStatusDetails(new StatusDetails().setMessage(message(battery, summary)))
				.setDescription(message(battery, summary) + "\n\n" + summary.path("honesty").asText(""))
				.setLabels(
						List.of(label("epic", ReportLabels.BATTERY), label("feature", ReportLabels.GATE), label("story", ReportLabels.GATE),
								label("suite", ReportLabels.GATE), label(ReportLabels.VERDICT, battery)))
				.setParameters(List.of(parameter("run id", check.path("run_id").asText("none")), parameter("battery", battery),
						parameter("status", summary.path("status").asText("unknown"))))
				.setSteps(steps(check, at))
				.setAttachments(attached);
		writer.write(result);
		return result;
	}

	/**
	 * The battery report's title, read from final-check.json in {@code experimentsDir}: the battery verdict first and the
	 * count of required artifacts that passed for real (PASS; a SIMULATED one never counts), for example
	 * {@code fak-battery: SIMULATED, 0/9 required artifacts passed on a real target (run 20261201T101500Z)}.
	 *
	 * @throws IllegalArgumentException when {@code experimentsDir} holds no final-check.json
	 */
	public static String title(Path experimentsDir) {
		JsonNode check = RunSnapshot.readJson(finalCheck(experimentsDir));
		JsonNode summary = check.path("summary");
		return "fak-battery: " + summary.path("battery").asText("unknown") + ", " + summary.path("required_passed").asInt() + "/"
				+ summary.path("required_artifacts").asInt() + " required artifacts passed on a real target (run "
				+ check.path("run_id").asText("none") + ")";
	}

	private static Path finalCheck(Path experimentsDir) {
		Path finalCheck = experimentsDir.resolve(GateWriter.FINAL_CHECK_JSON);
		if (!Files.isRegularFile(finalCheck)) {
			throw new IllegalArgumentException("no " + GateWriter.FINAL_CHECK_JSON + " in " + experimentsDir
					+ ": run the final gate first (FinalGateMain write)");
		}
		return finalCheck;
	}

	static Status status(String battery) {
		return switch (battery) {
			case GateResult.COMPLETE -> Status.PASSED;
			case GateResult.FAIL -> Status.FAILED;
			default -> Status.SKIPPED;
		};
	}

	/** {@code SIMULATED: battery SIMULATED, final gate PENDING_MEASUREMENT, 5/8 required artifacts passed; ...}. */
	static String message(String battery, JsonNode summary) {
		return battery + ": battery " + battery + ", final gate " + summary.path("status").asText("?") + ", "
				+ summary.path("required_passed").asInt() + "/" + summary.path("required_artifacts").asInt() + " required artifacts passed"
				+ list("failed", summary.path("required_failed")) + list("SIMULATED", summary.path("simulated"))
				+ list("STALE", summary.path("stale")) + list("pre-produced", summary.path("pre_produced"))
				+ (summary.path("target_problem").isTextual() ? "; targets differ: " + summary.path("target_problem").asText() : "")
				+ (summary.path("authority_draft_allowed").asBoolean()
						? "; authority draft written"
						: "; no authority draft (" + summary.path("authority_draft_withheld").asText("withheld") + ")");
	}

	private static List<StepResult> steps(JsonNode check, long at) {
		List<StepResult> steps = new ArrayList<>();
		for (JsonNode step : check.path("steps")) {
			String status = step.path("artifact_status").asText();
			JsonNode preProduced = step.path("pre_produced");
			List<Parameter> parameters = new ArrayList<>(List.of(parameter("detail", step.path("artifact_detail").asText("")),
					parameter("artifact", step.path("primary_artifact").asText(""))));
			if (preProduced.isObject()) {
				// inputs this run did not produce: the step says so, with their provenance
				parameters.add(parameter("pre-produced", preProduced.path("source").asText("?") + " " + preProduced.path("artifacts")));
			}
			steps.add(new StepResult().setName(step.path("rung").asText() + ": " + step.path("verdict").asText()
					+ (preProduced.isObject() ? " (pre-produced)" : ""))
					.setStatus(status.equals("PASS") ? Status.PASSED : status.equals("FAIL") ? Status.FAILED : Status.SKIPPED)
					.setStage(Stage.FINISHED)
					.setStart(at)
					.setStop(at)
					.setParameters(parameters));
		}
		return steps;
	}

	private static Attachment attach(FileSystemResultsWriter writer, Path file) {
		String name = file.getFileName().toString();
		String extension = name.substring(name.lastIndexOf('.'));
		String source = UUID.randomUUID() + "-attachment" + extension;
		try (InputStream in = Files.newInputStream(file)) {
			writer.write(source, in);
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not attach " + file + " to the gate's result", e);
		}
		String type = switch (extension) {
			case ".json" -> "application/json";
			case ".png" -> "image/png";
			case ".md" -> "text/markdown";
			case ".html" -> "text/html";
			default -> "text/plain";
		};
		return new Attachment().setName(name).setSource(source).setType(type);
	}

	/** {@code ; label [a, b]}, or nothing for an empty or absent list. */
	private static String list(String label, JsonNode array) {
		List<String> items = new ArrayList<>();
		array.forEach(item -> items.add(item.asText()));
		return items.isEmpty() ? "" : "; " + label + " " + items;
	}

	private static Label label(String name, String value) {
		return new Label().setName(name).setValue(value);
	}

	private static Parameter parameter(String name, String value) {
		return new Parameter().setName(name).setValue(value);
	}
}
