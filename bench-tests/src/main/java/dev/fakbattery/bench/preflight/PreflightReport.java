package dev.fakbattery.bench.preflight;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;

/**
 * A preflight of one node: its inputs (nvidia-smi, engine probes, configuration), the node shape,
 * one evaluation per engine and the node verdict. Serialises to fak's schema
 * {@value PreflightJson#SCHEMA} with {@link #toJson()}.
 *
 * @param config what was evaluated against
 * @param generatedAt when
 * @param nvidiaSmi the nvidia-smi reading
 * @param node the node shape folded from it
 * @param engineProbes the import probe per engine, in evaluation order
 * @param engines one evaluation per engine
 * @param nodeVerdict the node verdict
 * @param recommendedQuant the best quant that fits the node, if any
 * @param gpuNameGuard the anti-mislabel check, when a GPU name is required
 * @since 0.1
 */
public record PreflightReport(PreflightConfig config, Instant generatedAt, NvidiaSmiReading nvidiaSmi, NodeShape node,
		Map<String, EngineProbe> engineProbes, List<EngineEvaluation> engines, EngineVerdict nodeVerdict,
		Optional<String> recommendedQuant, Optional<Check> gpuNameGuard) {

	public PreflightReport {
		Objects.requireNonNull(config, "config");
		Objects.requireNonNull(generatedAt, "generatedAt");
		Objects.requireNonNull(nvidiaSmi, "nvidiaSmi");
		Objects.requireNonNull(node, "node");
		engineProbes = Collections.unmodifiableMap(new LinkedHashMap<>(engineProbes));
		engines = List.copyOf(engines);
		Objects.requireNonNull(nodeVerdict, "nodeVerdict");
		Objects.requireNonNull(recommendedQuant, "recommendedQuant");
		Objects.requireNonNull(gpuNameGuard, "gpuNameGuard");
	}

	public boolean anyEngineReady() {
		return engines.stream().anyMatch(EngineEvaluation::ready);
	}

	public List<String> readyEngines() {
		return engines.stream().filter(EngineEvaluation::ready).map(EngineEvaluation::engine).toList();
	}

	public List<String> blockedEngines() {
		return engines.stream().filter(e -> !e.ready()).map(EngineEvaluation::engine).toList();
	}

	/** The row of {@code engine}, if it was evaluated. */
	public Optional<EngineEvaluation> engine(String engine) {
		return engines.stream().filter(e -> e.engine().equals(engine)).findFirst();
	}

	/** The report in fak's schema and field order. */
	public ObjectNode toJson() {
		return PreflightJson.write(this);
	}
}
