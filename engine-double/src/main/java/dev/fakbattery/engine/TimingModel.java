package dev.fakbattery.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * When the double emits each token, as a function of the prompt and of how many generations are in flight.
 *
 * <pre>
 * ttft = ttftBase + perPromptToken * promptTokens
 * itl  = itlBase * (1 + batchAlpha * (active - 1)) * (1 + jitter * (2u - 1))
 * </pre>
 * {@code active} is the number of generations in flight (streamed or not) when the token is scheduled, so inter-token
 * latency grows with load as under continuous batching; {@code u} is drawn from the request's seeded generator, so
 * the schedule is deterministic for a given seed, request and load. Deadlines are absolute: token {@code k} is due at
 * {@code arrival + ttft + itl_1 + ... + itl_k}, a late emission does not push later ones back.
 *
 * @param ttftBase time from request arrival to the first token, before prompt cost
 * @param perPromptToken prefill cost added per prompt token
 * @param itlBase inter-token latency of a lone stream
 * @param batchAlpha relative inter-token slowdown per additional concurrent generation, {@code >= 0}
 * @param jitter relative spread of the inter-token latency, in {@code [0, 1]}; 0 disables it
 * @since 0.1
 */
public record TimingModel(Duration ttftBase, Duration perPromptToken, Duration itlBase, double batchAlpha, double jitter) {

	public TimingModel {
		requireNonNegative("ttftBase", ttftBase);
		requireNonNegative("perPromptToken", perPromptToken);
		requireNonNegative("itlBase", itlBase);
		if (!(batchAlpha >= 0) || Double.isInfinite(batchAlpha)) {
			throw new IllegalArgumentException("batchAlpha must be a finite number >= 0, was " + batchAlpha);
		}
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new IllegalArgumentException("jitter must be in [0, 1], was " + jitter);
		}
	}

	/** Small but non-zero: 2 ms TTFT base, 10 µs per prompt token, 1 ms ITL, 5 % ITL slowdown per extra stream. */
	public static TimingModel defaults() {
		return new TimingModel(Duration.ofMillis(2), Duration.ofNanos(10_000), Duration.ofMillis(1), 0.05, 0);
	}

	/** All zero: tokens are emitted as fast as the double can write them, for overhead measurements. */
	public static TimingModel instant() {
		return new TimingModel(Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, 0);
	}

	/** This model with the TTFT base replaced. */
	public TimingModel withTtftBase(Duration value) {
		return new TimingModel(value, perPromptToken, itlBase, batchAlpha, jitter);
	}

	/** This model with the per-prompt-token cost replaced. */
	public TimingModel withPerPromptToken(Duration value) {
		return new TimingModel(ttftBase, value, itlBase, batchAlpha, jitter);
	}

	/** This model with the lone-stream inter-token latency replaced. */
	public TimingModel withItlBase(Duration value) {
		return new TimingModel(ttftBase, perPromptToken, value, batchAlpha, jitter);
	}

	/** This model with the per-stream ITL slowdown replaced. */
	public TimingModel withBatchAlpha(double value) {
		return new TimingModel(ttftBase, perPromptToken, itlBase, value, jitter);
	}

	/** This model with the ITL spread replaced. */
	public TimingModel withJitter(double value) {
		return new TimingModel(ttftBase, perPromptToken, itlBase, batchAlpha, value);
	}

	/** Time to first token for a prompt of {@code promptTokens} tokens, in nanoseconds. */
	public long ttftNanos(int promptTokens) {
		return ttftBase.toNanos() + perPromptToken.toNanos() * Math.max(0, promptTokens);
	}

	/** How the ITL grows with load, as runs record it: {@code itl x (1 + 0.05 x (active - 1))}. */
	public String batchingFormula() {
		return "itl x (1 + " + batchAlpha + " x (active - 1))";
	}

	/**
	 * Inter-token latency in nanoseconds.
	 *
	 * @param active generations in flight, including the one asking (values below 1 count as 1)
	 * @param u a uniform draw in {@code [0, 1)} from the request's seeded generator; ignored when jitter is 0
	 */
	public long itlNanos(int active, double u) {
		double batching = 1 + batchAlpha * (Math.max(1, active) - 1);
		double spread = 1 + jitter * (2 * u - 1);
		return Math.round(itlBase.toNanos() * batching * spread);
	}

	private static void requireNonNegative(String name, Duration value) {
		Objects.requireNonNull(value, name);
		if (value.isNegative()) {
			throw new IllegalArgumentException(name + " must not be negative, was " + value);
		}
	}
}
