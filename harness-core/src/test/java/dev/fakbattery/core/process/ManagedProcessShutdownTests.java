package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A server the harness started does not outlive a test JVM stopped with SIGTERM (what Surefire's timeout and a user's
 * Ctrl-C send) or SIGKILL (the OOM killer, a runner's hard timeout; then the {@link Reaper} stops it): a child JVM
 * starts {@code nice -n 10 sleep 300} under {@code /bin/sh -c} and is sent the signal; the sleeping grandchild is gone
 * soon after. The same check on a child that starts it without {@link ManagedProcess} finds it still running: the
 * check can fail.
 */
@DisplayName("ManagedProcess at the JVM's exit: no started server outlives a SIGTERM'd or SIGKILL'd JVM")
@Timeout(90)
@Execution(ExecutionMode.CONCURRENT)
class ManagedProcessShutdownTests {

	@TempDir
	Path dir;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "SIGTERM", "SIGKILL" })
	@DisplayName("SIGTERM (the shutdown hook) or SIGKILL (no hook runs: the reaper sees the JVM gone) to the JVM that started a server under a wrapper stops the server too")
	void signalStopsStartedServers(String signal) throws Exception {
		Optional<ProcessHandle> survivor = survivorAfter("managed", signal.equals("SIGKILL"));
		survivor.ifPresent(ProcessHandle::destroyForcibly);
		assertThat(survivor).as("the started server after its JVM's " + signal).isEmpty();
	}

	@Test
	@DisplayName("the same SIGTERM to a JVM that started it without ManagedProcess leaves it running, and the check says so")
	void bareStartOutlivesItsJvm() throws Exception {
		Optional<ProcessHandle> survivor = survivorAfter("bare", false);
		try {
			assertThat(survivor).as("a server started without the hook").isPresent();
		}
		finally {
			survivor.ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	@Test
	@DisplayName("close stops a server that ignores SIGTERM after its /bin/sh wrapper has exited on it: nothing is left re-parented and running")
	void closeStopsWhatOutlivesItsShell() throws Exception {
		Path log = dir.resolve("stubborn.log");
		// the subshell ignores SIGTERM and execs sleep, which keeps the ignore; the wrapper waiting on it does not
		ManagedProcess wrapper = ManagedProcess.start("test.cmd", "(trap '' TERM; exec sleep 300) & echo $!; wait", log);
		long pid;
		try {
			pid = Long.parseLong(awaitLine(log).trim());
		}
		catch (RuntimeException | Error e) {
			wrapper.close();
			throw e;
		}
		ProcessHandle stubborn = ProcessHandle.of(pid).orElseThrow();
		try {
			wrapper.close();
			// a zombie awaiting init's reaping has exited: running() leaves it out, isAlive() would not
			assertThat(ProcessTree.running(stubborn)).as("the server after close, its wrapper gone on the first SIGTERM").isFalse();
		}
		finally {
			stubborn.destroyForcibly();
		}
	}

	private static String awaitLine(Path log) throws Exception {
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (System.nanoTime() < deadline) {
			if (java.nio.file.Files.exists(log)) {
				String text = java.nio.file.Files.readString(log);
				if (text.endsWith("\n")) {
					return text;
				}
			}
			Thread.sleep(20);
		}
		throw new AssertionError("the wrapper wrote no pid to " + log + " in 30 s");
	}

	/**
	 * Starts the child in {@code mode}, SIGTERMs it (SIGKILLs it when {@code kill}) once its server runs, and returns
	 * the server if it is alive 10 s later (the reaper's JVM may take a few seconds to start on a busy machine).
	 */
	private Optional<ProcessHandle> survivorAfter(String mode, boolean kill) throws Exception {
		Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), ServerStarterChild.class.getName(), mode, dir.resolve("server.log").toString())
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
		long sleeper;
		try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
			String line = out.readLine();
			assertThat(line).as("the child's report").startsWith("started ");
			sleeper = Long.parseLong(line.substring("started ".length()));
		}
		finally {
			if (kill) {
				child.destroyForcibly();
			}
			else {
				child.destroy();
			}
		}
		assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child JVM exited on the signal").isTrue();
		if (kill) {
			assertThat(child.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
		}
		Optional<ProcessHandle> server = ProcessHandle.of(sleeper);
		long deadline = System.nanoTime() + 10_000_000_000L;
		while (server.isPresent() && server.get().isAlive() && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		return server.filter(ProcessHandle::isAlive);
	}
}
