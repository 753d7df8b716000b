package dev.fakbattery.bench.swebench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.fakbattery.core.Check;
import dev.fakbattery.wire.JsonDocument;

/**
 * Strict validator of a SWE-bench-20 raw-vLLM vs fak-gateway run folder, after fak's
 * {@code check_swebench_compare} and {@code check_swebench_compare_preflight}, one named check per
 * rule so that a broken run names exactly what is wrong.
 *
 * <p>Checks, in order: {@link ComparePreflightChecks#NAMES}, {@link CompareSelectionChecks#NAMES},
 * {@link CompareGradeChecks#NAMES}, {@link RunDirChecks#NAMES}. A missing or unreadable
 * {@code compare.json} fails all of its checks with that reason.
 *
 * @since 0.1
 */
public final class CompareValidator {

	/** Every check name, in order. */
	public static final List<String> CHECK_NAMES = Stream.of(ComparePreflightChecks.NAMES, CompareSelectionChecks.NAMES,
			CompareGradeChecks.NAMES, RunDirChecks.NAMES).flatMap(List::stream).toList();

	/** The files a complete run leaves. */
	public static final List<String> REQUIRED_FILES = List.of(RunDirFiles.COMPARE_PREFLIGHT, RunDirFiles.COMPARE,
			RunDirFiles.COMPARE_MD, RunDirFiles.DONE_RC);

	private CompareValidator() {
	}

	public static CompareValidation validate(Path runDir, CompareExpectation expect) {
		List<Check> checks = new ArrayList<>(
				ComparePreflightChecks.of(JsonDocument.read(runDir.resolve(RunDirFiles.COMPARE_PREFLIGHT)), expect));
		JsonDocument compare = JsonDocument.read(runDir.resolve(RunDirFiles.COMPARE));
		if (compare.isObject()) {
			checks.addAll(CompareSelectionChecks.of(compare.object(), expect));
			checks.addAll(CompareGradeChecks.of(compare.object(), expect));
		}
		else {
			checks.addAll(Unavailable.checks(CompareSelectionChecks.NAMES, compare));
			checks.addAll(Unavailable.checks(CompareGradeChecks.NAMES, compare));
		}
		checks.addAll(RunDirChecks.of(runDir));
		List<String> missing = REQUIRED_FILES.stream().filter(f -> !Files.exists(runDir.resolve(f))).toList();
		return new CompareValidation(runDir, checks, missing);
	}
}
