package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.TaxRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 3: gateway tax witness and concurrency sweep. With {@code base.url} they measure that engine
 * and the gateway from {@code gateway.url} / {@code gateway.cmd} (else the embedded reference gateway
 * in front of it); without it they measure the engine double behind the embedded gateway and the
 * verdict is SIMULATED at best. Under {@code -Pgpu} a missing {@code base.url} is PENDING_MEASUREMENT.
 */
@TaxRung
@NodeOnly
@DisplayName("rung 3 tax")
class TaxRungTests {

	@Test
	@RungArtifact(ArtifactId.VLLM_TAX)
	@DisplayName("tax witness: raw engine vs gateway, interleaved")
	void taxWitness(RungRun run) throws IOException {
		Optional<URI> base = target(run);
		if (base.isEmpty() && "gpu".equals(run.config().profile())) {
			return;
		}
		TaxSettings settings = TaxSettings.from(run.config());
		if (base.isPresent()) {
			TaxWitness.run(run, settings, TaxUpstream.node(base.get(), run.config().engine()));
			return;
		}
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), settings.tiny() ? TimingModel.defaults() : DECODE_LIKE,
				EmbeddedUpstream.SPIN_FEW_STREAMS)) {
			TaxWitness.run(run, settings, upstream.upstream());
		}
	}

	@Test
	@RungArtifact(ArtifactId.CONCURRENCY_SWEEP)
	@DisplayName("concurrency sweep: raw and gateway per level")
	void concurrencySweep(RungRun run) throws IOException {
		Optional<URI> base = target(run);
		if (base.isEmpty() && "gpu".equals(run.config().profile())) {
			return;
		}
		TaxSettings settings = TaxSettings.from(run.config());
		if (base.isPresent()) {
			ConcurrencySweep.run(run, settings, TaxUpstream.node(base.get(), run.config().engine()));
			return;
		}
		if (!settings.tiny() && run.config().string(HarnessConstants.SWEEP_CONCURRENCY).isEmpty()) {
			settings = settings.withLevels(TaxSettings.EMBEDDED_LEVELS);
			run.body().put("levels_note", "embedded default levels " + TaxSettings.EMBEDDED_LEVELS + ": on a 2-core machine the engine "
					+ "double becomes the bottleneck (scheduling lag p99 over 1 ms) from about 64 streams; set -Dsweep.concurrency to measure more");
		}
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), settings.tiny() ? TimingModel.defaults() : DECODE_LIKE,
				EmbeddedUpstream.SPIN_FEW_STREAMS)) {
			ConcurrencySweep.run(run, settings, upstream.upstream());
		}
	}

	/**
	 * The double's timing for the embedded witness and sweep: a decode pace like a served model's (50 ms to the
	 * first token, 20 ms per token), so the double emits few enough events per second on 2 cores to
	 * stay under its 1 ms scheduling-lag limit at the embedded levels.
	 */
	static final TimingModel DECODE_LIKE = TimingModel.defaults().withTtftBase(Duration.ofMillis(50)).withItlBase(Duration.ofMillis(20));

	/**
	 * The raw engine of {@link NodeTarget} ({@code base.url}, else {@code engine.cmd}, else {@code engine.image}) when one is
	 * configured or the profile is {@code gpu} (where its absence is recorded as pending); else empty: the engine double.
	 */
	private static Optional<URI> target(RungRun run) {
		if ("gpu".equals(run.config().profile()) || NodeTarget.configured(run.config())) {
			return NodeTarget.baseUrl(run);
		}
		return Optional.empty();
	}
}
