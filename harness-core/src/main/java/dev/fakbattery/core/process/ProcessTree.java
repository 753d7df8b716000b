package dev.fakbattery.core.process;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
		tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
		awaitExit(tree, System.nanoTime() + TimeUnit.SECONDS.toNanos(FORCED_WAIT_SECONDS));
	}

	/**
	 * Waits until every one of {@code handles} has exited or {@code deadline} ({@link System#nanoTime()}) passed;
	 * whether all exited. An interrupt ends the wait at once (the interrupt is kept).
	 */
	private static boolean awaitExit(List<ProcessHandle> handles, long deadline) {
		for (ProcessHandle handle : handles) {
			long left = deadline - System.nanoTime();
			if (left <= 0 || Thread.currentThread().isInterrupted()) {
				return handles.stream().noneMatch(ProcessHandle::isAlive);
			}
			try {
				handle.onExit().get(left, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return false;
			}
			catch (ExecutionException | TimeoutException e) {
				return false;
			}
		}
		return true;
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
		all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
	}
}
