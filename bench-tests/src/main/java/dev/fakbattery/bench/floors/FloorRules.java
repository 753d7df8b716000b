package dev.fakbattery.bench.floors;

import static dev.fakbattery.bench.support.JsonValues.show;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Check;

/**
 * The identity checks of each floor artifact, after fak's battery's {@code check_*_floor}
 * functions and ARTIFACTS.md section 1, one named check per rule.
 *
 * <ul>
 * <li>swebench: schema {@code fak-swebench-compare/1}, {@code dataset.instances} N (20),
 * {@code workers [1,2,4,8]}, at least 4 {@code families}.</li>
 * <li>turntax: {@code provenance.slice_id "turntax-airline"}, {@code consistency_check "ok"},
 * {@code net.turns_saved} recorded, {@code safety_floor.injections_admitted_fak} and
 * {@code destructive_executed_fak} 0.</li>
 * <li>sessionbench: engine starting with {@code fak sessionbench} (seed script), model
 * {@code smollm2-135m [synthetic]}, prefix 2048, decode_per_turn 32, result_per_turn 64, and a
 * cell T=50 C=5 P=2048 D=32 R=64 (seed script) carrying
 * {@code prefill_tokens{a,b,c,a_over_c,b_over_c}} (ARTIFACTS.md).</li>
 * <li>fanbench: {@code profile.name "research-goal"}, trials 12, agent_grid containing 1024,
 * prefix_grid containing 2048, non-empty cells.</li>
 * <li>radixbench: engine containing {@code radixbench}, model starting with
 * {@code synthetic-llama}, {@code policy_eviction.demonstrated true}, the {@code agents}
 * workload's cache_hit_rate recorded.</li>
 * </ul>
 *
 * <p>Stricter than fak in one respect: a number must be a JSON number ({@code true} is not 1,
 * {@code "0"} is not 0).
 *
 * @since 0.1
 */
final class FloorRules {

	private static final List<String> PREFILL_FIELDS = List.of("a", "b", "c", "a_over_c", "b_over_c");

	private FloorRules() {
	}

	static List<Check> of(FloorArtifact floor, JsonNode doc, int verifiedCount) {
		Rule r = new Rule(floor);
		return switch (floor) {
			case SWEBENCH_FLOOR -> swebench(r, doc, verifiedCount);
			case TURNTAX -> turntax(r, doc);
			case SESSIONBENCH -> sessionbench(r, doc);
			case FANBENCH -> fanbench(r, doc);
			case RADIXBENCH -> radixbench(r, doc);
		};
	}

	private static List<Check> swebench(Rule r, JsonNode doc, int n) {
		JsonNode families = doc.path("families");
		return List.of(
				r.text("schema", "schema", doc.path("schema"), "fak-swebench-compare/1"),
				r.number("dataset_instances", "dataset.instances", doc.path("dataset").path("instances"), n),
				r.check("workers", JsonValues.numberArrayEquals(doc.path("workers"), List.of(1L, 2L, 4L, 8L)),
						"workers [1,2,4,8]", "workers " + show(doc.path("workers"))),
				r.check("families", families.isArray() && families.size() >= 4, "at least 4 families",
						families.isArray() ? families.size() + " families" : "families " + show(families)));
	}

	private static List<Check> turntax(Rule r, JsonNode doc) {
		JsonNode safety = doc.path("safety_floor");
		return List.of(
				r.text("slice_id", "provenance.slice_id", doc.path("provenance").path("slice_id"), "turntax-airline"),
				r.text("consistency_check", "consistency_check", doc.path("consistency_check"), "ok"),
				r.recorded("turns_saved", "net.turns_saved", doc.path("net").path("turns_saved")),
				r.number("injections_admitted_fak", "safety_floor.injections_admitted_fak",
						safety.path("injections_admitted_fak"), 0),
				r.number("destructive_executed_fak", "safety_floor.destructive_executed_fak",
						safety.path("destructive_executed_fak"), 0));
	}

	private static List<Check> sessionbench(Rule r, JsonNode doc) {
		JsonNode engine = doc.path("engine");
		return List.of(
				r.check("engine", engine.isTextual() && engine.asText().startsWith("fak sessionbench"),
						"engine starting with \"fak sessionbench\"", "engine " + show(engine)),
				r.text("model", "model", doc.path("model"), "smollm2-135m [synthetic]"),
				r.number("prefix", "prefix", doc.path("prefix"), 2048),
				r.number("decode_per_turn", "decode_per_turn", doc.path("decode_per_turn"), 32),
				r.number("result_per_turn", "result_per_turn", doc.path("result_per_turn"), 64),
				sessionCell(r, doc.path("cells")));
	}

	private static Check sessionCell(Rule r, JsonNode cells) {
		String expected = "a cell with turns 50, agents 5, prefix 2048, decode 32, result 64 and prefill_tokens."
				+ String.join(", prefill_tokens.", PREFILL_FIELDS);
		JsonNode cell = null;
		for (JsonNode row : cells) {
			if (JsonValues.numberEquals(row.path("turns"), 50) && JsonValues.numberEquals(row.path("agents"), 5)
					&& JsonValues.numberEquals(row.path("prefix"), 2048) && JsonValues.numberEquals(row.path("decode"), 32)
					&& JsonValues.numberEquals(row.path("result"), 64)) {
				cell = row;
				break;
			}
		}
		if (cell == null) {
			return r.check("cell_t50_c5", false, expected, "no such cell among " + cells.size() + " cells");
		}
		JsonNode prefill = cell.path("prefill_tokens");
		List<String> missing = PREFILL_FIELDS.stream().filter(f -> !prefill.path(f).isNumber()).toList();
		return r.check("cell_t50_c5", missing.isEmpty(), expected, missing.isEmpty()
				? "cell found with prefill_tokens"
				: "cell found without prefill_tokens." + String.join(", prefill_tokens.", missing));
	}

	private static List<Check> fanbench(Rule r, JsonNode doc) {
		JsonNode cells = doc.path("cells");
		return List.of(
				r.text("profile_name", "profile.name", doc.path("profile").path("name"), "research-goal"),
				r.number("trials", "trials", doc.path("trials"), 12),
				r.check("agent_grid", JsonValues.arrayContainsNumber(doc.path("agent_grid"), 1024), "agent_grid containing 1024",
						"agent_grid " + show(doc.path("agent_grid"))),
				r.check("prefix_grid", JsonValues.arrayContainsNumber(doc.path("prefix_grid"), 2048),
						"prefix_grid containing 2048", "prefix_grid " + show(doc.path("prefix_grid"))),
				r.check("cells", cells.isArray() && !cells.isEmpty(), "a non-empty cells[]",
						cells.isArray() ? cells.size() + " cells" : "cells " + show(cells)));
	}

	private static List<Check> radixbench(Rule r, JsonNode doc) {
		JsonNode engine = doc.path("engine");
		JsonNode model = doc.path("model");
		JsonNode demonstrated = doc.path("policy_eviction").path("demonstrated");
		return List.of(
				r.check("engine", engine.isTextual() && engine.asText().contains("radixbench"),
						"engine containing \"radixbench\"", "engine " + show(engine)),
				r.check("model", model.isTextual() && model.asText().startsWith("synthetic-llama"),
						"model starting with \"synthetic-llama\"", "model " + show(model)),
				r.check("policy_eviction", demonstrated.isBoolean() && demonstrated.asBoolean(),
						"policy_eviction.demonstrated true", "policy_eviction.demonstrated " + show(demonstrated)),
				r.recorded("agents_cache_hit_rate", "workloads[name=agents].cache_hit_rate",
						agents(doc.path("workloads")).path("cache_hit_rate")));
	}

	/** The {@code agents} workload row, or a missing node. */
	static JsonNode agents(JsonNode workloads) {
		for (JsonNode row : workloads) {
			if ("agents".equals(row.path("name").textValue())) {
				return row;
			}
		}
		return MissingNode.getInstance();
	}
}
