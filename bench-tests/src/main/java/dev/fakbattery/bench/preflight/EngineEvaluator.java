package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * fak's per-engine go/no-go, checked in order: {@code BLOCKED_ARCH} (capability unknown or
 * below 9.0), {@code BLOCKED_QUANT_ARCH} (the quant needs a newer architecture),
 * {@code BLOCKED_MEMORY} (total below {@code weights x (1+kv)}, or the smallest card below
 * {@code weights/n x (1+kv) + 7 GB}), {@code READY_PENDING_INSTALL} (the engine does not import),
 * else {@code READY}. An unknown capability always blocks: the preflight fails closed.
 *
 * @since 0.1
 */
public final class EngineEvaluator {

	private EngineEvaluator() {
	}

	public static EngineEvaluation evaluate(String engine, NodeShape node, EngineProbe probe, PreflightConfig config) {
		QuantSpec quant = config.quants().require(config.quant());
		double weights = quant.weightsGb(config.modelTotalParamsB());
		double need = VramMath.requiredTotalGb(weights, config.kvOverhead());
		double perGpuNeed = VramMath.requiredPerGpuGb(weights, config.kvOverhead(), node.gpuCount());
		boolean aggregateOk = node.totalVramGb() >= need;
		boolean perGpuOk = node.perGpuVramGb() == null || node.perGpuVramGb() >= perGpuNeed;
		Double cc = node.computeCap();
		boolean archOk = cc != null && cc >= ComputeCapability.DSA_STOCK_FLOOR_CC;
		Optional<String> fit = config.quants()
				.recommended(config.modelTotalParamsB(), config.kvOverhead(),
						node.totalVramGb(), cc);
		List<String> notes = new ArrayList<>();
		EngineVerdict verdict;
		if (!archOk) {
			verdict = EngineVerdict.BLOCKED_ARCH;
			notes.add(archNote(cc));
		}
		else if (!quant.runsOn(cc)) {
			verdict = EngineVerdict.BLOCKED_QUANT_ARCH;
			notes.add(String.format(Locale.ROOT, "%s needs compute capability %.1f; %s cannot run it%s.",
					quant.name(), quant.minComputeCap(), node.arch(), fit.map(q -> ": use quant " + q).orElse("")));
		}
		else if (!aggregateOk || !perGpuOk) {
			verdict = EngineVerdict.BLOCKED_MEMORY;
			notes.add(memoryNote(quant.name(), need, perGpuNeed, node, aggregateOk, fit));
		}
		else if (!probe.present()) {
			verdict = EngineVerdict.READY_PENDING_INSTALL;
			notes.add("Arch and memory OK; " + engine + " does not import: install it, then serve.");
		}
		else {
			verdict = EngineVerdict.READY;
			notes.add(engine + " " + probe.version() + " present; arch and memory OK for " + quant.name() + ".");
		}
		return new EngineEvaluation(engine, verdict, archOk, aggregateOk && perGpuOk, probe.present(),
				probe.version(), quant.name(), need, VramMath.round1(node.totalVramGb()), perGpuNeed,
				node.perGpuVramGb(), node.gpuCount(), fit, notes);
	}

	private static String archNote(Double cc) {
		if (cc == null) {
			return "GPU compute capability is unknown; run the preflight on the serving node, where nvidia-smi reports the GPUs.";
		}
		String arch = ComputeCapability.archLabel(cc);
		if (cc == ComputeCapability.ADA_CC) {
			return arch + ": stock vLLM/SGLang gate DSA to sm_90+; only a community Ada port runs here, not stock.";
		}
		return String.format(Locale.ROOT, "%s (cc %.1f) is below the DSA kernel floor cc 9.0; stock vLLM/SGLang "
				+ "cannot serve this model here. Target Hopper (H100/H200) or Blackwell (B200/B300/GB200/GB300).",
				arch, cc);
	}

	private static String memoryNote(String quant, double need, double perGpuNeed, NodeShape node, boolean aggregateOk,
			Optional<String> fit) {
		if (aggregateOk) {
			return String.format(Locale.ROOT, "total VRAM fits but the per-GPU shard needs %.1f GB (incl. %.0f GB "
					+ "per-rank reserve) and the smallest card has %.1f GB: it would run out of memory at load.",
					perGpuNeed, VramMath.PER_RANK_RESERVE_GB, node.perGpuVramGb());
		}
		String base = String.format(Locale.ROOT, "%s needs %.1f GB but the node has %.1f GB", quant, need,
				node.totalVramGb());
		return base + fit.map(q -> "; " + q + " would fit.").orElse("; no known quant fits: add GPUs.");
	}
}
