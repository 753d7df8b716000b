package dev.fakbattery.bench.swebench;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.SwebenchRung;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Rung 4: SWE-bench Verified 20-task compare, raw arm vs gateway arm. */
@SwebenchRung
@NodeOnly
@RungArtifact(ArtifactId.SWEBENCH_COMPARE)
@DisplayName("rung 4 swebench-20")
class SwebenchRungTests {

	@Test
	@DisplayName("drives the compare runner and validates its artifacts strictly")
	void swebenchCompare(RungRun run) {
		run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
		run.requireConfig(HarnessConstants.SWEBENCH_RUNNER, "SWE-bench compare runner", "/path/to/swebench-compare");
		run.requireConfig(HarnessConstants.SWEBENCH_RUN_DIR, "SWE-bench run folder", "/path/to/run-dir");
	}
}
