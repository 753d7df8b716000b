package dev.fakbattery.core.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;

/**
 * Validates a run contract, ours or fak's: every check is computed from the document and can
 * fail (the self-tests feed broken contracts).
 *
 * @since 0.1
 */
final class RunContractValidator {

	public static final String SCHEMA = ArtifactId.RUN_CONTRACT.schema();
	static final List<String> SHARED_CONFIG_KEYS = List.of("checkpoint_model", "served_model_name", "engine", "selection",
			"verified_count", "raw_vllm_base_url", "gateway_base_url", "context_length", "quant", "tax_count", "budget");

	private RunContractValidator() {
	}

	public static List<Check> validate(JsonNode doc) {
		List<Check> checks = new ArrayList<>();
		checks.add(new Check("schema", SCHEMA.equals(doc.path("schema").asText()), SCHEMA, doc.path("schema").asText("<absent>")));
		JsonNode claim = doc.path("result_claim_allowed");
		checks.add(new Check("result_claim_disabled", claim.isBoolean() && !claim.asBoolean(),
				"result_claim_allowed false (only the final gate allows a claim)", claim.toString()));
		JsonNode shared = doc.path("shared_config");
		List<String> absent = SHARED_CONFIG_KEYS.stream().filter(k -> shared.path(k).isMissingNode() || shared.path(k).isNull()).toList();
		checks.add(new Check("shared_config_complete", absent.isEmpty(), "shared_config " + SHARED_CONFIG_KEYS,
				absent.isEmpty() ? "all present" : "missing " + absent));
		checks.add(arms(doc.path("arms"), shared.path("served_model_name").asText()));
		Set<String> metrics = texts(doc.path("metrics_required"));
		Set<String> lacking = new TreeSet<>(RunContract.METRICS_REQUIRED);
		lacking.removeAll(metrics);
		checks.add(new Check("metrics_required", lacking.isEmpty(), "fak's " + RunContract.METRICS_REQUIRED.size() + " metrics",
				lacking.isEmpty() ? metrics.size() + " metrics" : "missing " + lacking));
		checks.add(perArm(doc.path("measurement_requirements").path("per_arm")));
		JsonNode required = doc.path("required_artifacts");
		checks.add(new Check("required_artifacts", required.isObject() && required.has("final_check") && required.size() > 1,
				"required_artifacts naming the final check and the rung artifacts",
				required.isObject() ? required.size() + " entries" : "<absent>"));
		JsonNode frame = doc.path("claim_frame");
		checks.add(new Check("claim_frame", !frame.path("allowed").asText().isBlank() && frame.path("must_not_claim").size() > 0,
				"claim_frame.allowed and a non-empty must_not_claim", frame.toString()));
		String honesty = doc.path("honesty").asText();
		checks.add(new Check("honesty", honesty.contains("not a benchmark result"),
				"honesty saying the contract is not a benchmark result", honesty.isEmpty() ? "<absent>" : honesty));
		return checks;
	}

	private static Check arms(JsonNode arms, String servedModel) {
		List<String> ids = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		String rawEndpoint = null;
		for (JsonNode arm : arms) {
			String id = arm.path("id").asText();
			ids.add(id);
			for (String field : List.of("model", "endpoint", "engine", "request_path")) {
				if (arm.path(field).asText().isBlank()) {
					problems.add(id + "." + field + " empty");
				}
			}
			if (!arm.path("model").asText().equals(servedModel)) {
				problems.add(id + ".model [" + arm.path("model").asText() + "] is not the served model [" + servedModel + "]");
			}
			if (RunContract.RAW_ARM.equals(id)) {
				rawEndpoint = arm.path("endpoint").asText();
			}
		}
		for (JsonNode arm : arms) {
			if (RunContract.GATEWAY_ARM.equals(arm.path("id").asText()) && !arm.path("upstream").asText().equals(rawEndpoint)) {
				problems.add(
						"fak-gateway.upstream [" + arm.path("upstream").asText() + "] is not the raw arm endpoint [" + rawEndpoint + "]");
			}
		}
		boolean idsOk = ids.equals(List.of(RunContract.RAW_ARM, RunContract.GATEWAY_ARM));
		if (!idsOk) {
			problems.add(0, "arm ids " + ids);
		}
		return new Check("arms", problems.isEmpty(), "arms [raw-vllm, fak-gateway] on the served model, gateway upstream = raw endpoint",
				problems.isEmpty() ? "ok" : String.join("; ", problems));
	}

	private static Check perArm(JsonNode perArm) {
		List<String> incomplete = new ArrayList<>();
		for (JsonNode requirement : perArm) {
			Set<String> arms = texts(requirement.path("required_for"));
			if (!arms.containsAll(List.of(RunContract.RAW_ARM, RunContract.GATEWAY_ARM)) || requirement.path("source").asText().isBlank()) {
				incomplete.add(requirement.path("name").asText("<unnamed>"));
			}
		}
		boolean ok = perArm.size() > 0 && incomplete.isEmpty();
		return new Check("measurement_requirements", ok, "per_arm requirements with a source, required for both arms",
				perArm.size() == 0 ? "<absent>" : incomplete.isEmpty() ? perArm.size() + " requirements" : "incomplete " + incomplete);
	}

	private static Set<String> texts(JsonNode array) {
		Set<String> values = new TreeSet<>();
		array.forEach(v -> values.add(v.asText()));
		return values;
	}
}
