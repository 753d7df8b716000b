package dev.fakbattery.bench.floors;

/**
 * The five fak-native floor artifacts of fak's battery, in its final-check order, with the
 * fak's check ids and file names.
 *
 * @since 0.1
 */
public enum FloorArtifact {
	SWEBENCH_FLOOR("swebench_floor", "swebench-20-fak-floor.json"),
	TURNTAX("turntax_floor", "turntax-airline.json"),
	SESSIONBENCH("sessionbench_floor", "sessionbench-synthetic.json"),
	FANBENCH("fanbench_floor", "fanbench-research.json"),
	RADIXBENCH("radixbench_floor", "radixbench-synthetic.json");

	private final String checkId;
	private final String fileName;

	FloorArtifact(String checkId, String fileName) {
		this.checkId = checkId;
		this.fileName = fileName;
	}

	/** fak's check id, the prefix of every check name of this floor: {@code swebench_floor}. */
	public String checkId() {
		return checkId;
	}

	/** The artifact's file name under the floors folder. */
	public String fileName() {
		return fileName;
	}
}
