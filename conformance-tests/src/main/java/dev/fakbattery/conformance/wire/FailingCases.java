package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The failing cases of one rule run (each fixture, each status), so that a run checks every case and reports each
 * rather than stopping at the first: {@link WireConformanceKit#require} adds to the run on its thread, and
 * {@link EvidenceExtension} ends the run with one {@link AssertionFailedError} listing them all.
 */
final class FailingCases {

	private final List<String> cases = new ArrayList<>();

	void add(String failure) {
		cases.add(failure);
	}

	boolean isEmpty() {
		return cases.isEmpty();
	}

	/**
	 * The run's failure: its one case as it was worded, or a first line counting them and one line per case; what the
	 * run threw after its failed checks (an exception a failed case led to) comes last. Empty when no case failed.
	 */
	Optional<AssertionFailedError> failure(String run, Throwable thrown) {
		if (cases.isEmpty()) {
			return Optional.empty();
		}
		List<String> lines = new ArrayList<>(cases);
		if (thrown != null && !(thrown instanceof TestAbortedException)) {
			lines.add("then it threw " + thrown);
		}
		String message = lines.size() == 1
				? lines.get(0)
				: run + ": " + cases.size() + " failing case" + (cases.size() == 1 ? "" : "s") + "\n" + String.join("\n", lines.stream()
						.map(line -> "  - " + line.replace("\n", "\n    "))
						.toList());
		AssertionFailedError failure = new AssertionFailedError(message);
		if (thrown != null) {
			failure.addSuppressed(thrown);
		}
		return Optional.of(failure);
	}
}
