package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The inputs recorded in a preflight report (configuration, nvidia-smi reading, engine probes),
 * read back so that a committed report can be re-evaluated and compared with its own verdicts.
 *
 * @param config the configuration the report records
 * @param nvidiaSmi the recorded nvidia-smi reading
 * @param engineProbes the recorded probes, in the report's engine order
 * @since 0.1
 */
public record PreflightInputs(PreflightConfig config, NvidiaSmiReading nvidiaSmi, Map<String, EngineProbe> engineProbes) {

	/**
	 * Reads the inputs of a {@value PreflightJson#SCHEMA} report.
	 *
	 * @throws IllegalArgumentException naming the first field that is missing or of the wrong type
	 */
	public static PreflightInputs read(JsonNode report) {
		String schema = report.path("schema").asText();
		if (!PreflightJson.SCHEMA.equals(schema)) {
			throw new IllegalArgumentException("preflight report schema is [" + schema + "], expected " + PreflightJson.SCHEMA);
		}
		Map<String, EngineProbe> probes = probes(field(report, "engine_probes", JsonNode::isObject));
		List<String> engines = new ArrayList<>();
		report.path("engines").forEach(row -> engines.add(row.path("engine").asText()));
		if (engines.isEmpty()) {
			engines.addAll(probes.keySet());
		}
		List<String> supported = new ArrayList<>();
		report.path("supported_gpus").forEach(name -> supported.add(name.asText()));
		PreflightConfig config = new PreflightConfig(field(report, "model", JsonNode::isTextual).asText(),
				field(report, "model_total_params_b", JsonNode::isNumber).asDouble(),
				field(report, "quant", JsonNode::isTextual).asText(),
				field(report, "kv_overhead", JsonNode::isNumber).asDouble(), QuantTable.defaults(), engines,
				Optional.ofNullable(report.path("gpu_name_guard").path("required").textValue()), supported);
		return new PreflightInputs(config, smi(field(report, "nvidia_smi", JsonNode::isObject)), probes);
	}

	private static NvidiaSmiReading smi(JsonNode node) {
		SmiStatus status = SmiStatus.valueOf(field(node, "status", JsonNode::isTextual).asText());
		List<GpuRow> gpus = new ArrayList<>();
		for (JsonNode gpu : field(node, "gpus", JsonNode::isArray)) {
			JsonNode mib = gpu.path("memory_total_mib");
			gpus.add(new GpuRow(gpu.path("index").asText(), gpu.path("name").asText(),
					mib.isNumber() ? mib.asDouble() : null, gpu.path("compute_cap").asText("")));
		}
		return new NvidiaSmiReading(status, node.path("detail").asText(""), gpus);
	}

	private static Map<String, EngineProbe> probes(JsonNode node) {
		Map<String, EngineProbe> probes = new LinkedHashMap<>();
		node.properties()
				.forEach(e -> probes.put(e.getKey(), new EngineProbe(
						field(e.getValue(), "present", JsonNode::isBoolean).asBoolean(),
						e.getValue().path("version").asText(""), e.getValue().path("detail").asText(""))));
		return probes;
	}

	private static JsonNode field(JsonNode parent, String name, Predicate<JsonNode> type) {
		JsonNode value = parent.path(name);
		if (!type.test(value)) {
			throw new IllegalArgumentException("preflight report field " + name + " is missing or of the wrong type: "
					+ (value.isMissingNode() ? "missing" : value.toString()));
		}
		return value;
	}
}
