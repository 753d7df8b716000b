package dev.fakbattery.core.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

/**
 * Runs commands to completion with {@link ProcessBuilder}, killing them (and their children) at a timeout. For a
 * server that must stay up, answer a health check and own its port, use {@link ManagedProcess}.
 *
 * <p>Output goes to temporary files rather than pipes, so a chatty command cannot block on a full
 * pipe buffer while the runner waits for it.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ProcessCommandRunner implements CommandRunner {

	private final Duration timeout;

	/** @param timeout how long a command may run before it is killed; positive */
	public ProcessCommandRunner(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive: " + timeout);
		}
		this.timeout = timeout;
	}

	@Override
	public CommandResult run(List<String> argv) {
		if (argv.isEmpty()) {
			throw new IllegalArgumentException("argv must name a command");
		}
		Path out = tempFile("stdout");
		Path err = tempFile("stderr");
		try {
			return runWith(argv, out, err);
		}
		finally {
			deleteQuietly(out);
			deleteQuietly(err);
		}
	}

	private CommandResult runWith(List<String> argv, Path out, Path err) {
		Process process;
		try {
			process = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
		}
		catch (IOException e) {
			return CommandResult.notStarted(argv.get(0) + " could not be started: " + e.getMessage());
		}
		try {
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				kill(process);
				return new CommandResult(CommandResult.TIMED_OUT, read(out),
						"timed out after " + timeout + ": " + String.join(" ", argv));
			}
		}
		catch (InterruptedException e) {
			kill(process);
			Thread.currentThread().interrupt();
			return new CommandResult(CommandResult.TIMED_OUT, read(out), "interrupted: " + String.join(" ", argv));
		}
		return new CommandResult(process.exitValue(), read(out), read(err));
	}

	private static void kill(Process process) {
		ProcessTree.stop(process, Duration.ZERO);
	}

	private static Path tempFile(String what) {
		try {
			return Files.createTempFile("fak-battery-cmd-", "." + what);
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot create a temporary file for command " + what, e);
		}
	}

	private static String read(Path file) {
		try {
			return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			return "";
		}
	}

	private static void deleteQuietly(Path file) {
		try {
			Files.deleteIfExists(file);
		}
		catch (IOException ignored) {
			// a leftover temp file is harmless
		}
	}
}
