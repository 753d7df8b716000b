package dev.fakbattery.core.contract;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * fak's per-arm and cross-arm measurement requirements of the run contract.
 */
final class MeasurementRequirements {

	private static final String[][] PER_ARM = {
		{ "pass_rate", "compare.json arms[].grade.resolve_pct from the official SWE-bench harness" },
		{ "safe_completion_rate", "serving witness plus compare artifact safety/completion fields" },
		{ "token_counts", "tool-call probes and tax witness usage prompt/completion/total tokens" },
		{ "tool_call_counts", "compare.json tool_call_probes[].tool_calls" },
		{ "latency", "compare.json arms[].agent.agent_sec, arms[].grade.grade_sec, and tax witness latency" },
		{ "cost_proxy", "total tokens plus wall seconds; no dollar claim without a separate price file" },
		{ "policy_blocks", "gateway serving/tax/compare evidence; raw arm records zero-or-not-applicable explicitly" } };

	private MeasurementRequirements() {
	}

	static ObjectNode build() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		ArrayNode perArm = node.putArray("per_arm");
		for (String[] requirement : PER_ARM) {
			ObjectNode item = perArm.addObject().put("name", requirement[0]).put("source", requirement[1]);
			item.putArray("required_for").add(RunContract.RAW_ARM).add(RunContract.GATEWAY_ARM);
		}
		ArrayNode crossArm = node.putArray("cross_arm");
		crossArm.addObject()
				.put("name", "same_task_ids")
				.put("source", "compare.json selection_instance_ids and selection_instance_ids_match");
		crossArm.addObject()
				.put("name", "evidence_completeness")
				.put("source", "final-check.json summary.required_passed/required_artifacts with no missing or failed required artifacts");
		return node;
	}
}
