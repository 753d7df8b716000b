package dev.fakbattery.report.gate;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonDocument;

/**
 * Writes the Allure categories (PENDING_MEASUREMENT, NOT_JUDGED and NOT_CLAIMED apart from product failures, skips
 * and harness errors)
 * and the environment into the results folder: the battery's verdict and each rung's verdict and headline first,
 * then what was measured (the engine as it identified itself, the gateway under test, model, precision, batching),
 * the machine (host, cores, memory, JDK) and the build command that produced the run.
 *
 * @since 0.1
 */
public final class ReportEnvironment {

	static final String CATEGORIES = """
			[
			  {"name": "PENDING_MEASUREMENT (not measured: not a pass, not a product failure)",
			   "messageRegex": "(?s).*PENDING_MEASUREMENT.*", "matchedStatuses": ["skipped", "failed", "broken"]},
			  {"name": "SIMULATED (engine double: arithmetic about the harness and gateway, never a vLLM number)",
			   "messageRegex": "(?s)SIMULATED.*", "matchedStatuses": ["skipped", "failed"]},
			  {"name": "PLANNED (dry run)", "messageRegex": "(?s)PLANNED:.*", "matchedStatuses": ["skipped", "failed"]},
			  {"name": "NOT_JUDGED (no evidence: nothing reached the kit's upstream or was delivered; never a pass)",
			   "messageRegex": "(?s)NOT_JUDGED.*", "matchedStatuses": ["skipped"]},
			  {"name": "NOT_CLAIMED (a rule failed in a conformance class the gateway does not claim: reported, failing nothing, never a pass)",
			   "messageRegex": "(?s)NOT_CLAIMED.*", "matchedStatuses": ["skipped"]},
			  {"name": "Skipped: not applicable (with reason)",
			   "messageRegex": "(?s)(?!PENDING_MEASUREMENT|PLANNED|SIMULATED|NOT_JUDGED|NOT_CLAIMED).*", "matchedStatuses": ["skipped"]},
			  {"name": "Product failures (an acceptance check or a conformance rule failed)",
			   "messageRegex": "(?s)(?!PENDING_MEASUREMENT|PLANNED|SIMULATED).*", "matchedStatuses": ["failed"]},
			  {"name": "Harness errors (the battery itself broke)", "matchedStatuses": ["broken"]}
			]
			""";

	private ReportEnvironment() {
	}

	/**
	 * Writes categories.json and environment.properties into {@code resultsDir}.
	 *
	 * @param buildCommand the command line that produced the run; empty when the build did not say
	 * @param reproduceCommand shown when the build did not say and no artifact carries its reproduce command
	 */
	public static void write(Path resultsDir, GateResult result, String buildCommand, String reproduceCommand) {
		ArtifactFiles.writeString(resultsDir.resolve("categories.json"), CATEGORIES);
		Properties properties = new Properties();
		environment(result, buildCommand, reproduceCommand).forEach(properties::setProperty);
		StringWriter text = new StringWriter();
		try {
			properties.store(text, null);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		ArtifactFiles.writeString(resultsDir.resolve("environment.properties"), text.toString());
	}

	/**
	 * The Environment block, named so that Allure's alphabetical order leads with the battery: {@code battery} (its
	 * verdict) and {@code battery run}, each {@code rung ...} (verdict and headline), the {@code target ...} (engine as it
	 * identified itself, gateway under test, model, precision, batching, determinism), then {@code with ...} (build command,
	 * commit, harness version, profile, machine, host).
	 */
	static Map<String, String> environment(GateResult result, String buildCommand, String reproduceCommand) {
		JsonNode first = firstArtifact(result);
		JsonNode provenance = first.path("provenance");
		Map<String, String> env = new LinkedHashMap<>();
		env.put("battery", result.battery() + ", final gate " + result.status() + ", " + result.passed() + "/" + result.rows().size()
				+ " required artifacts passed"
				+ (result.simulated().isEmpty() ? "" : "; SIMULATED: " + String.join(", ", result.simulated())));
		env.put("battery run", result.runId().orElse("none") + (first.path("run").path("started_at").isTextual()
				? ", started " + first.path("run").path("started_at").asText()
				: ""));
		for (GateRow row : result.rows()) {
			env.put("rung " + row.artifact().rung(), row.verdict() + ": " + row.detail());
		}
		env.put("target engine", result.rows()
				.stream()
				.map(GateRow::target)
				.filter(java.util.Objects::nonNull)
				.findFirst()
				.map(GateTarget::description)
				.orElse("none measured"));
		env.put("target gateway", first.path("target").path("gateway").asText("unknown"));
		JsonNode served = first.path("target").path("engine").path("served_models");
		env.put("target model",
				text(provenance.path("model"), served.isArray() && !served.isEmpty() ? served.get(0).asText() + " (served)" : "unknown"));
		env.put("target precision", text(provenance.path("precision"), "not disclosed"));
		env.put("target batching regime", text(provenance.path("batching_regime"), "not disclosed"));
		env.put("target determinism mode", text(provenance.path("determinism_mode"), "unknown"));
		env.put("with build command", buildCommand.isBlank() ? text(provenance.path("reproduce_command"), reproduceCommand) : buildCommand);
		env.put("with commit", text(provenance.path("git_commit"), "unknown"));
		env.put("with harness version", text(provenance.path("harness_version"), "unknown"));
		env.put("with profile", text(provenance.path("profile"), "unknown"));
		env.put("with machine", machine());
		env.put("with host", text(provenance.path("host"), "unknown"));
		return env;
	}

	private static String text(JsonNode value, String otherwise) {
		return value.isTextual() && !value.asText().isBlank() ? value.asText() : otherwise;
	}

	/** {@code 2 cores, 7.8 GiB memory, Linux amd64, Temurin 25+36}: the machine the gate ran on, which ran the rungs. */
	static String machine() {
		long bytes = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
				? os.getTotalMemorySize()
				: -1;
		return Runtime.getRuntime().availableProcessors() + " cores, "
				+ (bytes > 0 ? String.format(java.util.Locale.ROOT, "%.1f GiB memory", bytes / (1024.0 * 1024 * 1024)) : "memory unknown")
				+ ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", JDK "
				+ System.getProperty("java.vendor") + " " + Runtime.version();
	}

	/** The first readable artifact of the judged run, for its start, target and provenance. */
	private static JsonNode firstArtifact(GateResult result) {
		for (GateRow row : result.rows()) {
			if (row.stale()) {
				continue;
			}
			JsonDocument read = JsonDocument.read(Path.of(row.path()));
			if (read.isObject()) {
				return read.object();
			}
			// a missing or unreadable one the gate reports; the environment just skips it
		}
		return Json.MAPPER.createObjectNode();
	}

}
