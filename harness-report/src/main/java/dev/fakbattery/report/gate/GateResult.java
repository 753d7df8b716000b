package dev.fakbattery.report.gate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The final gate over the required artifacts of one run.
 *
 * <p>{@link #status()} is fak's: {@code COMPLETE} or {@code PENDING_MEASUREMENT}. {@link #battery()} says
 * more, in this order: {@code FAIL} (an artifact failed or was unreadable, or the counted artifacts measured
 * different targets), {@code SIMULATED} (a rung measured the engine double), {@code PENDING_MEASUREMENT}
 * (missing, pending, planned or stale artifacts), {@code COMPLETE}.
 *
 * @param runId the run judged; empty when no artifact carries a run id
 * @param rows one per required artifact, in rung order
 * @param targetProblem the targets, when the counted artifacts measured more than one
 * @since 0.1
 */
public record GateResult(Optional<String> runId, List<GateRow> rows, Optional<String> targetProblem) {

	public static final String COMPLETE = "COMPLETE";
	public static final String PENDING = "PENDING_MEASUREMENT";
	public static final String SIMULATED = "SIMULATED";
	public static final String FAIL = "FAIL";

	public GateResult {
		Objects.requireNonNull(runId, "runId");
		rows = List.copyOf(rows);
		Objects.requireNonNull(targetProblem, "targetProblem");
	}

	/** The result over {@code rows} of run {@code runId}, checking that counted artifacts measured one target. */
	static GateResult of(Optional<String> runId, List<GateRow> rows) {
		Map<String, List<GateRow>> byTarget = new LinkedHashMap<>();
		rows.stream()
				.filter(r -> !r.stale() && r.target() != null)
				.forEach(r -> byTarget.computeIfAbsent(r.target().fingerprint(), k -> new java.util.ArrayList<>()).add(r));
		Optional<String> problem = byTarget.size() <= 1
				? Optional.empty()
				: Optional.of("the artifacts of run " + runId.orElse("?") + " measured " + byTarget.size() + " different targets: "
						+ byTarget.values()
								.stream()
								.map(group -> group.stream().map(r -> r.artifact().id()).toList() + " "
										+ group.get(0).target().description())
								.collect(Collectors.joining("; ")));
		return new GateResult(runId, rows, problem);
	}

	/** fak's status: COMPLETE only when every required artifact of the run passed on one real target. */
	public String status() {
		return complete() ? COMPLETE : PENDING;
	}

	/** The battery as a whole: FAIL, SIMULATED, PENDING_MEASUREMENT or COMPLETE. */
	public String battery() {
		if (!failed().isEmpty() || targetProblem.isPresent()) {
			return FAIL;
		}
		if (!simulated().isEmpty()) {
			return SIMULATED;
		}
		return rows.stream().allMatch(GateRow::passed) ? COMPLETE : PENDING;
	}

	public boolean complete() {
		return targetProblem.isEmpty() && rows.stream().allMatch(GateRow::passed);
	}

	public List<String> failed() {
		return ids(r -> r.status().equals("FAIL"));
	}

	/** Not measured for real in this run: missing, pending, planned, stale and SIMULATED artifacts. */
	public List<String> missing() {
		return ids(r -> r.status().equals("MISSING"));
	}

	public List<String> simulated() {
		return ids(GateRow::simulated);
	}

	public List<String> stale() {
		return ids(GateRow::stale);
	}

	/** Passed on inputs this run did not produce, each with its provenance ({@link GateRow#preProducedLine()}). */
	public List<String> preProduced() {
		return ids(r -> r.passed() && r.isPreProduced());
	}

	/** Passed on what this run measured itself. */
	public List<String> measuredThisRun() {
		return ids(r -> r.passed() && !r.isPreProduced());
	}

	public long passed() {
		return rows.stream().filter(GateRow::passed).count();
	}

	/** The engines SIMULATED rows measured, naming the double. */
	public List<String> simulatedTargets() {
		return rows.stream()
				.filter(GateRow::simulated)
				.map(r -> r.artifact().id() + " (" + (r.target() == null
						? "engine double"
						: r.target().description()) + ")")
				.toList();
	}

	/** Why no authority draft may be written; empty when one may. */
	public Optional<String> draftWithheldBecause() {
		if (!complete()) {
			return Optional.of("the battery is " + battery() + ", not COMPLETE");
		}
		return rows.stream()
				.map(GateRow::target)
				.filter(t -> t != null && !t.contractEngine())
				.findFirst()
				.map(t -> "engine is " + t.description() + ", not the contract's vLLM model");
	}

	/** An authority draft needs every required artifact of the run passed on one real vLLM or SGLang target. */
	public boolean authorityDraftAllowed() {
		return draftWithheldBecause().isEmpty();
	}

	private List<String> ids(java.util.function.Predicate<GateRow> filter) {
		return rows.stream().filter(filter).map(r -> r.artifact().id()).toList();
	}
}
