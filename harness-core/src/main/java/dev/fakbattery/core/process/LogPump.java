package dev.fakbattery.core.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import dev.fakbattery.wire.SecretGuard;

/**
 * Copies a started process's output into its log file line by line, each line redacted by the {@link SecretGuard}
 * before it is written ({@code [REDACTED api.key.env]}), and flushed as it ends so that a failure message can read the
 * log's last lines. A line longer than {@value #LONGEST_LINE} bytes is written in parts, each part keeping back as
 * many bytes as a secret's longest form so that no secret is cut in two unredacted.
 */
final class LogPump {

	/** The longest part of a line held before it is written: {@value} bytes. */
	static final int LONGEST_LINE = 64 << 10;

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

	private static void copy(InputStream in, OutputStream out, SecretGuard guard) {
		int keep = Math.max(1, 2 * guard.longestForm());
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try (in; out) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				for (int i = 0; i < read; i++) {
					line.write(buffer[i]);
					if (buffer[i] == '\n') {
						out.write(guard.redact(line.toByteArray()));
						line.reset();
					}
					else if (line.size() >= LONGEST_LINE + keep) {
						byte[] redacted = guard.redact(line.toByteArray());
						int cut = Math.max(0, redacted.length - keep);
						out.write(redacted, 0, cut);
						line.reset();
						line.write(Arrays.copyOfRange(redacted, cut, redacted.length));
					}
				}
				out.flush();
			}
			out.write(guard.redact(line.toByteArray()));
		}
		catch (IOException e) {
			// the process closed its output or the log's disk failed: what was written stays, redacted
		}
	}
}
