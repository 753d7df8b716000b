package dev.fakbattery.core.load;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * A closed-loop run: {@code concurrency} workers, each sending its next request as soon as its
 * previous one ended, until {@code requests} were sent or {@code timeCap} passed; first
 * {@code warmupRequests} at the same concurrency, excluded from the results (they open the
 * connections and warm the JIT).
 *
 * @param concurrency requests in flight, 1 to {@value #MAX_CONCURRENCY}
 * @param requests measured requests, at least 1
 * @param warmupRequests requests sent before and excluded, at least 0
 * @param timeCap the whole run (warm-up included) stops by itself after this; requests still in flight are
 * ended as failed and requests not yet sent are counted as not sent
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record ClosedLoop(int concurrency, int requests, int warmupRequests, Duration timeCap) {

	/** The most requests in flight a run accepts. */
	public static final int MAX_CONCURRENCY = 4096;

	public ClosedLoop {
		if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
			throw new IllegalArgumentException("concurrency must be within 1.." + MAX_CONCURRENCY + ", got " + concurrency);
		}
		if (requests < 1 || warmupRequests < 0) {
			throw new IllegalArgumentException("requests must be >= 1 and warmupRequests >= 0, got " + requests + " and "
					+ warmupRequests);
		}
		Objects.requireNonNull(timeCap, "timeCap");
		if (timeCap.isZero() || timeCap.isNegative()) {
			throw new IllegalArgumentException("timeCap must be positive, got " + timeCap);
		}
	}
}
