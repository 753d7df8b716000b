package dev.fakbattery.bench.serving;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.ServingWitnessRung;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Rung 2: serving witness (direct, via gateway, quarantine). */
@ServingWitnessRung
@NodeOnly
@RungArtifact(ArtifactId.SERVING_WITNESS)
@DisplayName("rung 2 serving witness")
class ServingWitnessRungTests {

	@Test
	@DisplayName("direct chat, the same chat through the gateway, and the quarantine flow")
	void servingWitness(RungRun run) {
		if ("gpu".equals(run.config().profile())) {
			run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
		}
		run.pending("serving_witness.flow", "the serving witness is not built yet (issue [4])",
				"build the serving witness rung; no serving evidence exists until then");
	}
}
