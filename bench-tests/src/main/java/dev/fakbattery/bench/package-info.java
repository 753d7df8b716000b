/**
 * GPU-free logic of the measuring rungs: node preflight, SWE-bench-20 compare validation, floor
 * identity checks and the commands that produce their artifacts.
 *
 * <p>Everything here is pure over recorded inputs (nvidia-smi output, engine probe results, run
 * folders, JSON artifacts) so that it is unit tested without a GPU; the rung test classes feed it
 * live probes on a serving node. Every acceptance rule is a named
 * {@link dev.fakbattery.core.Check} computed from observed data, and every value that was not
 * observed is a {@link dev.fakbattery.core.Measurement.Pending}, never a zero.
 *
 * @since 0.1
 */
package dev.fakbattery.bench;
