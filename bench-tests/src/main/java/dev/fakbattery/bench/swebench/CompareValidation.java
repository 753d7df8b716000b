package dev.fakbattery.bench.swebench;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import dev.fakbattery.core.Check;

/**
 * The outcome of validating a compare run folder: every named check, and which of the required
 * files were missing (so a rung can report a run that never happened as pending rather than failed).
 *
 * @param runDir the folder
 * @param checks every check, in the order of {@link CompareValidator#CHECK_NAMES}
 * @param missingFiles the required files that do not exist
 * @since 0.1
 */
public record CompareValidation(Path runDir, List<Check> checks, List<String> missingFiles) {

	public CompareValidation {
		Objects.requireNonNull(runDir, "runDir");
		checks = List.copyOf(checks);
		missingFiles = List.copyOf(missingFiles);
	}

	/** Whether every check passed. */
	public boolean passed() {
		return checks.stream().allMatch(Check::passed);
	}

	public List<Check> failed() {
		return checks.stream().filter(c -> !c.passed()).toList();
	}

	/** Whether no required file exists: the run did not happen here. */
	public boolean nothingRan() {
		return missingFiles.size() == CompareValidator.REQUIRED_FILES.size();
	}
}
