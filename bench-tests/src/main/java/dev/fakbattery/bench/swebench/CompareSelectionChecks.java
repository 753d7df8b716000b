package dev.fakbattery.bench.swebench;

import static dev.fakbattery.bench.support.JsonValues.show;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Check;

/**
 * The identity and selection checks of {@code compare.json}: schema, identity, exactly the two arms,
 * a selection of N distinct ids that both arms ran in the same order, and a passing tool-call probe
 * per arm.
 *
 * @since 0.1
 */
public final class CompareSelectionChecks {

	/** Check names, in order. */
	public static final List<String> NAMES = List.of("compare_schema", "compare_identity", "compare_arms",
			"selection_size", "selection_match", "arm_instance_ids", "tool_call_probes");

	private CompareSelectionChecks() {
	}

	static List<Check> of(JsonNode doc, CompareExpectation expect) {
		List<ArmRow> arms = ArmRow.all(doc);
		Optional<List<String>> selection = JsonValues.stringList(doc.path("selection_instance_ids"));
		return List.of(
				new Check("compare_schema", RunDirFiles.COMPARE_SCHEMA.equals(doc.path("schema").asText(null)),
						"schema \"" + RunDirFiles.COMPARE_SCHEMA + "\"", "schema " + show(doc.path("schema"))),
				identity(doc, arms, expect),
				new Check("compare_arms", arms.size() == 2 && new HashSet<>(arms.stream().map(ArmRow::arm).toList())
						.equals(new HashSet<>(expect.arms())), "exactly the arms " + String.join(", ", expect.arms()),
						"arms " + arms.stream().map(ArmRow::arm).toList()),
				selectionSize(doc.path("selection_instance_ids"), selection, expect.verifiedCount()),
				new Check("selection_match", doc.path("selection_instance_ids_match").isBoolean()
						&& doc.path("selection_instance_ids_match").asBoolean(), "selection_instance_ids_match true",
						"selection_instance_ids_match " + show(doc.path("selection_instance_ids_match"))),
				instanceIds(arms, selection.orElse(List.of()), expect.verifiedCount()),
				probes(doc.path("tool_call_probes"), expect));
	}

	private static Check identity(JsonNode doc, List<ArmRow> arms, CompareExpectation expect) {
		JsonNode rawEndpoint = arms.stream()
				.filter(a -> a.arm().equals(expect.rawArm()))
				.findFirst()
				.map(a -> a.agent().path("endpoint"))
				.orElse(MissingNode.getInstance());
		boolean ok = expect.checkpointModel().equals(doc.path("model").asText(null))
				&& expect.servedModelName().equals(doc.path("served_as").asText(null))
				&& expect.engine().equals(doc.path("engine").asText(null))
				&& expect.selection().equals(doc.path("selection").asText(null))
				&& rawEndpoint.isTextual() && expect.rawBaseUrl().equals(CompareExpectation.stripSlash(rawEndpoint.asText()));
		return new Check("compare_identity", ok,
				"model \"" + expect.checkpointModel() + "\", served_as \"" + expect.servedModelName() + "\", engine \""
						+ expect.engine() + "\", selection \"" + expect.selection() + "\", " + expect.rawArm()
						+ " endpoint \"" + expect.rawBaseUrl() + "\"",
				"model " + show(doc.path("model")) + ", served_as " + show(doc.path("served_as")) + ", engine "
						+ show(doc.path("engine")) + ", selection " + show(doc.path("selection")) + ", " + expect.rawArm()
						+ " endpoint " + show(rawEndpoint));
	}

	private static Check selectionSize(JsonNode raw, Optional<List<String>> selection, int count) {
		String expected = count + " distinct non-empty instance ids";
		if (selection.isEmpty()) {
			return new Check("selection_size", false, expected, "selection_instance_ids " + (raw.isMissingNode()
					? "missing"
					: "not a list of non-empty strings"));
		}
		int size = selection.get().size();
		int distinct = new HashSet<>(selection.get()).size();
		return new Check("selection_size", size == count && distinct == count, expected,
				size + " ids, " + distinct + " distinct");
	}

	private static Check instanceIds(List<ArmRow> arms, List<String> selection, int count) {
		return ArmCheck.of("arm_instance_ids", "each arm has agent.instances " + count
				+ " and agent.instance_ids equal to selection_instance_ids, in order", arms,
				a -> "instances=" + show(a.agent().path("instances")) + " " + compare(a.agent().path("instance_ids"), selection),
				a -> JsonValues.numberEquals(a.agent().path("instances"), count)
						&& JsonValues.stringList(a.agent().path("instance_ids")).filter(selection::equals).isPresent());
	}

	private static String compare(JsonNode ids, List<String> selection) {
		Optional<List<String>> list = JsonValues.stringList(ids);
		if (list.isEmpty()) {
			return "instance_ids " + (ids.isMissingNode() ? "missing" : "not a list of non-empty strings");
		}
		if (list.get().equals(selection)) {
			return "ids equal";
		}
		List<String> extra = new ArrayList<>(list.get());
		extra.removeAll(selection);
		List<String> absent = new ArrayList<>(selection);
		absent.removeAll(list.get());
		if (extra.isEmpty() && absent.isEmpty()) {
			return "ids differ in order or repeat";
		}
		return "ids differ (not in selection " + extra + ", absent " + absent + ")";
	}

	private static Check probes(JsonNode probes, CompareExpectation expect) {
		String expected = "a tool-call probe per arm with ok true and tool_calls > 0";
		List<String> observed = new ArrayList<>();
		boolean ok = true;
		for (String arm : expect.arms()) {
			JsonNode probe = probe(probes, arm);
			if (probe.isMissingNode()) {
				observed.add(arm + " probe missing");
				ok = false;
				continue;
			}
			boolean armOk = probe.path("ok").isBoolean() && probe.path("ok").asBoolean()
					&& probe.path("tool_calls").isIntegralNumber() && probe.path("tool_calls").asLong() > 0;
			ok &= armOk;
			observed.add(arm + " ok=" + show(probe.path("ok")) + " tool_calls=" + show(probe.path("tool_calls")));
		}
		return new Check("tool_call_probes", ok, expected, String.join("; ", observed));
	}

	/** The probe of {@code arm} in {@code tool_call_probes[]}, or a missing node. */
	static JsonNode probe(JsonNode probes, String arm) {
		for (JsonNode probe : probes) {
			if (arm.equals(probe.path("arm").asText(null))) {
				return probe;
			}
		}
		return MissingNode.getInstance();
	}
}
