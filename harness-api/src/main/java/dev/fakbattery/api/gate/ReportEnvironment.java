package dev.fakbattery.api.gate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.ArtifactFiles;
import dev.fakbattery.wire.Json;

/**
 * Writes the Allure categories (PENDING_MEASUREMENT apart from product failures and harness errors)
 * and the environment (engine identity, model, profile, status) into the results folder.
 *
 * @since 0.1
 */
public final class ReportEnvironment {

	static final String CATEGORIES = """
			[
			  {"name": "PENDING_MEASUREMENT (not measured: not a pass, not a product failure)",
			   "messageRegex": "(?s).*PENDING_MEASUREMENT.*", "matchedStatuses": ["skipped", "failed", "broken"]},
			  {"name": "PLANNED (dry run)", "messageRegex": "(?s)PLANNED:.*", "matchedStatuses": ["skipped", "failed"]},
			  {"name": "Skipped: not applicable (with reason)",
			   "messageRegex": "(?s)(?!PENDING_MEASUREMENT|PLANNED).*", "matchedStatuses": ["skipped"]},
			  {"name": "Product failures (an acceptance check or a conformance rule failed)",
			   "messageRegex": "(?s)(?!PENDING_MEASUREMENT|PLANNED).*", "matchedStatuses": ["failed"]},
			  {"name": "Harness errors (the battery itself broke)", "matchedStatuses": ["broken"]}
			]
			""";

	private ReportEnvironment() {
	}

	public static void write(Path resultsDir, GateResult result) {
		ArtifactFiles.writeString(resultsDir.resolve("categories.json"), CATEGORIES);
		StringBuilder properties = new StringBuilder();
		environment(result).forEach((k, v) -> properties.append(k).append('=').append(v.replace("\n", " ")).append('\n'));
		ArtifactFiles.writeString(resultsDir.resolve("environment.properties"), properties.toString());
	}

	static Map<String, String> environment(GateResult result) {
		Map<String, String> env = new LinkedHashMap<>();
		env.put("battery.verdict", result.battery());
		env.put("battery.status", result.status());
		env.put("battery.run_id", result.runId().orElse("none"));
		env.put("battery.simulated", String.join(",", result.simulated()));
		JsonNode provenance = firstProvenance(result);
		for (String field : new String[] { "engine", "engine_version", "model", "precision", "batching_regime",
				"determinism_mode", "profile", "harness_version", "git_commit", "jdk", "host" }) {
			JsonNode value = provenance.path(field);
			env.put(field, value.isTextual() ? value.asText() : "unknown");
		}
		return env;
	}

	private static JsonNode firstProvenance(GateResult result) {
		for (GateRow row : result.rows()) {
			Path file = Path.of(row.path());
			if (Files.isRegularFile(file)) {
				try {
					JsonNode provenance = Json.MAPPER.readTree(file.toFile()).path("provenance");
					if (provenance.isObject()) {
						return provenance;
					}
				}
				catch (IOException e) {
					// the gate reports it as unreadable; the environment just skips it
				}
			}
		}
		return Json.MAPPER.createObjectNode();
	}

}
