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
	 * only when it has not exited within {@code grace}; with {@link Duration#ZERO}, the forced one at once.
	 */
	static void stop(Process process, Duration grace) {
		try {
			if (grace.isPositive()) {
				process.descendants().forEach(ProcessHandle::destroy);
				process.destroy();
				if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
					return;
				}
			}
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly().waitFor(FORCED_WAIT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
			Thread.currentThread().interrupt();
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
		long deadline = System.nanoTime() + grace.toNanos();
		for (ProcessHandle handle : all) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				break;
			}
			try {
				handle.onExit().get(left, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				break;
			}
			catch (ExecutionException | TimeoutException e) {
				break;
			}
		}
		all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
	}
}
