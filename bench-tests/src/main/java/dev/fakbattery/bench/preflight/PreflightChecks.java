package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.Check;

/**
 * The acceptance checks of the preflight rung, as fak's battery applies them: the node verdict
 * is READY or READY_PENDING_INSTALL, the engine's row is ready for the configured quant, and the
 * anti-mislabel guard passes when a GPU name is required.
 *
 * @since 0.1
 */
public final class PreflightChecks {

	/** Check name: {@value}. */
	public static final String NODE_VERDICT = "node_verdict";

	/** Check name: {@value}. */
	public static final String ENGINE_READY = "engine_ready";

	private PreflightChecks() {
	}

	/**
	 * Why the node checks cannot be measured here: nvidia-smi is not installed, so there is no GPU reading at all (a
	 * CPU machine, such as the {@code llamacpp} profile's); empty when nvidia-smi ran, whatever it said. The rung then
	 * records the node checks as pending (which fails {@code -Pgpu}), not as a blocked node.
	 */
	public static Optional<String> unmeasurable(PreflightReport report, String engine) {
		if (report.nvidiaSmi().status() != SmiStatus.UNAVAILABLE) {
			return Optional.empty();
		}
		return Optional.of("nvidia-smi is not installed here (" + report.nvidiaSmi().detail() + "): the node verdict and the "
				+ engine + " row need the GPUs it reports");
	}

	/** The checks of {@code report} for {@code engine}, for example {@code vllm}. */
	public static List<Check> of(PreflightReport report, String engine) {
		List<Check> checks = new ArrayList<>();
		checks.add(new Check(NODE_VERDICT, report.nodeVerdict().ready(), "READY or READY_PENDING_INSTALL",
				report.nodeVerdict().name()));
		checks.add(engineReady(report, engine));
		report.gpuNameGuard().ifPresent(checks::add);
		return List.copyOf(checks);
	}

	private static Check engineReady(PreflightReport report, String engine) {
		String quant = report.config().quant();
		String expected = engine + " row ready with quant " + quant;
		Optional<EngineEvaluation> row = report.engine(engine);
		if (row.isEmpty()) {
			return new Check(ENGINE_READY, false, expected, "no " + engine + " row");
		}
		EngineEvaluation e = row.get();
		return new Check(ENGINE_READY, e.ready() && e.quant().equals(quant), expected,
				engine + " " + e.verdict() + " with quant " + e.quant());
	}
}
