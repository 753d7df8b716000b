package dev.fakbattery.core.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.fakbattery.wire.RedactingOutputStream;
import dev.fakbattery.wire.SecretGuard;

/**
 * Copies a started process's output into its log file through a {@link RedactingOutputStream}: line by line, each line
 * redacted by the {@link SecretGuard} before it is written ({@code [REDACTED api.key.env]}), and flushed after each read
 * so that a failure message can read the log's last lines; an unfinished line is written but for the bytes that could
 * still be the start of a secret.
 */
final class LogPump {

	private final Thread thread;

	private LogPump(Thread thread) {
		this.thread = thread;
	}

	/** Starts copying {@code in} into {@code log} (created, or truncated), redacting with {@code guard}. */
	static LogPump start(InputStream in, Path log, SecretGuard guard) throws IOException {
		OutputStream out = Files.newOutputStream(log);
		Thread thread = new Thread(() -> copy(in, out, guard), "log " + log.getFileName());
		thread.setDaemon(true);
		thread.start();
		return new LogPump(thread);
	}

	/** Waits up to {@code timeout} for the process's output to end and be written. */
	void awaitDrained(Duration timeout) {
		try {
			thread.join(timeout);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private static void copy(InputStream in, OutputStream log, SecretGuard guard) {
		byte[] buffer = new byte[8192];
		try (in; OutputStream out = new RedactingOutputStream(log, guard)) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException e) {
			// the process closed its output or the log's disk failed: what was written stays, redacted
		}
	}
}
