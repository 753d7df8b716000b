package dev.fakbattery.bench.swebench;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One entry of {@code compare.json} {@code arms[]}: the agent half and the grade half.
 *
 * @param arm {@code agent.arm}, or {@code ?} when absent
 * @param agent the {@code agent} object (a missing node when absent)
 * @param grade the {@code grade} object (a missing node when absent)
 * @since 0.1
 */
public record ArmRow(String arm, JsonNode agent, JsonNode grade) {

	/** The rows of {@code compare.arms}, in file order; empty when it is not an array. */
	public static List<ArmRow> all(JsonNode compare) {
		List<ArmRow> rows = new ArrayList<>();
		for (JsonNode row : compare.path("arms")) {
			JsonNode arm = row.path("agent").path("arm");
			rows.add(new ArmRow(arm.isTextual() ? arm.asText() : "?", row.path("agent"), row.path("grade")));
		}
		return List.copyOf(rows);
	}
}
