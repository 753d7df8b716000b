package dev.fakbattery.conformance.wire;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs a nested JUnit execution (a kit class through a launcher or {@code EngineTestKit}) on a thread of its own and
 * waits for it there. A test that starts one from a worker of JUnit's parallel ForkJoinPool and waits on that worker
 * would, while waiting, take other classes' tests into its wait ({@code ForkJoinTask.get} helps its own pool), so that
 * its class ends only after tests it never asked for: a rung or a one-at-a-time class then waits for a whole
 * broken-gateway kit. The self-tests that run kits get the same from {@code @Timeout(threadMode = SEPARATE_THREAD)}.
 */
public final class NestedRun {

	private NestedRun() {
	}

	/** {@code run}'s value, computed on a thread of its own; what it throws is thrown here. */
	public static <T> T call(Supplier<T> run) {
		AtomicReference<T> value = new AtomicReference<>();
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread thread = Thread.ofPlatform().name("nested-run").start(() -> {
			try {
				value.set(run.get());
			}
			catch (Throwable t) {
				thrown.set(t);
			}
		});
		try {
			thread.join();
		}
		catch (InterruptedException e) {
			thread.interrupt();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while a nested run ran", e);
		}
		if (thrown.get() instanceof RuntimeException e) {
			throw e;
		}
		if (thrown.get() instanceof Error e) {
			throw e;
		}
		if (thrown.get() != null) {
			throw new IllegalStateException(thrown.get());
		}
		return value.get();
	}
}
