package dev.fakbattery.bench.preflight;

import java.net.URI;
import java.util.Optional;

import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.PreflightRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.target.TargetIdentity;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 1: node preflight. Probes nvidia-smi, the engine install, and the engine's /v1/models and
 * /version at {@code base.url}; fak's verdict order decides READY or BLOCKED_*.
 */
@PreflightRung
@NodeOnly
@RungArtifact(ArtifactId.PREFLIGHT)
@DisplayName("rung 1 preflight")
class PreflightRungTests {

	@Test
	@DisplayName("probes the node: GPUs, engine install, served model")
	void preflight(RungRecorder run) {
		Optional<URI> base = NodeTarget.baseUrl(run);
		if (base.isEmpty()) {
			return;
		}
		PreflightConfig config = PreflightConfig.from(run.config());
		SystemPreflightProbes probes = SystemPreflightProbes.create();
		PreflightReport report = PreflightEvaluator.run(config, probes);
		run.body().setAll(report.toJson());
		run.body().remove(java.util.List.of("schema", "generated_at")); // the harness writes its own
		ServedModels served = probes.models(base.get());
		Optional<String> version = run.target().map(TargetIdentity::engineVersion);
		var endpoint = run.body().putObject("engine_endpoint");
		endpoint.put("base_url", base.get().toString()).put("models_http_status", served.httpStatus()).put("version", version.orElse(null));
		served.ids().forEach(endpoint.putArray("served_models")::add);
		if (report.nvidiaSmi().status() == SmiStatus.OK) {
			run.measured("gpu_count", report.node().gpuCount(), "GPUs", "nvidia-smi");
			run.measured("total_vram_gb", report.node().totalVramGb(), "GB", "nvidia-smi memory.total");
		}
		run.check("engine_models_endpoint", served.httpStatus() == 200 && !served.ids().isEmpty(),
				"GET " + base.get() + "/models answers 200 with at least one model", "status " + served.httpStatus() + " " + served.ids());
		run.config()
				.string(HarnessConstants.MODEL)
				.ifPresent(model -> run.check("served_model_name", served.ids().contains(model),
						"the engine serves " + model, "it serves " + served.ids()));
		Optional<String> unmeasurable = PreflightChecks.unmeasurable(report, config.engines().get(0));
		if (unmeasurable.isPresent()) {
			run.pending("nvidia_smi", unmeasurable.get(), "run the preflight on the serving node");
		}
		else {
			for (Check check : PreflightChecks.of(report, config.engines().get(0))) {
				run.check(check.name(), check.passed(), check.expected(), check.observed());
			}
		}
		run.headline("node " + report.nodeVerdict() + ", engine " + version.orElse("version unknown") + ", serves "
				+ served.ids());
	}
}
