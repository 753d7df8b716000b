package dev.fakbattery.bench.floors;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * fak's five floor commands (final-check steps {@code swebench_floor_20},
 * {@code turntax_airline}, {@code sessionbench_synthetic}, {@code fanbench_research},
 * {@code radixbench_synthetic}) for a built fak binary instead of {@code go run}.
 *
 * <h2>Assumption</h2>
 * <p>The seed runs {@code go run ./cmd/fak X ...} for the SWE-bench and turn-tax floors and
 * {@code go run ./cmd/sessionbench ...}, {@code ./cmd/fanbench}, {@code ./cmd/radixbench} for the
 * other three. This builder translates {@code go run ./cmd/fak X} into {@code <floors.bin> X} and
 * {@code go run ./cmd/<tool>} into {@code <floors.bin> <tool>}: it assumes the configured binary
 * dispatches {@code sessionbench}, {@code fanbench} and {@code radixbench} as subcommands with the
 * tools' own flags. If the fak build at hand ships them as separate binaries, point
 * {@code floors.bin} at a small wrapper script that dispatches on its first argument. Arguments
 * are otherwise fak's, with {@code experiments/vllm/} replaced by the output folder.
 *
 * @param floorsBin the fak binary (or wrapper), {@code floors.bin}
 * @param outDir where the artifacts are written
 * @param swebenchDifficulty fak's {@code testdata/swebench_verified_20_difficulty.json}, if at hand
 * @param verifiedCount the SWE-bench floor's task count, 20
 * @since 0.1
 */
public record FloorCommands(String floorsBin, Path outDir, Optional<Path> swebenchDifficulty, int verifiedCount) {

	public FloorCommands {
		Objects.requireNonNull(floorsBin, "floorsBin");
		if (floorsBin.isBlank()) {
			throw new IllegalArgumentException("the floors binary is not configured: set -Dfloors.bin=/path/to/fak");
		}
		Objects.requireNonNull(outDir, "outDir");
		Objects.requireNonNull(swebenchDifficulty, "swebenchDifficulty");
		if (verifiedCount <= 0) {
			throw new IllegalArgumentException("verified count must be positive: " + verifiedCount);
		}
	}

	/** The five commands, in {@link FloorArtifact} order. */
	public List<FloorCommand> all() {
		return Arrays.stream(FloorArtifact.values()).map(this::command).toList();
	}

	public FloorCommand command(FloorArtifact floor) {
		Path json = outDir.resolve(floor.fileName());
		return switch (floor) {
			case SWEBENCH_FLOOR -> swebench(json);
			case TURNTAX -> new FloorCommand(floor,
					List.of(floorsBin, "turntax", "--suite", "turntax-airline", "--out", json.toString()), List.of(json));
			case SESSIONBENCH -> new FloorCommand(floor, List.of(floorsBin, "sessionbench", "-synthetic", "smollm2-135m",
					"-turns", "50", "-agents", "5", "-prefix", "2048", "-decode", "32", "-result", "64", "-counts-only", "-out",
					json.toString()), List.of(json));
			case FANBENCH -> fanbench(json);
			case RADIXBENCH -> new FloorCommand(floor,
					List.of(floorsBin, "radixbench", "-live=false", "-out", json.toString()), List.of(json));
		};
	}

	private FloorCommand swebench(Path json) {
		Path md = outDir.resolve(FloorArtifact.SWEBENCH_FLOOR.fileName().replace(".json", ".md"));
		List<String> argv = new ArrayList<>(List.of(floorsBin, "swebench", "compare", "--workers", "1,2,4,8", "--limit",
				String.valueOf(verifiedCount), "--with-adjudication", "--out", json.toString(), "--md", md.toString()));
		swebenchDifficulty.ifPresent(d -> argv.addAll(List.of("--difficulty", d.toString())));
		return new FloorCommand(FloorArtifact.SWEBENCH_FLOOR, argv, List.of(json, md));
	}

	private FloorCommand fanbench(Path json) {
		Path csv = outDir.resolve(FloorArtifact.FANBENCH.fileName().replace(".json", ".csv"));
		return new FloorCommand(FloorArtifact.FANBENCH, List.of(floorsBin, "fanbench", "-profile", "research", "-trials",
				"12", "-out", json.toString(), "-csv", csv.toString()), List.of(json, csv));
	}
}
