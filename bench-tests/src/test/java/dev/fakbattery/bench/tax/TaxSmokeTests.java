package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactDocument;
import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;
import dev.fakbattery.report.gate.FinalGate;
import dev.fakbattery.report.gate.GateRow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tax.smoke}: rung 3 at the smoke run's sizes under any profile, and an artifact that says so, which nothing
 * downstream takes for a full run.
 */
@DisplayName("tax.smoke: the smoke run's sizes under any profile, marked in the artifact, never counted as a full run")
class TaxSmokeTests {

	@TempDir
	Path dir;

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@ParameterizedTest(name = "-P{0}")
	@ValueSource(strings = { "battery", "gpu", "llamacpp" })
	@DisplayName("under each profile the sizes are the default profile's, but for a key that is set")
	void smokeSizesUnderEveryProfile(String profile) {
		TaxSettings smoke = TaxSettings.from(config(Map.of(HarnessConstants.PROFILE, profile, HarnessConstants.TAX_SMOKE, "true")));
		TaxSettings reference = TaxSettings.from(config(Map.of(HarnessConstants.PROFILE, "default")));
		TaxSettings full = TaxSettings.from(config(Map.of(HarnessConstants.PROFILE, profile)));

		assertThat(smoke.tiny()).isTrue();
		assertThat(full.tiny()).as("without the key: the profile's own sizes").isFalse();
		assertThat(smoke.count()).isEqualTo(reference.count()).isNotEqualTo(full.count());
		assertThat(smoke.levels()).isEqualTo(reference.levels()).isNotEqualTo(full.levels());
		assertThat(smoke.warmup()).isEqualTo(reference.warmup()).isLessThan(full.warmup());
		assertThat(smoke.warmupCap()).isEqualTo(reference.warmupCap());
		assertThat(smoke.sweepRequests(4)).isEqualTo(reference.sweepRequests(4));
		assertThat(smoke.sweepBatchesPerArm(4)).isEqualTo(reference.sweepBatchesPerArm(4));
		assertThat(smoke.load()).isEqualTo(reference.load());
		assertThat(smoke.ratePlan()).isEqualTo(reference.ratePlan());
		assertThat(TaxSettings.from(config(Map.of(HarnessConstants.PROFILE, profile, HarnessConstants.TAX_SMOKE, "true",
				HarnessConstants.TAX_COUNT, "9"))).count()).as("a key that is set keeps its value").isEqualTo(9);
	}

	@Test
	@DisplayName("outside the smoke profile the artifact records sample_sizes smoke and is PENDING; the final gate does not count it")
	void smokeSizedRunIsMarkedAndNotCounted() {
		JsonNode smoke = artifact(true);
		assertThat(smoke.path("provenance").path("sample_sizes").asText()).isEqualTo("smoke (tax.smoke=true under -Pgpu)");
		assertThat(smoke.path("verdict").asText()).isEqualTo(Verdict.PENDING_MEASUREMENT.name());
		assertThat(smoke.path("pending")).anySatisfy(pending -> {
			assertThat(pending.path("name").asText()).isEqualTo("sample_sizes");
			assertThat(pending.path("invalidated").asBoolean()).as("invalid: the tax gate keeps no baseline of it").isTrue();
			assertThat(pending.path("missing").asText()).contains("-Dtax.smoke=true under -Pgpu");
			assertThat(pending.path("how_to_provide").asText()).contains("unset -Dtax.smoke");
		});
		GateRow row = gateRow();
		assertThat(row.status()).isEqualTo("MISSING");
		assertThat(row.verdict()).isEqualTo(Verdict.PENDING_MEASUREMENT.name());
		assertThat(row.detail()).contains("smoke run's sizes", "-Dtax.smoke=true under -Pgpu");
	}

	@Test
	@DisplayName("self-test: the same run at full size records sample_sizes full and its PASS counts")
	void fullSizedRunCounts() {
		JsonNode full = artifact(false);
		assertThat(full.path("provenance").path("sample_sizes").asText()).isEqualTo("full");
		assertThat(full.path("verdict").asText()).isEqualTo(Verdict.PASS.name());
		assertThat(gateRow().status()).isEqualTo("PASS");
	}

	@Test
	@DisplayName("the smoke profile's own run records its sizes, with nothing pending for them")
	void smokeProfileIsMarkedOnly() {
		RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, config(Map.of(HarnessConstants.PROFILE, "default")));
		TaxSettings.from(run.config()).recordSizes(run);
		run.check("arm_answered", true, "every request answered", "all answered");

		assertThat(RungOutcome.verdict(run, Optional.empty())).isEqualTo(Verdict.PASS);
		assertThat(run.pendings()).isEmpty();
		assertThat(ArtifactDocument.build(run, ArtifactDocument.draft(run), Verdict.PASS, Optional.empty())
				.path("provenance")
				.path("sample_sizes")
				.asText()).isEqualTo("smoke (the default profile)");
	}

	/** A tax witness under -Pgpu whose one check passed, with or without {@code tax.smoke}, written to {@link #dir}. */
	private JsonNode artifact(boolean smoke) {
		Map<String, String> values = new HashMap<>(Map.of(HarnessConstants.PROFILE, "gpu", HarnessConstants.RUN_ID, "run-1"));
		if (smoke) {
			values.put(HarnessConstants.TAX_SMOKE, "true");
		}
		RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, config(values));
		TaxSettings.from(run.config()).recordSizes(run);
		run.check("arm_answered", true, "every request answered", "all answered");
		JsonNode doc = ArtifactDocument.build(run, ArtifactDocument.draft(run), RungOutcome.verdict(run, Optional.empty()),
				Optional.empty());
		ArtifactFiles.writeJson(dir.resolve(ArtifactId.TAX_WITNESS.fileName()), doc);
		return doc;
	}

	private GateRow gateRow() {
		return FinalGate.evaluate(dir, Optional.of("run-1"))
				.rows()
				.stream()
				.filter(row -> row.artifact() == ArtifactId.TAX_WITNESS)
				.findFirst()
				.orElseThrow();
	}
}
