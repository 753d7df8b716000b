package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("a process's log pump writes what it reads as it reads it, and never holds the JVM or its caller")
class LogPumpTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@TempDir
	Path dir;

	@Test
	@DisplayName("an unfinished line is in the log while the process still runs, all but the bytes a secret could start in")
	void writesAnUnfinishedLineAsItComes() throws Exception {
		Path log = dir.resolve("engine.log");
		try (PipedOutputStream process = new PipedOutputStream()) {
			LogPump pump = LogPump.start(new PipedInputStream(process, 1 << 16), log, GUARD);
			process.write("loading weights ".repeat(200).getBytes(StandardCharsets.US_ASCII));
			process.flush();

			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (Files.size(log) == 0 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			assertThat(Files.readString(log)).as("the log while the line is unfinished").startsWith("loading weights loading weights");

			process.close();
			pump.awaitDrained(Duration.ofSeconds(10));
		}
		assertThat(Files.readString(log)).isEqualTo("loading weights ".repeat(200));
	}

	@Test
	@DisplayName("its thread is a daemon: a process whose output never ends does not keep the JVM alive")
	void daemonThread() throws Exception {
		Path log = dir.resolve("daemon-probe.log");
		try (PipedOutputStream process = new PipedOutputStream()) {
			LogPump pump = LogPump.start(new PipedInputStream(process), log, GUARD);
			Thread thread = Thread.getAllStackTraces()
					.keySet()
					.stream()
					.filter(t -> t.getName().equals("log daemon-probe.log"))
					.findFirst()
					.orElseThrow();
			assertThat(thread.isDaemon()).as("log daemon-probe.log's thread is a daemon").isTrue();
			process.close();
			pump.awaitDrained(Duration.ofSeconds(10));
		}
	}

	@Test
	@DisplayName("a caller interrupted while it waits for the log stops waiting and keeps its interrupt")
	void interruptedWaitKeepsTheInterrupt() throws IOException {
		Path log = dir.resolve("gateway.log");
		try (PipedOutputStream process = new PipedOutputStream()) {
			LogPump pump = LogPump.start(new PipedInputStream(process), log, GUARD);
			Thread.currentThread().interrupt();
			pump.awaitDrained(Duration.ofMinutes(1));

			assertThat(Thread.interrupted()).as("the caller's interrupt status after the wait").isTrue();
			process.close();
			pump.awaitDrained(Duration.ofSeconds(10));
		}
	}
}
