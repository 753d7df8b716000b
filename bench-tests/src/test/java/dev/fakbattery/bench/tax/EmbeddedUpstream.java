package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.LagStats;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.Dialect;

/**
 * The engine double as the tax bench's raw engine when no {@code base.url} is set: the configured
 * dialect (vLLM by default) and model, seeded, with a timing model; its scheduling lag is the
 * {@link UpstreamLag} the rung checks.
 */
final class EmbeddedUpstream implements AutoCloseable {

	/**
	 * Spin before each deadline when few streams run: gives the double its best chance at the 1 ms lag
	 * rule. Measured on this project's 2-core machine (load about 2), tax witness at count 8: spin 0 gave lag
	 * p50 about 130 us, p99 2.0-3.5 ms; 200 us gave p50 about 1 us, p99 1.1-2.5 ms; 1 ms no better p99 (the
	 * tail is preemption, which spinning cannot prevent). The sweep runs many streams and does not spin.
	 */
	static final Duration SPIN_FEW_STREAMS = Duration.ofNanos(200_000);

	private final EngineDouble engine;

	private final Dialect dialect;

	private final String settings;

	private final TimingModel timing;

	private EmbeddedUpstream(EngineDouble engine, Dialect dialect, String settings, TimingModel timing) {
		this.engine = engine;
		this.dialect = dialect;
		this.settings = settings;
		this.timing = timing;
	}

	/**
	 * Starts the double for {@code run}'s engine and model and records it as the run's target: the run is SIMULATED
	 * at best.
	 */
	static EmbeddedUpstream start(RungRecorder run, TimingModel timing, Duration spin) throws IOException {
		EmbeddedUpstream upstream = start(run.config(), timing, spin);
		run.target(URI.create(upstream.engine.baseUrl()), TargetIdentity.EMBEDDED);
		return upstream;
	}

	/** Starts the double for {@code config}'s engine and model (benches that write no rung artifact). */
	static EmbeddedUpstream start(HarnessConfig config, TimingModel timing, Duration spin) throws IOException {
		Dialect dialect = config.engine();
		EngineDouble.Builder builder = EngineDouble.builder()
				.dialect(dialect)
				.timing(timing)
				.spin(spin)
				.seed(TaxSettings.SEED);
		config.string(HarnessConstants.MODEL).ifPresent(builder::model);
		return new EmbeddedUpstream(builder.start(), dialect,
				timing + ", spin " + spin.toNanos() / 1_000 + " us, seed " + TaxSettings.SEED, timing);
	}

	TaxUpstream upstream() {
		String because = "no " + HarnessConstants.BASE_URL + ": measured against the engine double (" + dialect + " dialect, "
				+ settings + ") with the gateway in front of it; not a real engine";
		return TaxUpstream.simulated(URI.create(engine.baseUrl()), dialect, because, lag(), timing.batchingFormula());
	}

	UpstreamLag lag() {
		return new UpstreamLag() {
			@Override
			public void reset() {
				engine.resetStats();
			}

			@Override
			public Reading read() {
				LagStats lag = engine.schedulingLag();
				return new Reading(lag.count(), lag.p50Micros(), lag.p99Micros(), lag.maxMicros());
			}
		};
	}

	EngineDouble engine() {
		return engine;
	}

	@Override
	public void close() {
		engine.close();
	}
}
