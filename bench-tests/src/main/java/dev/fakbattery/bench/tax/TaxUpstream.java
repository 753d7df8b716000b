package dev.fakbattery.bench.tax;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.wire.Dialect;

/**
 * The raw engine a tax run measures against: a serving node's {@code base.url}, or the engine double
 * (then {@code simulated} says so and {@code lag} reads the double's scheduling lag).
 *
 * @param baseUrl the raw engine's base URL, ending in {@code /v1}
 * @param engine the dialect, {@code vllm} or {@code sglang}
 * @param simulated why the run is simulated; empty on a real engine
 * @param lag the double's lag probe; empty on a real engine
 * @param batching the double's batching model (how its ITL grows with load) where this run started it; empty on a
 *        real engine and on a double this run only reached
 * @since 0.1
 */
public record TaxUpstream(URI baseUrl, Dialect engine, Optional<String> simulated, Optional<UpstreamLag> lag,
		Optional<String> batching) {

	public TaxUpstream {
		Objects.requireNonNull(baseUrl, "baseUrl");
		Objects.requireNonNull(engine, "engine");
		Objects.requireNonNull(simulated, "simulated");
		Objects.requireNonNull(lag, "lag");
		Objects.requireNonNull(batching, "batching");
	}

	/**
	 * The engine at {@code baseUrl} that {@code run} reached and asked who it is ({@link RungRecorder#target}): simulated
	 * when it is the engine double, whatever URL reached it.
	 */
	public static TaxUpstream of(URI baseUrl, RungRecorder run) {
		return new TaxUpstream(baseUrl, run.config().engine(), run.target().flatMap(t -> t.simulatedBecause()), Optional.empty(),
				Optional.empty());
	}

	/** An engine at {@code baseUrl} that nobody asked who it is (tests of the witness itself). */
	public static TaxUpstream node(URI baseUrl, Dialect engine) {
		return new TaxUpstream(baseUrl, engine, Optional.empty(), Optional.empty(), Optional.empty());
	}

	/** The engine double at {@code baseUrl}, started by this run with the batching model {@code batching}. */
	public static TaxUpstream simulated(URI baseUrl, Dialect engine, String because, UpstreamLag lag, String batching) {
		return new TaxUpstream(baseUrl, engine, Optional.of(because), Optional.of(lag), Optional.of(batching));
	}
}
