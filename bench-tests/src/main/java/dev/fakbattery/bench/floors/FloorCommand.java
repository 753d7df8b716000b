package dev.fakbattery.bench.floors;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One command that produces a floor artifact.
 *
 * @param floor the floor it produces
 * @param argv the command line
 * @param artifacts the files it writes, the checked artifact first
 * @since 0.1
 */
public record FloorCommand(FloorArtifact floor, List<String> argv, List<Path> artifacts) {

	public FloorCommand {
		Objects.requireNonNull(floor, "floor");
		argv = List.copyOf(argv);
		artifacts = List.copyOf(artifacts);
	}

	/** The checked artifact. */
	public Path primaryArtifact() {
		return artifacts.get(0);
	}
}
