package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.TaxRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.KeepAwake;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 3: gateway tax witness, concurrency sweep and rate sweep. The sweeps' engine double runs in its own JVM. With a node's engine ({@link NodeTarget}) they measure that
 * engine and the gateway from {@code gateway.url} / {@code gateway.cmd} (else the embedded reference gateway in
 * front of it); where the profile allows, with no engine configured they measure the engine double behind the
 * embedded gateway. Whichever engine is reached is asked who it is: the engine double makes the verdict SIMULATED
 * at best, under any profile. Under {@code -Pgpu} a missing engine is PENDING_MEASUREMENT.
 */
@TaxRung
@NodeOnly
@DisplayName("rung 3 tax")
class TaxRungTests {

	@Test
	@RungArtifact(ArtifactId.TAX_WITNESS)
	@DisplayName("tax witness: raw engine vs gateway, interleaved")
	void taxWitness(RungRecorder run) throws IOException {
		try (KeepAwake awake = keepAwake(run)) {
			TaxSettings settings = TaxSettings.from(run.config());
			settings.recordSizes(run);
			Optional<URI> node = NodeTarget.configured(run);
			if (node.isPresent()) {
				TaxWitness.run(run, settings, TaxUpstream.of(node.get(), run));
				return;
			}
			if (!run.config().profile().embeddedTargetAllowed()) {
				return;
			}
			TimingModel timing = settings.tiny() ? TimingModel.defaults() : DECODE_LIKE;
			run.body().put("engine_double_timing", timing.toString());
			try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run, timing, EmbeddedUpstream.SPIN_FEW_STREAMS)) {
				TaxWitness.run(run, settings, upstream.upstream());
			}
		}
	}

	@Test
	@RungArtifact(ArtifactId.CONCURRENCY_SWEEP)
	@DisplayName("concurrency sweep: raw and gateway per level")
	void concurrencySweep(RungRecorder run) throws IOException {
		try (KeepAwake awake = keepAwake(run)) {
			TaxSettings settings = TaxSettings.from(run.config());
			settings.recordSizes(run);
			Optional<URI> node = NodeTarget.configured(run);
			if (node.isPresent()) {
				ConcurrencySweep.run(run, settings, TaxUpstream.of(node.get(), run));
				return;
			}
			if (!run.config().profile().embeddedTargetAllowed()) {
				return;
			}
			if (!settings.tiny() && run.config().string(HarnessConstants.SWEEP_CONCURRENCY).isEmpty()) {
				settings = settings.withLevels(TaxSettings.EMBEDDED_LEVELS);
				run.body()
						.put("levels_note", "embedded default levels " + TaxSettings.EMBEDDED_LEVELS + ", the engine double in its own "
								+ "process; whether a level stays valid on this machine is for the double's and the client's lag to say");
			}
			TaxSettings resolved = settings;
			onProcessDouble(run, settings.tiny() ? TimingModel.defaults() : DECODE_LIKE,
					upstream -> ConcurrencySweep.run(run, resolved, upstream));
		}
	}

	@Test
	@RungArtifact(ArtifactId.RATE_SWEEP)
	@DisplayName("rate sweep: goodput against SLOs, raw and gateway, and the highest rate each meets")
	void rateSweep(RungRecorder run) throws IOException {
		try (KeepAwake awake = keepAwake(run)) {
			TaxSettings settings = TaxSettings.from(run.config());
			settings.recordSizes(run);
			Optional<URI> node = NodeTarget.configured(run);
			if (node.isPresent()) {
				RateSweep.run(run, settings, TaxUpstream.of(node.get(), run));
				return;
			}
			if (!run.config().profile().embeddedTargetAllowed()) {
				return;
			}
			if (!settings.tiny() && run.config().string(HarnessConstants.RATE_SWEEP).isEmpty()) {
				settings = settings.withRates(TaxSettings.EMBEDDED_RATES);
			}
			TaxSettings resolved = settings;
			onProcessDouble(run, settings.tiny() ? TimingModel.defaults() : DECODE_LIKE,
					upstream -> RateSweep.run(run, resolved, upstream));
		}
	}

	/** The client's CPUs kept from halting while the rung measures, recorded as {@code client_keepawake}, if configured. */
	private static KeepAwake keepAwake(RungRecorder run) {
		if (!run.config().get(ConfigKeys.CLIENT_KEEPAWAKE)) {
			return KeepAwake.off();
		}
		KeepAwake awake = KeepAwake.start(run.config().experimentsDir().resolve("logs"));
		awake.writeTo(run.body().putObject("client_keepawake"));
		return awake;
	}

	/** Runs {@code rung} against the engine double in its own JVM; in this JVM (said in the artifact) when its jar is not built. */
	private static void onProcessDouble(RungRecorder run, TimingModel timing, java.util.function.Consumer<TaxUpstream> rung)
			throws IOException {
		Optional<java.nio.file.Path> jar = ProcessUpstream.jar(run.config());
		run.body().put("engine_double_timing", timing.toString());
		if (jar.isPresent()) {
			run.body().put("engine_double_process", "own JVM: " + jar.get());
			try (ProcessUpstream upstream = ProcessUpstream.start(run, jar.get(), timing)) {
				rung.accept(upstream.upstream());
			}
			return;
		}
		run.body().put("engine_double_process", "this JVM: " + ProcessUpstream.JAR + " is not built (./mvnw -pl engine-double package)");
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run, timing, java.time.Duration.ZERO)) {
			rung.accept(upstream.upstream());
		}
	}

	/**
	 * The double's timing for the embedded witness and sweep: a decode pace like a served model's (50 ms to the
	 * first token, 20 ms per token), so the double emits few enough events per second on 2 cores to
	 * stay under its 1 ms scheduling-lag limit at the embedded levels.
	 */
	static final TimingModel DECODE_LIKE = TimingModel.defaults().withTtftBase(Duration.ofMillis(50)).withItlBase(Duration.ofMillis(20));
}
