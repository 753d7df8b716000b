package dev.fakbattery.bench.swebench;

import static dev.fakbattery.bench.support.JsonValues.show;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Check;

/**
 * The grading checks of {@code compare.json}, each over every arm: N submitted, the official grade
 * available, exit code 0, an arm-specific run id, report and log recorded, resolved ids inside the
 * selection and a resolved count that matches them.
 *
 * @since 0.1
 */
public final class CompareGradeChecks {

	/** Check names, in order. */
	public static final List<String> NAMES = List.of("arm_submitted", "grade_available", "grade_rc", "grade_run_id",
			"grade_outputs", "resolved_subset", "resolved_count");

	private CompareGradeChecks() {
	}

	static List<Check> of(JsonNode doc, CompareExpectation expect) {
		List<ArmRow> arms = ArmRow.all(doc);
		int n = expect.verifiedCount();
		Set<String> selection = new HashSet<>(JsonValues.stringList(doc.path("selection_instance_ids")).orElse(List.of()));
		return List.of(
				ArmCheck.of("arm_submitted", "grade.submitted " + n + " and grade.total " + n + " per arm", arms,
						a -> "submitted=" + show(g(a, "submitted")) + " total=" + show(g(a, "total")),
						a -> JsonValues.numberEquals(g(a, "submitted"), n) && JsonValues.numberEquals(g(a, "total"), n)),
				ArmCheck.of("grade_available", "grade.available true and grade.resolve_pct recorded per arm", arms,
						a -> "available=" + show(g(a, "available")) + " resolve_pct=" + show(g(a, "resolve_pct")),
						a -> g(a, "available").isBoolean() && g(a, "available").asBoolean() && g(a, "resolve_pct").isNumber()),
				ArmCheck.of("grade_rc", "grade.grade_rc 0 per arm", arms, a -> "grade_rc=" + show(g(a, "grade_rc")),
						a -> JsonValues.numberEquals(g(a, "grade_rc"), 0)),
				ArmCheck.of("grade_run_id", "grade.run_id \"swecmp-<arm>\" per arm", arms,
						a -> "run_id=" + show(g(a, "run_id")), a -> ("swecmp-" + a.arm()).equals(g(a, "run_id").asText(null))),
				ArmCheck.of("grade_outputs", "grade.report_path and grade.grade_log recorded per arm", arms,
						a -> "report_path " + recorded(g(a, "report_path")) + ", grade_log " + recorded(g(a, "grade_log")),
						a -> JsonValues.text(g(a, "report_path")).isPresent() && JsonValues.text(g(a, "grade_log")).isPresent()),
				ArmCheck.of("resolved_subset", "grade.resolved_ids a list of ids inside selection_instance_ids", arms,
						a -> subset(g(a, "resolved_ids"), selection), a -> outside(g(a, "resolved_ids"), selection)
								.map(List::isEmpty)
								.orElse(false)),
				ArmCheck.of("resolved_count", "grade.resolved equal to the number of grade.resolved_ids, 0 to " + n,
						arms, a -> "resolved=" + show(g(a, "resolved")) + " resolved_ids=" + size(g(a, "resolved_ids")),
						a -> resolvedMatches(a, n)));
	}

	private static JsonNode g(ArmRow arm, String field) {
		return arm.grade().path(field);
	}

	private static String recorded(JsonNode node) {
		return JsonValues.text(node).isPresent() ? "recorded" : show(node);
	}

	private static Optional<List<String>> outside(JsonNode ids, Set<String> selection) {
		return JsonValues.stringList(ids).map(list -> list.stream().filter(id -> !selection.contains(id)).toList());
	}

	private static String subset(JsonNode ids, Set<String> selection) {
		Optional<List<String>> outside = outside(ids, selection);
		if (outside.isEmpty()) {
			return "resolved_ids " + (ids.isMissingNode() ? "missing" : "not a list of non-empty strings");
		}
		return outside.get().isEmpty()
				? ids.size() + " resolved, all in selection"
				: ids.size() + " resolved, outside selection " + outside.get();
	}

	private static String size(JsonNode ids) {
		return ids.isArray() ? String.valueOf(ids.size()) : show(ids);
	}

	private static boolean resolvedMatches(ArmRow arm, int n) {
		JsonNode resolved = g(arm, "resolved");
		JsonNode ids = g(arm, "resolved_ids");
		return resolved.isIntegralNumber() && ids.isArray() && resolved.asLong() == ids.size()
				&& resolved.asLong() >= 0 && resolved.asLong() <= n;
	}
}
