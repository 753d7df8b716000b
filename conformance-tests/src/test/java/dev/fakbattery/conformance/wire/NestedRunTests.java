package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NestedRun: a nested run's wait takes no other test of the waiting thread's pool into it")
class NestedRunTests {

	/**
	 * The hazard and its cure on a one-worker pool, as JUnit's parallel executor has: a task there forks another
	 * (a queued test of another class), then waits for work on a second pool (a nested launcher's engine). Waiting with
	 * {@code get()} on the worker runs the queued task inside the wait; waiting through {@link NestedRun} does not: the
	 * queued task runs after the waiting one ended.
	 */
	@Test
	@DisplayName("waiting with ForkJoinTask.get runs the queued task inside the wait; NestedRun.call does not")
	void noStealingInTheWait() throws Exception {
		assertThat(order(false)).as("the hazard: the queued test ran inside the wait").containsExactly("queued", "waiting ended");
		assertThat(order(true)).as("through NestedRun").containsExactly("waiting ended", "queued");
	}

	@Test
	@DisplayName("a nested run's value comes back, what it throws is thrown as it was")
	void valueAndFailure() {
		assertThat(NestedRun.call(() -> Thread.currentThread().getName())).isEqualTo("nested-run");
		IllegalStateException thrown = new IllegalStateException("kit failed");
		assertThatThrownBy(() -> NestedRun.call(() -> {
			throw thrown;
		})).isSameAs(thrown);
		AssertionError failed = new AssertionError("rule failed");
		assertThatThrownBy(() -> NestedRun.call(() -> {
			throw failed;
		})).isSameAs(failed);
	}

	/** In which order the waiting task's end and the queued task ran, waiting through NestedRun or with {@code get()}. */
	private static List<String> order(boolean nested) throws Exception {
		List<String> order = new CopyOnWriteArrayList<>();
		ForkJoinPool outer = new ForkJoinPool(1);
		ForkJoinPool engine = new ForkJoinPool(1);
		try {
			outer.submit(() -> {
				ForkJoinTask<?> queued = ForkJoinTask.adapt(() -> order.add("queued")).fork();
				Runnable nestedWork = () -> {
					try {
						engine.submit(() -> sleep(300)).get();
					}
					catch (Exception e) {
						throw new IllegalStateException(e);
					}
				};
				if (nested) {
					NestedRun.call(() -> {
						nestedWork.run();
						return null;
					});
				}
				else {
					nestedWork.run();
				}
				order.add("waiting ended");
				queued.join();
			}).get(30, TimeUnit.SECONDS);
		}
		finally {
			outer.shutdownNow();
			engine.shutdownNow();
		}
		return order;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
