package dev.fakbattery.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The double's real counters: what {@code /metrics} exports and what tests read through {@link EngineDouble}.
 *
 * @since 0.1
 */
final class EngineCounters {

	/** Why a generation ended, as the engines' {@code finished_reason} label spells it. */
	enum Finished {
		STOP, LENGTH, ABORT
	}

	final LongAdder chatRequests = new LongAdder();

	final AtomicInteger active = new AtomicInteger();

	final AtomicLong activeContextTokens = new AtomicLong();

	final LongAdder promptTokens = new LongAdder();

	final LongAdder generationTokens = new LongAdder();

	final LongAdder finishedStop = new LongAdder();

	final LongAdder finishedLength = new LongAdder();

	final LongAdder finishedAbort = new LongAdder();

	final LongAdder clientDisconnects = new LongAdder();

	final LongAdder resets = new LongAdder();

	final PrefixCache prefixCache = new PrefixCache();

	final LatencyHistogram ttft = new LatencyHistogram(0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
			0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0);

	final LatencyHistogram itl = new LatencyHistogram(0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
			1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0);

	final LatencyHistogram e2e = new LatencyHistogram(0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
			40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0);

	void started(int promptTokenCount) {
		active.incrementAndGet();
		activeContextTokens.addAndGet(promptTokenCount);
		promptTokens.add(promptTokenCount);
	}

	void generated() {
		activeContextTokens.incrementAndGet();
		generationTokens.increment();
	}

	void ended(int contextTokens, Finished finished, long e2eNanos) {
		active.decrementAndGet();
		activeContextTokens.addAndGet(-contextTokens);
		switch (finished) {
			case STOP -> finishedStop.increment();
			case LENGTH -> finishedLength.increment();
			case ABORT -> finishedAbort.increment();
		}
		e2e.observeNanos(e2eNanos);
	}
}
