package dev.fakbattery.bench.floors;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.wire.JsonDocument;

/**
 * Evaluates the floor artifacts of a folder: each file is MISSING (not there, no checks), FAIL
 * (unreadable, or a check failed) or PASS.
 *
 * @since 0.1
 */
public final class FloorChecks {

	private FloorChecks() {
	}

	/** All five floors under {@code floorsDir}, in {@link FloorArtifact} order. */
	public static List<FloorEvaluation> evaluate(Path floorsDir, int verifiedCount) {
		return Arrays.stream(FloorArtifact.values())
				.map(f -> evaluate(f, floorsDir.resolve(f.fileName()), verifiedCount))
				.toList();
	}

	/** One floor artifact at {@code file}; {@code verifiedCount} is the SWE-bench floor's instance count (20). */
	public static FloorEvaluation evaluate(FloorArtifact floor, Path file, int verifiedCount) {
		JsonDocument doc = JsonDocument.read(file);
		if (doc.isMissing()) {
			return new FloorEvaluation(floor, file, FloorStatus.MISSING, List.of(), "missing");
		}
		if (!doc.isObject()) {
			Check readable = new Check(floor.checkId() + ".json_object", false, "a JSON object", doc.detail());
			return new FloorEvaluation(floor, file, FloorStatus.FAIL, List.of(readable), doc.detail());
		}
		List<Check> checks = FloorRules.of(floor, doc.object(), verifiedCount);
		List<Check> failed = checks.stream().filter(c -> !c.passed()).toList();
		if (!failed.isEmpty()) {
			return new FloorEvaluation(floor, file, FloorStatus.FAIL, checks,
					"failed: " + failed.stream().map(Check::name).collect(Collectors.joining(", ")));
		}
		return new FloorEvaluation(floor, file, FloorStatus.PASS, checks, passDetail(floor, doc.object()),
				figures(floor, doc.object(), file));
	}

	/** The headline number of a floor, where it has one, as a typed measurement read from the artifact. */
	static List<Measurement.Measured> figures(FloorArtifact floor, JsonNode doc, Path file) {
		String source = file.getFileName() + " ";
		return switch (floor) {
			case SWEBENCH_FLOOR ->
				figure(floor, "instances", doc.path("dataset").path("instances"), "instances", source + "dataset.instances");
			case TURNTAX -> figure(floor, "turns_saved", doc.path("net").path("turns_saved"), "turns", source + "net.turns_saved");
			case SESSIONBENCH -> List.of();
			case FANBENCH -> figure(floor, "trials", doc.path("trials"), "trials", source + "trials");
			case RADIXBENCH -> figure(floor, "agents_cache_hit_rate", FloorRules.agents(doc.path("workloads")).path("cache_hit_rate"),
					"ratio", source + "workloads[agents].cache_hit_rate");
		};
	}

	private static List<Measurement.Measured> figure(FloorArtifact floor, String name, JsonNode node, String unit, String source) {
		var number = JsonValues.number(node);
		return number.isPresent() ? List.of(Measurement.of(floor.checkId() + "." + name, number.getAsDouble(), unit, source)) : List.of();
	}

	/** fak's pass details, for example {@code radixbench agents hit_rate=0.8667}. */
	private static String passDetail(FloorArtifact floor, JsonNode doc) {
		return switch (floor) {
			case SWEBENCH_FLOOR -> "fak SWE-bench floor: " + doc.path("dataset").path("instances") + " instances workers="
					+ doc.path("workers");
			case TURNTAX -> "turntax-airline turns_saved=" + doc.path("net").path("turns_saved");
			case SESSIONBENCH -> "sessionbench synthetic T=50 C=5 floor present";
			case FANBENCH -> "fanbench research grid/trials present";
			case RADIXBENCH -> "radixbench agents hit_rate="
					+ JsonValues.show(FloorRules.agents(doc.path("workloads")).path("cache_hit_rate"));
		};
	}
}
