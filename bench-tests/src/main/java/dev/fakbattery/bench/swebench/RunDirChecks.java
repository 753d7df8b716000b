package dev.fakbattery.bench.swebench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.Check;

/**
 * The sentinel checks of a run folder: {@code DONE.rc} holds 0, {@code COMPARE.md} is there.
 *
 * @since 0.1
 */
public final class RunDirChecks {

	/** Check names, in order. */
	public static final List<String> NAMES = List.of("done_rc", "compare_md");

	private RunDirChecks() {
	}

	static List<Check> of(Path runDir) {
		return List.of(doneRc(runDir.resolve(RunDirFiles.DONE_RC)), compareMd(runDir.resolve(RunDirFiles.COMPARE_MD)));
	}

	private static Check doneRc(Path file) {
		String expected = "DONE.rc holding 0";
		String text;
		try {
			text = Files.readString(file, StandardCharsets.UTF_8).strip();
		}
		catch (NoSuchFileException e) {
			return new Check("done_rc", false, expected, "DONE.rc missing");
		}
		catch (IOException e) {
			return new Check("done_rc", false, expected, "DONE.rc unreadable: " + e.getMessage());
		}
		if (!text.matches("-?\\d+")) {
			return new Check("done_rc", false, expected, "DONE.rc holds \"" + text + "\", not an exit code");
		}
		return new Check("done_rc", Integer.parseInt(text) == 0, expected, "DONE.rc holds " + text);
	}

	private static Check compareMd(Path file) {
		String expected = "COMPARE.md present and not empty";
		try {
			long size = Files.size(file);
			return new Check("compare_md", size > 0, expected, size > 0 ? "COMPARE.md present" : "COMPARE.md empty");
		}
		catch (NoSuchFileException e) {
			return new Check("compare_md", false, expected, "COMPARE.md missing");
		}
		catch (IOException e) {
			return new Check("compare_md", false, expected, "COMPARE.md unreadable: " + e.getMessage());
		}
	}
}
