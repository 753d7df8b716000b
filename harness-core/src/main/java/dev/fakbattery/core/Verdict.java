package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * The verdict of a rung artifact.
 *
 * <ul>
 * <li>{@link #PASS}: every acceptance check passed, on what the run measured or on pre-produced inputs named with their provenance.</li>
 * <li>{@link #FAIL}: an acceptance check failed, or the rung could not run.</li>
 * <li>{@link #PENDING_MEASUREMENT}: a required measurement or input is missing or TBD. Fails the
 * build under {@code -Pgpu}; reported and allowed under {@code -Pbattery}.</li>
 * <li>{@link #PLANNED}: a dry run that measured nothing.</li>
 * <li>{@link #SIMULATED}: measured on the engine double: real arithmetic about the harness and the
 * gateway, never a vLLM number; never counts in the final gate, never quotable in an authority draft.</li>
 * </ul>
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public enum Verdict {
	PASS, FAIL, PENDING_MEASUREMENT, PLANNED, SIMULATED
}
