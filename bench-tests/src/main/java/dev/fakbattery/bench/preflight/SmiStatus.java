package dev.fakbattery.bench.preflight;

/**
 * Outcome of reading nvidia-smi, with fak's values.
 *
 * <ul>
 * <li>{@link #OK}: at least one GPU row parsed.</li>
 * <li>{@link #EMPTY}: nvidia-smi ran but printed no GPU row.</li>
 * <li>{@link #UNAVAILABLE}: nvidia-smi is not installed or could not be started.</li>
 * <li>{@link #ERROR}: nvidia-smi ran and failed.</li>
 * </ul>
 *
 * @since 0.1
 */
public enum SmiStatus {
	OK, EMPTY, UNAVAILABLE, ERROR
}
