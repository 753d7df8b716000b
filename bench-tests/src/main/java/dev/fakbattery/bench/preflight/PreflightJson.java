package dev.fakbattery.bench.preflight;

import java.time.temporal.ChronoUnit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.wire.Json;

/**
 * Writes a {@link PreflightReport} in fak's schema and field order (the committed
 * {@code experiments/vllm/glm52-vllm-preflight.json}). The only addition is
 * {@code gpu_name_guard}, written only when a GPU name is required, so a report without the guard
 * has exactly fak's fields.
 *
 * @since 0.1
 */
public final class PreflightJson {

	/** The seed schema id: {@value}. */
	public static final String SCHEMA = "fak.glm52-serve-preflight.v1";

	private PreflightJson() {
	}

	public static ObjectNode write(PreflightReport report) {
		PreflightConfig config = report.config();
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", SCHEMA);
		doc.put("generated_at", report.generatedAt().truncatedTo(ChronoUnit.MICROS).toString());
		doc.put("model", config.model());
		doc.put("model_total_params_b", config.modelTotalParamsB());
		doc.put("quant", config.quant());
		doc.put("kv_overhead", config.kvOverhead());
		doc.put("dsa_stock_floor_cc", ComputeCapability.DSA_STOCK_FLOOR_CC);
		config.supportedGpus().forEach(doc.putArray("supported_gpus")::add);
		doc.set("nvidia_smi", nvidiaSmi(report.nvidiaSmi()));
		doc.set("node", node(report.node()));
		ObjectNode probes = doc.putObject("engine_probes");
		report.engineProbes()
				.forEach((engine, probe) -> probes.putObject(engine)
						.put("present", probe.present())
						.put("version", probe.version())
						.put("detail", probe.detail()));
		ArrayNode engines = doc.putArray("engines");
		report.engines().forEach(e -> engines.add(engine(e)));
		report.gpuNameGuard().ifPresent(check -> doc.set("gpu_name_guard", guard(config, check)));
		doc.set("summary", summary(report));
		return doc;
	}

	private static ObjectNode nvidiaSmi(NvidiaSmiReading smi) {
		ObjectNode node = Json.MAPPER.createObjectNode();
		node.put("source", NvidiaSmiReading.SOURCE);
		node.put("status", smi.status().name());
		node.put("detail", smi.detail());
		ArrayNode gpus = node.putArray("gpus");
		for (GpuRow gpu : smi.gpus()) {
			gpus.addObject()
					.put("index", gpu.index())
					.put("name", gpu.name())
					.put("memory_total_mib", gpu.memoryTotalMib())
					.put("compute_cap", gpu.computeCap());
		}
		return node;
	}

	private static ObjectNode node(NodeShape shape) {
		return Json.MAPPER.createObjectNode()
				.put("gpu_name", shape.gpuName())
				.put("gpu_count", shape.gpuCount())
				.put("compute_cap", shape.computeCap())
				.put("compute_cap_source", shape.computeCapSource())
				.put("arch", shape.arch())
				.put("total_vram_gb", shape.totalVramGb())
				.put("total_vram_source", shape.totalVramSource())
				.put("per_gpu_vram_gb", shape.perGpuVramGb())
				.put("per_gpu_vram_source", shape.perGpuVramSource());
	}

	private static ObjectNode engine(EngineEvaluation e) {
		ObjectNode row = Json.MAPPER.createObjectNode()
				.put("engine", e.engine())
				.put("verdict", e.verdict().name())
				.put("ready", e.ready())
				.put("arch_ok", e.archOk())
				.put("memory_ok", e.memoryOk())
				.put("engine_present", e.enginePresent())
				.put("engine_version", e.engineVersion())
				.put("quant", e.quant())
				.put("required_vram_gb", e.requiredVramGb())
				.put("total_vram_gb", e.totalVramGb())
				.put("required_per_gpu_vram_gb", e.requiredPerGpuVramGb())
				.put("per_gpu_vram_gb", e.perGpuVramGb())
				.put("gpu_count", e.gpuCount())
				.put("recommended_quant", e.recommendedQuant().orElse(null));
		e.notes().forEach(row.putArray("notes")::add);
		return row;
	}

	private static ObjectNode guard(PreflightConfig config, Check check) {
		return Json.MAPPER.createObjectNode()
				.put("required", config.requiredGpuName().orElseThrow())
				.put("status", check.status())
				.put("expected", check.expected())
				.put("observed", check.observed());
	}

	private static ObjectNode summary(PreflightReport report) {
		ObjectNode summary = Json.MAPPER.createObjectNode();
		summary.put("node_verdict", report.nodeVerdict().name());
		summary.put("any_engine_ready", report.anyEngineReady());
		report.readyEngines().forEach(summary.putArray("ready_engines")::add);
		report.blockedEngines().forEach(summary.putArray("blocked_engines")::add);
		summary.put("recommended_quant", report.recommendedQuant().orElse(null));
		summary.put("arch", report.node().arch());
		summary.put("compute_cap", report.node().computeCap());
		summary.put("total_vram_gb", report.node().totalVramGb());
		return summary;
	}
}
