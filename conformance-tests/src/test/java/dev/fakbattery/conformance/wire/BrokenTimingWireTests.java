package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.SelfTest.STREAM;
import static dev.fakbattery.conformance.wire.SelfTest.assertFailed;
import static dev.fakbattery.conformance.wire.SelfTest.expand;
import static dev.fakbattery.conformance.wire.SelfTest.failedRules;
import static dev.fakbattery.conformance.wire.SelfTest.message;
import static dev.fakbattery.conformance.wire.SelfTest.runWithTiming;
import static dev.fakbattery.conformance.wire.SelfTest.timingFailuresAfterReruns;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fakbattery.conformance.wire.BrokenGateways.BrokenTestCase;
import dev.fakbattery.engine.hop.RelayHop;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit's self-test with every rule, timing rules (W14, W26) included: a faithful hop fails none; a gateway that
 * buffers, holds in windows or cuts long pauses fails exactly the timing rule it breaks. Its four kits run
 * concurrently, beside other classes, waiting on paced streams: W14 judges only streams the kit's own upstream kept
 * pace in and the faithful hop's timing failures are rerun, which is what lets it hold beside two CPU burners. Not
 * {@code @Isolated}: an isolated class runs its methods one at a time, whatever its execution mode (this class took
 * 88 s so).
 */
@Tag("wire")
@DisplayName("wire conformance kit self-test: the faithful hop, and gateways that hold or cut streams")
@Execution(ExecutionMode.CONCURRENT)
@Order(1) // mostly waiting (paced streams, stalls, slow readers): started first, beside the busy classes
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class BrokenTimingWireTests {

	/** How many times the faithful hop's failed timing rules run again before the self-test fails. */
	static final int RERUNS = 2;

	/**
	 * Timing rules that fail here are run again, at most {@value #RERUNS} times, each rerun and its reason published
	 * to the test report: under two CPU burners and other builds the faithful hop once held 11 deltas by up to 418 ms
	 * in each of W14's 5 streams (2026-12-02, issue [13]); a gateway that holds deltas does so in every run, and
	 * the broken gateways below get no rerun. Every other rule must pass at the first run.
	 */
	@Test
	@DisplayName("a faithful hop in front of the reference gateway fails no rule, timing rules included")
	void faithfulHopPassesAll(TestReporter reporter) {
		Events tests = runWithTiming(FaithfulHopTestCase.class);
		Set<String> rerun = failedRules(tests);
		assertThat(timingFailuresAfterReruns(FaithfulHopTestCase.class, tests, RERUNS, line -> reporter.publishEntry("timing", line)))
				.as("timing rules that failed in each of %d runs", RERUNS + 1)
				.isEmpty();
		tests.assertStatistics(stats -> stats.succeeded(102 - rerun.size()).aborted(10).failed(rerun.size()));
	}

	@Test
	@DisplayName("buffers the whole stream")
	void buffersWholeStream() {
		Events tests = runWithTiming(BuffersWholeStreamTestCase.class);
		assertFailed(tests, expand(List.of("W14"), STREAM));
		assertThat(message(tests, "W14", "sglang stream")).startsWith("W14 [sglang stream] on broken: buffers the whole stream: "
				+ "expected of the judged paced streams, most with at most 5 of 20 content deltas held more than 150 ms longer than the "
				+ "least held one, observed 3 judged (0 not held, 3 held), ");
		// the faithful hop's rerun cannot hide a buffering gateway: it holds the deltas in the rerun too
		List<String> log = new ArrayList<>();
		assertThat(timingFailuresAfterReruns(BuffersWholeStreamTestCase.class, tests, 1, log::add))
				.isEqualTo(expand(List.of("W14"), STREAM));
		assertThat(log).singleElement()
				.asString()
				.startsWith("rerun 1 of at most 1 of the timing rules, after [W14 [sglang stream], W14 [vllm stream]] failed: ");
	}

	/**
	 * Passed on the first unbuffered stream before [15]: a gateway that buffers four paced streams in five (the first of
	 * each five goes through) now fails on the held majority, after its fourth stream.
	 */
	@Test
	@DisplayName("buffers four paced streams in five: the majority of the judged streams were held")
	void buffersFourInFive() {
		Events tests = runWithTiming(BuffersFourInFiveTestCase.class);
		assertFailed(tests, expand(List.of("W14"), STREAM));
		// the streams let through (the first of each five) are judged unless the kit's upstream fell behind its pace in them
		// (a loaded machine, which also makes the kit try more streams): the held ones are the majority, at least three
		Matcher judged = Pattern.compile("observed (\\d+) judged \\((\\d+) not held, (\\d+) held\\), ")
				.matcher(message(tests, "W14", "vllm stream"));
		assertThat(judged.find()).as(message(tests, "W14", "vllm stream")).isTrue();
		int notHeld = Integer.parseInt(judged.group(2));
		int held = Integer.parseInt(judged.group(3));
		assertThat(held).as("held streams of %s judged", judged.group(1)).isGreaterThanOrEqualTo(3).isGreaterThan(notHeld);
	}

	/**
	 * 500 ms, not 300: with exact timing a 300 ms window holds about 6 of the 20 deltas past the rule's 150 ms (10 seen),
	 * against its limit of 5, and a busy machine once let one of three tries through (2026-12-01); 500 ms holds about 12.
	 */
	@Test
	@DisplayName("holds the stream in 500 ms windows")
	void buffers500Millis() {
		Events tests = runWithTiming(Buffers500MillisTestCase.class);
		assertFailed(tests, expand(List.of("W14"), STREAM));
	}

	@Test
	@DisplayName("cuts a stream after 2 s of upstream silence")
	void cutsLongGaps() {
		Events tests = runWithTiming(CutsLongGapsTestCase.class);
		assertFailed(tests, expand(List.of("W26"), STREAM));
		assertThat(message(tests, "W26", "vllm stream"))
				.contains("expected the whole stream after a 5000 ms pause (content [The capital of France is], "
						+ "[DONE], no error frame), observed status 200, content [], [DONE], 1 error frame(s)");
	}

	// -------------------------------------------------------------------------

	static class FaithfulHopTestCase extends BrokenTestCase {
		FaithfulHopTestCase() {
			super("reference gateway behind faithful hops", FAITHFUL, FAITHFUL);
		}
	}

	static class BuffersWholeStreamTestCase extends BrokenTestCase {
		BuffersWholeStreamTestCase() {
			super("broken: buffers the whole stream", new RelayHop.Mangle() {
				@Override
				public boolean buffers() {
					return true;
				}
			}, FAITHFUL);
		}
	}

	static class BuffersFourInFiveTestCase extends BrokenTestCase {
		BuffersFourInFiveTestCase() {
			super("broken: buffers four paced streams in five", new RelayHop.Mangle() {
				private final java.util.concurrent.atomic.AtomicInteger paced = new java.util.concurrent.atomic.AtomicInteger();

				private final ThreadLocal<Boolean> holds = ThreadLocal.withInitial(() -> false);

				@Override
				public String request(String body) {
					holds.set(body.contains(Scenario.PACED.marker() + " ") && paced.incrementAndGet() % 5 != 1);
					return body;
				}

				@Override
				public boolean buffers() {
					return holds.get();
				}
			}, FAITHFUL);
		}
	}

	static class Buffers500MillisTestCase extends BrokenTestCase {
		Buffers500MillisTestCase() {
			super("broken: holds the stream 500 ms", new RelayHop.Mangle() {
				@Override
				public long holdMillis() {
					return 500;
				}
			}, FAITHFUL);
		}
	}

	static class CutsLongGapsTestCase extends BrokenTestCase {
		CutsLongGapsTestCase() {
			super("broken: cuts idle streams after 2 s", FAITHFUL, new RelayHop.Mangle() {
				@Override
				public long idleTimeoutMillis() {
					return 2000;
				}
			});
		}
	}
}
