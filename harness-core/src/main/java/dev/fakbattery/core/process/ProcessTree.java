package dev.fakbattery.core.process;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

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
}
