package dev.fakbattery.bench.preflight;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates a node from its recorded inputs, or from live {@link PreflightProbes}.
 *
 * <p>Node verdict, as in fak: {@code READY} if any engine is READY, else
 * {@code READY_PENDING_INSTALL} if any engine is, else {@code BLOCKED_ARCH} if every engine is,
 * else {@code BLOCKED_QUANT_ARCH}, else {@code BLOCKED_MEMORY}, else {@code BLOCKED}.
 *
 * @since 0.1
 */
public final class PreflightEvaluator {

	private PreflightEvaluator() {
	}

	/** {@link #run(PreflightConfig, PreflightProbes, Clock)} stamped with the UTC clock. */
	public static PreflightReport run(PreflightConfig config, PreflightProbes probes) {
		return run(config, probes, Clock.systemUTC());
	}

	/** Reads nvidia-smi and imports each configured engine through {@code probes}, then evaluates. */
	public static PreflightReport run(PreflightConfig config, PreflightProbes probes, Clock clock) {
		NvidiaSmiReading smi = probes.nvidiaSmi();
		Map<String, EngineProbe> engineProbes = new LinkedHashMap<>();
		for (String engine : config.engines()) {
			engineProbes.put(engine, probes.engineImport(engine));
		}
		return evaluate(config, smi, engineProbes, clock);
	}

	/**
	 * Evaluates recorded inputs. An engine without a probe counts as absent with detail
	 * {@code not probed}.
	 */
	public static PreflightReport evaluate(PreflightConfig config, NvidiaSmiReading smi,
			Map<String, EngineProbe> probes, Clock clock) {
		NodeShape node = NodeShape.of(smi);
		Map<String, EngineProbe> used = new LinkedHashMap<>();
		List<EngineEvaluation> rows = new ArrayList<>();
		for (String engine : config.engines()) {
			EngineProbe probe = probes.getOrDefault(engine, new EngineProbe(false, "", "not probed"));
			used.put(engine, probe);
			rows.add(EngineEvaluator.evaluate(engine, node, probe, config));
		}
		Optional<String> fit = config.quants()
				.recommended(config.modelTotalParamsB(), config.kvOverhead(),
						node.totalVramGb(), node.computeCap());
		return new PreflightReport(config, clock.instant(), smi, node, used, rows, nodeVerdict(rows), fit,
				GpuNameGuard.check(config.requiredGpuName(), smi));
	}

	static EngineVerdict nodeVerdict(List<EngineEvaluation> rows) {
		if (has(rows, EngineVerdict.READY)) {
			return EngineVerdict.READY;
		}
		if (has(rows, EngineVerdict.READY_PENDING_INSTALL)) {
			return EngineVerdict.READY_PENDING_INSTALL;
		}
		if (rows.stream().allMatch(r -> r.verdict() == EngineVerdict.BLOCKED_ARCH)) {
			return EngineVerdict.BLOCKED_ARCH;
		}
		if (has(rows, EngineVerdict.BLOCKED_QUANT_ARCH)) {
			return EngineVerdict.BLOCKED_QUANT_ARCH;
		}
		if (has(rows, EngineVerdict.BLOCKED_MEMORY)) {
			return EngineVerdict.BLOCKED_MEMORY;
		}
		return EngineVerdict.BLOCKED;
	}

	private static boolean has(List<EngineEvaluation> rows, EngineVerdict verdict) {
		return rows.stream().anyMatch(r -> r.verdict() == verdict);
	}
}
