package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * One acceptance check of a rung: its outcome is computed from observed data, never assigned.
 *
 * <p>A check is either a measurement check (a ratio within its limit, a tax measured) or a {@code product} check: one
 * whose failure is the target's own answer (an error status from the gateway or engine, a denied byte on the wire, a
 * malformed answer). No instrument can cause such an answer, so a failed product check makes the rung FAIL even when
 * its measurement was invalidated by its own instrument; a failed measurement check on an invalid measurement is left
 * unjudged (PENDING_MEASUREMENT). The code that sees the answer sets the flag.
 *
 * @param name check id, for example {@code tax_measured}
 * @param passed whether {@code observed} met {@code expected}
 * @param expected what the check requires, in words or a value
 * @param observed what was seen
 * @param product whether a failure of this check is the target's own answer (since 0.5)
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public record Check(String name, boolean passed, String expected, String observed, boolean product) {

	/** A measurement check: its failure is not judged on an invalid measurement. */
	public Check(String name, boolean passed, String expected, String observed) {
		this(name, passed, expected, observed, false);
	}

	public String status() {
		return passed ? "PASS" : "FAIL";
	}

	/** Whether this is a failed product check: FAIL whatever the instrument's state. */
	public boolean productFailure() {
		return product && !passed;
	}

	/** The failure line: {@code check <name>: expected <expected>, observed <observed>}. */
	public String describe() {
		return "check " + name + ": expected " + expected + ", observed " + observed;
	}
}
