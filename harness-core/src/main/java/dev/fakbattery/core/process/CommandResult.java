package dev.fakbattery.core.process;

import java.util.Objects;

import org.apiguardian.api.API;

/**
 * What a command left behind: its exit code and its output.
 *
 * <p>A command that could not be started exits {@value #NOT_STARTED} (like a shell's "command not
 * found"); one killed at its timeout exits {@value #TIMED_OUT} (like {@code timeout(1)}). In both
 * cases {@link #stderr()} says why.
 *
 * @param exitCode the process exit code, or one of the two codes above
 * @param stdout standard output, never null
 * @param stderr standard error, never null
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record CommandResult(int exitCode, String stdout, String stderr) {

	/** Exit code of a command that could not be started: {@value}. */
	public static final int NOT_STARTED = 127;

	/** Exit code of a command killed at its timeout: {@value}. */
	public static final int TIMED_OUT = 124;

	public CommandResult {
		Objects.requireNonNull(stdout, "stdout");
		Objects.requireNonNull(stderr, "stderr");
	}

	/** A command that could not be started, with the reason. */
	public static CommandResult notStarted(String why) {
		return new CommandResult(NOT_STARTED, "", why);
	}

	public boolean succeeded() {
		return exitCode == 0;
	}
}
