package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository's {@code fixtures/wire} folder, found by walking up from the working directory.
 */
final class KitFixtures {

	private static final Path ROOT = locate();

	private KitFixtures() {
	}

	static String read(String relative) {
		try {
			return Files.readString(ROOT.resolve(relative));
		}
		catch (IOException e) {
			throw new UncheckedIOException("fixture fixtures/wire/" + relative + " unreadable", e);
		}
	}

	/** The absolute path of {@code relative} under fixtures/wire. */
	static Path path(String relative) {
		return ROOT.resolve(relative);
	}

	static boolean exists(String relative) {
		return Files.isRegularFile(ROOT.resolve(relative));
	}

	private static Path locate() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isDirectory(dir.resolve("fixtures/wire"))) {
				return dir.resolve("fixtures/wire");
			}
		}
		throw new IllegalStateException("fixtures/wire not found above " + Path.of("").toAbsolutePath());
	}
}
