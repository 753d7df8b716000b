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
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), TimingModel.defaults(),
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
		try (EmbeddedUpstream upstream = EmbeddedUpstream.start(run.config(), TimingModel.defaults(), Duration.ZERO)) {
			ConcurrencySweep.run(run, settings, upstream.upstream());
		}
	}

	/** {@code base.url}; under {@code -Pgpu} its absence is recorded as pending. */
	private static Optional<URI> target(RungRun run) {
		if ("gpu".equals(run.config().profile())) {
			return run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
		}
		return run.config().v1Url(HarnessConstants.BASE_URL);
	}
}
