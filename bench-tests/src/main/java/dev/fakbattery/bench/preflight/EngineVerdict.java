package dev.fakbattery.bench.preflight;

/**
 * Per-engine and node verdicts of the preflight, with fak's names. The per-engine checks run
 * in declaration order of the blocked values: architecture, quant architecture, memory; then the
 * install.
 *
 * @since 0.1
 */
public enum EngineVerdict {
	/** Architecture, memory and the engine install all pass. */
	READY,
	/** Architecture and memory pass; the engine does not import yet. */
	READY_PENDING_INSTALL,
	/** Compute capability unknown or below the DSA floor 9.0. */
	BLOCKED_ARCH,
	/** The requested quant needs a newer architecture, for example nvfp4 on Hopper. */
	BLOCKED_QUANT_ARCH,
	/** Total VRAM or the smallest card's VRAM is below the requirement. */
	BLOCKED_MEMORY,
	/** Node only: engines blocked for different reasons (unreachable with node-wide checks). */
	BLOCKED;

	/** Whether the battery accepts this verdict: READY or READY_PENDING_INSTALL. */
	public boolean ready() {
		return this == READY || this == READY_PENDING_INSTALL;
	}
}
