package dev.fakbattery.bench.floors;

/**
 * Outcome of one floor artifact: every check passed, a check failed (or the file is unreadable),
 * or the file is not there. Missing is not failed: the floor has not been produced yet.
 *
 * @since 0.1
 */
public enum FloorStatus {
	PASS, FAIL, MISSING
}
