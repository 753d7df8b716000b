package dev.fakbattery.core.load;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * An open-loop run: requests are sent on the precomputed {@link ArrivalSchedule} whatever the
 * responses do, optionally capped at {@code maxConcurrency} in flight (a request waiting for a slot
 * keeps its intended send time, so the wait shows as client queue time, vllm#54101). First
 * {@code warmupRequests} are sent closed-loop and excluded.
 *
 * @param arrivals when each measured request is due
 * @param maxConcurrency the most requests in flight; 0 for no cap
 * @param warmupRequests requests sent before the schedule starts and excluded
 * @param timeCap the whole run stops by itself after this (see {@link ClosedLoop})
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record OpenLoop(ArrivalSchedule arrivals, int maxConcurrency, int warmupRequests, Duration timeCap) {

	public OpenLoop {
		Objects.requireNonNull(arrivals, "arrivals");
		Objects.requireNonNull(timeCap, "timeCap");
		if (maxConcurrency < 0 || maxConcurrency > ClosedLoop.MAX_CONCURRENCY) {
			throw new IllegalArgumentException("maxConcurrency must be within 0.." + ClosedLoop.MAX_CONCURRENCY + " (0 = no cap), got "
					+ maxConcurrency);
		}
		if (warmupRequests < 0) {
			throw new IllegalArgumentException("warmupRequests must be >= 0, got " + warmupRequests);
		}
		if (timeCap.isZero() || timeCap.isNegative()) {
			throw new IllegalArgumentException("timeCap must be positive, got " + timeCap);
		}
	}
}
