package dev.fakbattery.core.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How the harness stops a process it started, with its children: the one kill both {@link ManagedProcess} (a server,
 * asked politely first) and {@link ProcessCommandRunner} (a command past its timeout, killed at once) use.
 */
final class ProcessTree {

	/** How long a forced kill is waited for: {@value} s. */
	static final long FORCED_WAIT_SECONDS = 5;

	private ProcessTree() {
	}

	/**
	 * Stops {@code process} and its descendants: with a positive {@code grace}, a polite signal first and a forced one
	 * to whatever of them has not exited within {@code grace}; with {@link Duration#ZERO}, the forced one at once.
	 * The descendants are taken before the first signal and waited for each, not only the root: a {@code /bin/sh -c}
	 * wrapper exits on the polite signal at once, and a server under it that takes longer (or ignores the signal),
	 * re-parented when its shell exits, is no longer anybody's descendant to find afterwards.
	 */
	static void stop(Process process, Duration grace) {
		List<ProcessHandle> tree = Stream.concat(process.descendants(), Stream.of(process.toHandle())).toList();
		if (grace.isPositive()) {
			tree.forEach(ProcessHandle::destroy);
			if (awaitExit(tree, System.nanoTime() + grace.toNanos())) {
				return;
			}
		}
		tree.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
		awaitExit(tree, System.nanoTime() + TimeUnit.SECONDS.toNanos(FORCED_WAIT_SECONDS));
	}

	/** How often {@link #awaitExit} looks whether the processes are gone: {@value} ms. */
	static final long POLL_MILLIS = 20;

	/**
	 * Waits until every one of {@code handles} has exited or {@code deadline} ({@link System#nanoTime()}) passed;
	 * whether all exited. Polled every {@value #POLL_MILLIS} ms: {@link ProcessHandle#onExit()} of a process that is
	 * not this JVM's child (a server under its {@code /bin/sh} wrapper) polls from 300 ms up, which added seconds to
	 * every stop. An interrupt ends the wait at once (the interrupt is kept).
	 */
	private static boolean awaitExit(List<ProcessHandle> handles, long deadline) {
		while (handles.stream().anyMatch(ProcessTree::running)) {
			if (System.nanoTime() - deadline >= 0 || Thread.currentThread().isInterrupted()) {
				return false;
			}
			try {
				Thread.sleep(POLL_MILLIS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether {@code handle} still runs: alive and, where {@code /proc} tells, not a zombie. A server re-parented when
	 * its wrapper exited is reaped by init, which on some machines (a microVM's init) does so only seconds later; its
	 * zombie has exited, holds no port, and is not waited for.
	 */
	static boolean running(ProcessHandle handle) {
		if (!handle.isAlive()) {
			return false;
		}
		// by lines: procfs reports a size of 0, and a read that trusts the size reads nothing or one byte
		try (BufferedReader reader = Files.newBufferedReader(Path.of("/proc", Long.toString(handle.pid()), "stat"))) {
			String stat = reader.readLine();
			if (stat == null) {
				return handle.isAlive();
			}
			int end = stat.lastIndexOf(')');
			return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
		}
		catch (IOException | RuntimeException e) {
			return handle.isAlive();
		}
	}

	/**
	 * Stops all of {@code processes} with their descendants at once: the polite signal to every one, then one wait of
	 * at most {@code grace} for all of them together, then the forced signal to what is left. For a shutdown hook,
	 * whose time is short.
	 */
	static void stopAll(Collection<Process> processes, Duration grace) {
		List<ProcessHandle> all = processes.stream()
				.flatMap(process -> Stream.concat(process.descendants(), Stream.of(process.toHandle())))
				.toList();
		all.forEach(ProcessHandle::destroy);
		awaitExit(all, System.nanoTime() + grace.toNanos());
		all.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
	}
}
