package dev.fakbattery.bench.preflight;

import java.net.URI;
import java.util.Optional;

import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.PreflightRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 1: node preflight. Probes the engine's /v1/models and /version at {@code base.url} and, when that node is this
 * host, nvidia-smi and the engine install; fak's verdict order decides READY or BLOCKED_* ({@link PreflightRun}).
 */
@PreflightRung
@NodeOnly
@RungArtifact(ArtifactId.PREFLIGHT)
@DisplayName("rung 1 preflight")
class PreflightRungTests {

	@Test
	@DisplayName("probes the node: served model, and GPUs and engine install when the node is this host")
	void preflight(RungRecorder run) {
		Optional<URI> base = NodeTarget.baseUrl(run);
		if (base.isEmpty()) {
			return;
		}
		PreflightRun.record(run, base.get(), SystemPreflightProbes.create());
	}
}
