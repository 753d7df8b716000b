package dev.fakbattery.bench.swebench;

import static dev.fakbattery.bench.support.JsonValues.show;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.wire.JsonDocument;

/**
 * The checks of {@code COMPARE-PREFLIGHT.json}: schema, ok, every inner check ok, identity (model,
 * served name, engine, selection, arms), config (raw URL, engine serve skipped, GPU name) and the
 * runtime probes fak requires.
 *
 * @since 0.1
 */
public final class ComparePreflightChecks {

	/** Check names, in order. */
	public static final List<String> NAMES = List.of("compare_preflight_schema", "compare_preflight_ok",
			"compare_preflight_checks", "compare_preflight_identity", "compare_preflight_config",
			"compare_preflight_runtime");

	private static final List<String> RUNTIME = List.of("mini_swe_agent", "swebench_python", "swebench_version",
			"vllm_version");

	private ComparePreflightChecks() {
	}

	public static List<Check> of(JsonDocument file, CompareExpectation expect) {
		if (!file.isObject()) {
			return Unavailable.checks(NAMES, file);
		}
		JsonNode doc = file.object();
		return List.of(
				new Check("compare_preflight_schema", RunDirFiles.PREFLIGHT_SCHEMA.equals(doc.path("schema").asText(null)),
						"schema \"" + RunDirFiles.PREFLIGHT_SCHEMA + "\"", "schema " + show(doc.path("schema"))),
				new Check("compare_preflight_ok", doc.path("ok").isBoolean() && doc.path("ok").asBoolean(), "ok true",
						"ok " + show(doc.path("ok"))),
				innerChecks(doc.path("checks")),
				identity(doc, expect),
				config(doc.path("config"), expect),
				runtime(doc.path("runtime")));
	}

	private static Check innerChecks(JsonNode checks) {
		String expected = "non-empty checks[], every ok true";
		if (!checks.isArray() || checks.isEmpty()) {
			return new Check("compare_preflight_checks", false, expected, "checks " + show(checks));
		}
		List<String> failed = new ArrayList<>();
		for (JsonNode row : checks) {
			if (!row.path("ok").isBoolean() || !row.path("ok").asBoolean()) {
				failed.add(row.path("name").asText("?"));
			}
		}
		return new Check("compare_preflight_checks", failed.isEmpty(), expected,
				failed.isEmpty() ? checks.size() + " checks ok" : "failed: " + String.join(", ", failed));
	}

	private static Check identity(JsonNode doc, CompareExpectation expect) {
		Set<String> arms = new TreeSet<>();
		doc.path("arms").forEach(a -> arms.add(a.asText()));
		boolean ok = expect.checkpointModel().equals(doc.path("model").asText(null))
				&& expect.servedModelName().equals(doc.path("served_as").asText(null))
				&& expect.engine().equals(doc.path("engine").asText(null))
				&& expect.selection().equals(doc.path("selection").asText(null))
				&& arms.containsAll(expect.arms());
		return new Check("compare_preflight_identity", ok,
				"model \"" + expect.checkpointModel() + "\", served_as \"" + expect.servedModelName() + "\", engine \""
						+ expect.engine() + "\", selection \"" + expect.selection() + "\", arms with "
						+ String.join(" and ", expect.arms()),
				"model " + show(doc.path("model")) + ", served_as " + show(doc.path("served_as")) + ", engine "
						+ show(doc.path("engine")) + ", selection " + show(doc.path("selection")) + ", arms "
						+ show(doc.path("arms")));
	}

	private static Check config(JsonNode config, CompareExpectation expect) {
		String url = config.path("raw_base_url").asText(null);
		String gpu = config.path("require_gpu_name").isTextual() ? config.path("require_gpu_name").asText() : "";
		boolean ok = url != null && expect.rawBaseUrl().equals(CompareExpectation.stripSlash(url))
				&& config.path("skip_engine_serve").isBoolean() && config.path("skip_engine_serve").asBoolean()
				&& expect.requireGpuName().orElse("").equals(gpu);
		return new Check("compare_preflight_config", ok,
				"config.raw_base_url \"" + expect.rawBaseUrl() + "\", skip_engine_serve true, require_gpu_name \""
						+ expect.requireGpuName().orElse("") + "\"",
				"config.raw_base_url " + show(config.path("raw_base_url")) + ", skip_engine_serve "
						+ show(config.path("skip_engine_serve")) + ", require_gpu_name " + show(config.path("require_gpu_name")));
	}

	private static Check runtime(JsonNode runtime) {
		List<String> missing = RUNTIME.stream().filter(key -> !runtime.path(key).isObject()).toList();
		return new Check("compare_preflight_runtime", missing.isEmpty(),
				"runtime." + String.join(", runtime.", RUNTIME) + " recorded",
				missing.isEmpty() ? "all recorded" : "missing runtime." + String.join(", runtime.", missing));
	}
}
