package dev.fakbattery.engine;

/**
 * The shared state every request of one double uses.
 *
 * @param timing when tokens are due
 * @param pacer how the double waits for a deadline
 * @param lag the scheduling-lag histogram
 * @param counters the real counters behind {@code /metrics}
 * @since 0.1
 */
record SchedulerState(TimingModel timing, Pacer pacer, LagRecorder lag, EngineCounters counters) {
}
