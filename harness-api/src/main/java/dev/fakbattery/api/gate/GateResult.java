package dev.fakbattery.api.gate;

import java.util.List;

/**
 * The final gate over the required artifacts.
 *
 * @param status {@code COMPLETE} or {@code PENDING_MEASUREMENT} (the seed's two statuses)
 * @since 0.1
 */
public record GateResult(String status, List<GateRow> rows) {

	public static final String COMPLETE = "COMPLETE";
	public static final String PENDING = "PENDING_MEASUREMENT";

	public boolean complete() {
		return COMPLETE.equals(status);
	}

	public List<String> failed() {
		return ids("FAIL");
	}

	public List<String> missing() {
		return ids("MISSING");
	}

	public List<String> simulated() {
		return rows.stream().filter(GateRow::simulated).map(r -> r.artifact().id()).toList();
	}

	public long passed() {
		return rows.stream().filter(GateRow::passed).count();
	}

	/** An authority draft needs every required artifact passed on real measurements. */
	public boolean authorityDraftAllowed() {
		return complete() && simulated().isEmpty();
	}

	private List<String> ids(String status) {
		return rows.stream().filter(r -> r.status().equals(status)).map(r -> r.artifact().id()).toList();
	}
}
