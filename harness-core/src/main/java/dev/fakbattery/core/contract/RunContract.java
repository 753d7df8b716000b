package dev.fakbattery.core.contract;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * Builds the run contract (rung 0) from configuration, with fak's schema id and field names
 * ({@code fak.glm52-vllm-raw-fak-run-contract.v1}). A contract is not a result:
 * {@code result_claim_allowed} is always false here; only the final gate can allow a claim.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class RunContract {

	/** fak's 16 metrics, in its order. */
	public static final List<String> METRICS_REQUIRED = List.of("completed", "pass_rate", "resolved", "resolve_pct",
			"safe_completion_rate", "tool_call_counts", "token_counts.prompt_tokens", "token_counts.completion_tokens",
			"token_counts.total_tokens", "latency.agent_sec", "latency.grade_sec", "latency.gateway_tax",
			"cost_proxy.total_tokens", "cost_proxy.wall_seconds", "policy_blocks", "evidence_completeness");

	public static final String RAW_ARM = "raw-vllm";
	public static final String GATEWAY_ARM = "fak-gateway";
	public static final String EMBEDDED_ENGINE = "embedded:engine-double";
	public static final String EMBEDDED_GATEWAY = "embedded:reference-gateway";
	/** Model the engine double serves (the wire fixtures' model). */
	public static final String EMBEDDED_MODEL = "Qwen/Qwen2.5-7B-Instruct";
	static final String HONESTY = "This is a run contract, not a benchmark result. It records the identity, arms, "
			+ "budgets, required metrics, and artifact boundaries of the raw-engine vs gateway comparison.";

	private RunContract() {
	}

	/** Where the two arms point: a configured URL, or the embedded default. */
	public record Endpoints(String raw, String gateway, boolean embedded) {
		public static Endpoints from(HarnessConfig config) {
			Optional<String> raw = config.v1Url(HarnessConstants.BASE_URL)
					.map(Object::toString)
					.or(() -> config.string(HarnessConstants.ENGINE_CMD).map(cmd -> "started from engine.cmd"))
					.or(() -> config.string(HarnessConstants.ENGINE_IMAGE).map(image -> "started from engine.image " + image));
			String gateway = config.v1Url(HarnessConstants.GATEWAY_URL)
					.map(Object::toString)
					.or(() -> config.string(HarnessConstants.GATEWAY_CMD).map(cmd -> "started from gateway.cmd"))
					.orElse(EMBEDDED_GATEWAY);
			return new Endpoints(raw.orElse(EMBEDDED_ENGINE), gateway, raw.isEmpty());
		}
	}

	/**
	 * The contract of a run of {@code model} on {@code endpoints}, with the engine's context length and precision
	 * as the caller established them (configured, or reported by the engine): never a default passed off as data.
	 */
	public static ObjectNode build(HarnessConfig config, String model, Endpoints endpoints, int contextLength, String quant) {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("status", "PENDING_MEASUREMENT");
		doc.put("result_claim_allowed", false);
		ArrayNode when = doc.putArray("result_claim_allowed_when");
		List.of("preflight artifact passes", "raw endpoint and gateway endpoint both pass tool-call probes",
				"both arms run the same selected SWE-bench instance IDs", "official SWE-bench harness grades both arms",
				"DONE.rc is 0", "final gate status is COMPLETE with no SIMULATED artifact").forEach(when::add);
		String engine = config.engine().id();
		ObjectNode shared = doc.putObject("shared_config");
		shared.put("checkpoint_model", config.string(HarnessConstants.CHECKPOINT_MODEL, model));
		shared.put("served_model_name", model);
		shared.put("engine", engine);
		shared.put("selection", config.get(ConfigKeys.SELECTION));
		shared.put("verified_count", 20);
		shared.put("same_task_ids_required", true);
		shared.put("tool_calls_required", true);
		shared.put("official_grade_required", true);
		shared.put("raw_vllm_base_url", endpoints.raw());
		shared.put("gateway_base_url", endpoints.gateway());
		shared.put("context_length", contextLength);
		shared.put("quant", quant);
		shared.put("require_gpu_name", config.string(HarnessConstants.GPU_NAME_REQUIRED).orElse(null));
		shared.put("tax_count", config.get(ConfigKeys.TAX_COUNT));
		ObjectNode budget = shared.putObject("budget");
		budget.put("workers", config.get(ConfigKeys.SWEBENCH_WORKERS));
		budget.put("max_iterations", 0);
		budget.put("agent_timeout_sec", config.get(ConfigKeys.SWEBENCH_AGENT_TIMEOUT_SEC));
		budget.put("grade_workers", config.get(ConfigKeys.SWEBENCH_GRADE_WORKERS));
		budget.put("grade_timeout_sec", config.get(ConfigKeys.SWEBENCH_GRADE_TIMEOUT_SEC));
		budget.put("implicit_retries", 0);
		ArrayNode arms = doc.putArray("arms");
		arms.addObject()
				.put("id", RAW_ARM)
				.put("model", model)
				.put("endpoint", endpoints.raw())
				.put("engine", engine)
				.put("request_path", "direct OpenAI-compatible /v1 endpoint");
		arms.addObject()
				.put("id", GATEWAY_ARM)
				.put("model", model)
				.put("endpoint", endpoints.gateway())
				.put("upstream", endpoints.raw())
				.put("engine", "gateway under test fronting the same raw " + engine + " endpoint")
				.put("request_path", "OpenAI-compatible /v1 through the adjudicating gateway");
		ObjectNode frame = doc.putObject("claim_frame");
		frame.put("allowed", "same-model harness gain");
		ArrayNode mustNot = frame.putArray("must_not_claim");
		List.of("model superiority over other model families", "any SIMULATED (engine double) number as a vLLM or SGLang result",
				"engine throughput result before the live artifacts pass").forEach(mustNot::add);
		METRICS_REQUIRED.forEach(doc.putArray("metrics_required")::add);
		doc.set("measurement_requirements", MeasurementRequirements.build());
		ObjectNode completeness = doc.putObject("evidence_completeness");
		completeness.put("final_check", ArtifactFiles.FINAL_CHECK_JSON);
		completeness.put("complete_when", "summary.complete == true and required_missing/required_failed are empty");
		completeness.put("authority_link_required", true);
		ObjectNode required = doc.putObject("required_artifacts");
		for (ArtifactId artifact : ArtifactId.requiredArtifacts()) {
			required.put(artifact.id(), artifact.fileName());
		}
		required.put("final_check", ArtifactFiles.FINAL_CHECK_JSON);
		doc.putObject("commands").put("battery", dev.fakbattery.core.Provenance.reproduceCommand(config));
		doc.put("honesty", HONESTY);
		return doc;
	}
}
