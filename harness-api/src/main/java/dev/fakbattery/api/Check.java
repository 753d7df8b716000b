package dev.fakbattery.api;

/**
 * One acceptance check of a rung: its outcome is computed from observed data, never assigned.
 *
 * @param name check id, for example {@code tax_measured}
 * @param passed whether {@code observed} met {@code expected}
 * @param expected what the check requires, in words or a value
 * @param observed what was seen
 * @since 0.1
 */
public record Check(String name, boolean passed, String expected, String observed) {

	public String status() {
		return passed ? "PASS" : "FAIL";
	}

	/** The failure line: {@code check <name>: expected <expected>, observed <observed>}. */
	public String describe() {
		return "check " + name + ": expected " + expected + ", observed " + observed;
	}
}
