package dev.fakbattery.bench.floors;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;

/**
 * The checks of one floor artifact and their outcome.
 *
 * @param floor which floor
 * @param file the artifact file
 * @param status PASS, FAIL or MISSING
 * @param checks the named checks; empty when the file is missing
 * @param detail a one-line summary: fak's pass detail, the failed check names, or {@code missing}
 * @param figures the floor's headline numbers read from a passing artifact; empty otherwise
 * @since 0.1
 */
public record FloorEvaluation(FloorArtifact floor, Path file, FloorStatus status, List<Check> checks, String detail,
		List<Measurement.Measured> figures) {

	/** An evaluation without figures (missing, unreadable or failed artifacts). */
	public FloorEvaluation(FloorArtifact floor, Path file, FloorStatus status, List<Check> checks, String detail) {
		this(floor, file, status, checks, detail, List.of());
	}

	public FloorEvaluation {
		Objects.requireNonNull(floor, "floor");
		Objects.requireNonNull(file, "file");
		Objects.requireNonNull(status, "status");
		checks = List.copyOf(checks);
		Objects.requireNonNull(detail, "detail");
		figures = List.copyOf(figures);
	}

	public List<Check> failed() {
		return checks.stream().filter(c -> !c.passed()).toList();
	}
}
