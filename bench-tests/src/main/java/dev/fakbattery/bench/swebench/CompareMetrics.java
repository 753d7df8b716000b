package dev.fakbattery.bench.swebench;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Measurement;

/**
 * Extracts the run contract's {@code metrics_required} per arm from {@code compare.json}. A value
 * that is not there is a {@link Measurement.Pending} saying where it comes from, never a zero.
 *
 * <p>Sources: {@code completed} from {@code agent.completed}; {@code resolved}, {@code resolve_pct}
 * and {@code pass_rate} (= resolve_pct) from the grade, only when the official grade is available;
 * {@code tool_call_counts} from the arm's tool-call probe; {@code token_counts.*} from
 * {@code agent.token_counts} when the run recorded them, else from the probe (one request only, said
 * so in the source); {@code latency.agent_sec} and {@code latency.grade_sec} from the arm;
 * {@code cost_proxy.total_tokens} only from run-level token counts; {@code cost_proxy.wall_seconds}
 * = agent_sec + grade_sec; {@code policy_blocks} from {@code policy_blocks} on the arm or its agent.
 * {@code safe_completion_rate}, {@code latency.gateway_tax} and {@code evidence_completeness} are not
 * in compare.json and are always pending here.
 *
 * @since 0.1
 */
public final class CompareMetrics {

	/** The seed contract's {@code metrics_required}, in its order. */
	public static final List<String> METRICS_REQUIRED = List.of("completed", "pass_rate", "resolved", "resolve_pct",
			"safe_completion_rate", "tool_call_counts", "token_counts.prompt_tokens", "token_counts.completion_tokens",
			"token_counts.total_tokens", "latency.agent_sec", "latency.grade_sec", "latency.gateway_tax",
			"cost_proxy.total_tokens", "cost_proxy.wall_seconds", "policy_blocks", "evidence_completeness");

	/**
	 * Metrics of the contract that another artifact of the battery measures, not compare.json: the rung refers to
	 * that artifact instead of recording them as missing here.
	 */
	public static final java.util.Map<String, String> MEASURED_ELSEWHERE = java.util.Map.of(
			"safe_completion_rate", "the serving witness and the compare safety fields",
			"latency.gateway_tax", "the tax witness adjudication-tax-witness.json",
			"evidence_completeness", "final-check.json summary (cross-arm)");

	private CompareMetrics() {
	}

	/** Whether {@code measurement} of {@code arm} is one {@link #MEASURED_ELSEWHERE}. */
	public static boolean measuredElsewhere(String arm, Measurement measurement) {
		return MEASURED_ELSEWHERE.keySet().stream().anyMatch(metric -> measurement.name().equals(arm + "." + metric));
	}

	/** One {@link ArmMetrics} per expected arm, raw first; an arm absent from the file is all pending. */
	public static List<ArmMetrics> extract(JsonNode compare, CompareExpectation expect) {
		List<ArmMetrics> result = new ArrayList<>();
		for (String arm : expect.arms()) {
			ArmRow row = ArmRow.all(compare)
					.stream()
					.filter(a -> a.arm().equals(arm))
					.findFirst()
					.orElse(new ArmRow(arm, MissingNode.getInstance(), MissingNode.getInstance()));
			JsonNode probe = CompareSelectionChecks.probe(compare.path("tool_call_probes"), arm);
			JsonNode armNode = armNode(compare, arm);
			result.add(new ArmMetrics(arm, new Extraction(row, probe, armNode).all()));
		}
		return List.copyOf(result);
	}

	private static JsonNode armNode(JsonNode compare, String arm) {
		for (JsonNode row : compare.path("arms")) {
			if (arm.equals(row.path("agent").path("arm").asText(null))) {
				return row;
			}
		}
		return MissingNode.getInstance();
	}

	private record Extraction(ArmRow row, JsonNode probe, JsonNode armNode) {

		private static final String FILE = "compare.json ";

		List<Measurement> all() {
			JsonNode grade = row.grade();
			boolean graded = grade.path("available").asBoolean(false);
			JsonNode agentTokens = row.agent().path("token_counts");
			List<Measurement> m = new ArrayList<>();
			m.add(value("completed", row.agent().path("completed"), "instances", "agent.completed"));
			m.add(graded ? value("pass_rate", grade.path("resolve_pct"), "%", "grade.resolve_pct") : ungraded("pass_rate"));
			m.add(graded ? value("resolved", grade.path("resolved"), "instances", "grade.resolved") : ungraded("resolved"));
			m.add(graded ? value("resolve_pct", grade.path("resolve_pct"), "%", "grade.resolve_pct") : ungraded("resolve_pct"));
			m.add(elsewhere("safe_completion_rate"));
			m.add(probeValue("tool_call_counts", "tool_calls", "calls"));
			for (String kind : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
				m.add(agentTokens.path(kind).isNumber()
						? value("token_counts." + kind, agentTokens.path(kind), "tokens", "agent.token_counts." + kind)
						: probeValue("token_counts." + kind, kind, "tokens"));
			}
			m.add(value("latency.agent_sec", row.agent().path("agent_sec"), "s", "agent.agent_sec"));
			m.add(value("latency.grade_sec", grade.path("grade_sec"), "s", "grade.grade_sec"));
			m.add(elsewhere("latency.gateway_tax"));
			m.add(value("cost_proxy.total_tokens", agentTokens.path("total_tokens"), "tokens", "agent.token_counts.total_tokens"));
			m.add(wallSeconds());
			m.add(policyBlocks());
			m.add(elsewhere("evidence_completeness"));
			return m;
		}

		private String name(String metric) {
			return row.arm() + "." + metric;
		}

		private Measurement value(String metric, JsonNode node, String unit, String field) {
			OptionalDouble number = JsonValues.number(node);
			if (number.isPresent()) {
				return Measurement.of(name(metric), number.getAsDouble(), unit, FILE + "arms[" + row.arm() + "]." + field);
			}
			return Measurement.pending(name(metric), FILE + "arms[" + row.arm() + "]." + field + " is not recorded",
					"record it in compare.json for arm " + row.arm());
		}

		private Measurement probeValue(String metric, String field, String unit) {
			OptionalDouble number = JsonValues.number(probe.path(field));
			String source = FILE + "tool_call_probes[" + row.arm() + "]." + field + " (one probe request)";
			if (number.isPresent()) {
				return Measurement.of(name(metric), number.getAsDouble(), unit, source);
			}
			return Measurement.pending(name(metric), source + " is not recorded",
					"record run-level token counts in compare.json arms[].agent.token_counts");
		}

		private Measurement ungraded(String metric) {
			return Measurement.pending(name(metric), "the official grade of arm " + row.arm() + " is not available",
					"grade the arm with the official SWE-bench harness (grade.available true)");
		}

		private Measurement elsewhere(String metric) {
			return Measurement.pending(name(metric), metric + " is not recorded in compare.json",
					"take it from " + MEASURED_ELSEWHERE.get(metric));
		}

		private Measurement wallSeconds() {
			OptionalDouble agent = JsonValues.number(row.agent().path("agent_sec"));
			OptionalDouble grade = JsonValues.number(row.grade().path("grade_sec"));
			if (agent.isPresent() && grade.isPresent()) {
				return Measurement.of(name("cost_proxy.wall_seconds"), agent.getAsDouble() + grade.getAsDouble(), "s",
						FILE + "arms[" + row.arm() + "].agent.agent_sec + grade.grade_sec");
			}
			return Measurement.pending(name("cost_proxy.wall_seconds"), "agent_sec or grade_sec of arm " + row.arm()
					+ " is not recorded", "record both in compare.json");
		}

		private Measurement policyBlocks() {
			JsonNode node = armNode.path("policy_blocks").isNumber()
					? armNode.path("policy_blocks")
					: row.agent().path("policy_blocks");
			String field = armNode.path("policy_blocks").isNumber() ? "policy_blocks" : "agent.policy_blocks";
			if (node.isNumber()) {
				return Measurement.of(name("policy_blocks"), node.asDouble(), "blocks", FILE + "arms[" + row.arm() + "]." + field);
			}
			return Measurement.pending(name("policy_blocks"), "policy_blocks of arm " + row.arm() + " is not recorded",
					"record the gateway's deny count per run; raw-vllm records 0 or n/a explicitly");
		}
	}
}
