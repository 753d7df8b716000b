package dev.fakbattery.bench.tax;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.TaxRung;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Rung 3: gateway tax witness and concurrency sweep. */
@TaxRung
@NodeOnly
@DisplayName("rung 3 tax")
class TaxRungTests {

	@Test
	@RungArtifact(ArtifactId.VLLM_TAX)
	@DisplayName("tax witness: raw engine vs gateway, interleaved")
	void taxWitness(RungRun run) {
		requireNodeUnderGpu(run);
		run.pending("tax.latency_tax", "the tax bench is not built yet (issue [3])",
				"build the tax bench; no latency tax exists until then");
	}

	@Test
	@RungArtifact(ArtifactId.CONCURRENCY_SWEEP)
	@DisplayName("concurrency sweep: raw and gateway per level")
	void concurrencySweep(RungRun run) {
		requireNodeUnderGpu(run);
		run.pending("sweep.levels", "the concurrency sweep is not built yet (issue [3])",
				"build the sweep; no throughput ratio exists until then");
	}

	private static void requireNodeUnderGpu(RungRun run) {
		if ("gpu".equals(run.config().profile())) {
			run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
		}
	}
}
