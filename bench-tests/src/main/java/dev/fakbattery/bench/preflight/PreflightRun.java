package dev.fakbattery.bench.preflight;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.target.TargetIdentity;

/**
 * What rung 1 records about the node that serves {@code base.url}: its engine endpoint ({@code /v1/models},
 * {@code /version}) and, only when that node is this host ({@link NodeLocality}), its GPUs and engine install from
 * nvidia-smi and the import probe, judged by {@link PreflightChecks}. When {@code base.url}'s host is another machine
 * the GPU checks are PENDING_MEASUREMENT naming the fix (run the harness on the node), decided before any GPU probe:
 * a reading of this machine is never passed off as one of the node. An engine that {@code engine.cmd} or
 * {@code engine.image} started runs here.
 */
public final class PreflightRun {

	/** {@code node.this_host} and its reason are written under this key of the artifact: {@value}. */
	public static final String NODE = "node_locality";

	private PreflightRun() {
	}

	/**
	 * Records the preflight of the engine at {@code base} on {@code run}, through {@code probes}; whether {@code base}
	 * names this host is {@link NodeLocality#elsewhere(URI)}'s call.
	 */
	public static void record(RungRecorder run, URI base, PreflightProbes probes) {
		record(run, base, probes, elsewhere(run, base, NodeLocality.elsewhere(base)));
	}

	/**
	 * Whether the node is elsewhere: only a configured {@code base.url} can name another host; an engine this run
	 * started is here.
	 */
	static Optional<String> elsewhere(RungRecorder run, URI base, Optional<String> hostElsewhere) {
		return run.config().string(HarnessConstants.BASE_URL).isPresent() ? hostElsewhere : Optional.empty();
	}

	static void record(RungRecorder run, URI base, PreflightProbes probes, Optional<String> elsewhere) {
		PreflightConfig config = PreflightConfig.from(run.config());
		String engine = config.engines().get(0);
		ObjectNode locality = run.body().putObject(NODE);
		locality.put("base_url", base.toString());
		locality.put("this_host", elsewhere.isEmpty());
		locality.put("reason", elsewhere.orElse("base.url names this host, or this run started the engine here"));
		PreflightReport report = null;
		if (elsewhere.isEmpty()) {
			report = PreflightEvaluator.run(config, probes);
			run.body().setAll(report.toJson());
			run.body().remove(List.of("schema", "generated_at")); // the harness writes its own
		}
		ServedModels served = probes.models(base);
		Optional<String> version = run.target().map(TargetIdentity::engineVersion);
		ObjectNode endpoint = run.body().putObject("engine_endpoint");
		endpoint.put("base_url", base.toString()).put("models_http_status", served.httpStatus()).put("version", version.orElse(null));
		served.ids().forEach(endpoint.putArray("served_models")::add);
		run.check("engine_models_endpoint", served.httpStatus() == 200 && !served.ids().isEmpty(),
				"GET " + base + "/models answers 200 with at least one model", "status " + served.httpStatus() + " " + served.ids());
		run.config()
				.string(HarnessConstants.MODEL)
				.ifPresent(model -> run.check("served_model_name", served.ids().contains(model), "the engine serves " + model,
						"it serves " + served.ids()));
		String serving = ", engine " + version.orElse("version unknown") + ", serves " + served.ids();
		if (report == null) {
			String fix = "run the harness on the node that " + HarnessConstants.BASE_URL + " names, with -D" + HarnessConstants.BASE_URL
					+ "=http://127.0.0.1:" + port(base) + "/v1 there";
			String missing = elsewhere.get() + ": nvidia-smi and the engine import run here would describe this machine, not that node";
			run.pending(PreflightChecks.NODE_VERDICT, missing, fix);
			run.pending(PreflightChecks.ENGINE_READY, missing, fix);
			config.requiredGpuName().ifPresent(name -> run.pending(GpuNameGuard.CHECK, missing, fix));
			run.headline("node not judged (not this host: run the harness on it)" + serving);
			return;
		}
		if (report.nvidiaSmi().status() == SmiStatus.OK) {
			run.measured("gpu_count", report.node().gpuCount(), "GPUs", "nvidia-smi");
			run.measured("total_vram_gb", report.node().totalVramGb(), "GB", "nvidia-smi memory.total");
		}
		Optional<String> unmeasurable = PreflightChecks.unmeasurable(report, engine);
		if (unmeasurable.isPresent()) {
			run.pending("nvidia_smi", unmeasurable.get(), "run the preflight on the serving node");
		}
		else {
			for (Check check : PreflightChecks.of(report, engine)) {
				run.check(check.name(), check.passed(), check.expected(), check.observed());
			}
		}
		run.headline("node " + report.nodeVerdict() + serving);
	}

	private static int port(URI base) {
		return base.getPort() > 0 ? base.getPort() : "https".equals(base.getScheme()) ? 443 : 80;
	}
}
