package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.TestAbortedException;

@DisplayName("RungEvidence: an artifact's verdict recomputed from what it lists, as the rung computed it")
class RungEvidenceTests {

	@ParameterizedTest(name = "{0}")
	@MethodSource("rungs")
	@DisplayName("read back from the artifact it wrote, a rung's record gives the verdict the rung computed")
	void readBack(RungTestCase rung) {
		RungRecorder run = rung.record();
		Verdict computed = RungOutcome.verdict(run, rung.thrown());
		JsonNode artifact = ArtifactDocument.build(run, ArtifactDocument.draft(run), computed, rung.thrown());
		assertThat(computed).isEqualTo(rung.expected());
		assertThat(RungEvidence.of(artifact).verdict()).isEqualTo(computed);
		assertThat(RungEvidence.of(artifact).because()).startsWith(rung.because());
	}

	static List<RungTestCase> rungs() {
		List<RungTestCase> rungs = new ArrayList<>();
		rungs.add(new RungTestCase("every check passed", Verdict.PASS, "all 2 checks passed", run -> {
			run.check("a", true, "x", "x");
			run.check("b", true, "y", "y");
		}));
		rungs.add(new RungTestCase("a failed check", Verdict.FAIL, "check b failed: expected <= 1.05, observed 1.20", run -> {
			run.check("a", true, "x", "x");
			run.check("b", false, "<= 1.05", "1.20");
		}));
		rungs.add(new RungTestCase("no check at all", Verdict.FAIL, RungOutcome.NO_CHECK, run -> {
		}));
		rungs.add(new RungTestCase("a pending measurement", Verdict.PENDING_MEASUREMENT, "pending: base.url", run -> {
			run.check("a", true, "x", "x");
			run.pending("base.url", "raw engine base URL is not configured", "set -Dbase.url=http://HOST:8000/v1");
		}));
		rungs.add(new RungTestCase("an invalid measurement beside a failed measurement check", Verdict.PENDING_MEASUREMENT,
				"invalidated by its own instrument: double_lag", run -> {
					run.check("ratio", false, "<= 1.05", "1.20");
					run.invalid("double_lag", "engine double lag p99 1830 us > 1000 us", "run on a quieter host");
				}));
		rungs.add(new RungTestCase("an invalid measurement beside a failed product check", Verdict.FAIL,
				"check status failed: expected 200, observed 502", run -> {
					run.check("status", false, "200", "502", true);
					run.invalid("double_lag", "engine double lag p99 1830 us > 1000 us", "run on a quieter host");
				}));
		rungs.add(new RungTestCase("a check not judged: the engine kind declared, not observed", Verdict.PENDING_MEASUREMENT,
				"pending: engine", run -> {
					run.check("a", true, "x", "x");
					run.notJudged("engine", "vllm", "vllm (declared by -Dengine.identity, not observed)", "the kind was declared",
							"let the probe identify the engine");
				}));
		rungs.add(new RungTestCase("a dry run", Verdict.PLANNED, "dry run: runner not given", run -> {
			run.check("a", true, "x", "x");
			run.planned("runner not given");
		}));
		rungs.add(new RungTestCase("the engine double", Verdict.SIMULATED, "measured the engine double: it is the double", run -> {
			run.check("a", true, "x", "x");
			run.simulated("it is the double");
		}));
		rungs.add(new RungTestCase("a misconfiguration", Verdict.PENDING_MEASUREMENT, "misconfiguration: ConfigurationException: wrong",
				run -> run.check("a", false, "x", "y"), new ConfigurationException("wrong")));
		rungs.add(new RungTestCase("an error", Verdict.FAIL, "the rung threw IllegalStateException: broke",
				run -> run.check("a", true, "x", "x"), new IllegalStateException("broke")));
		rungs.add(new RungTestCase("an assumption that aborted", Verdict.PENDING_MEASUREMENT,
				"aborted: TestAbortedException: no docker", run -> run.check("a", true, "x", "x"), new TestAbortedException("no docker")));
		return rungs;
	}

	@Test
	@DisplayName("a hand-edited verdict does not follow: PASS over a failed check recomputes FAIL, naming the check")
	void handEdited() {
		RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, config());
		run.check("tax_measured", true, "a tax from 8 samples per arm", "8 samples");
		run.check("tax_within_limit", false, "ratio <= 1.05", "1.31");
		ObjectNode artifact = ArtifactDocument.build(run, ArtifactDocument.draft(run), Verdict.FAIL, Optional.empty());
		artifact.put("verdict", "PASS");
		assertThat(RungEvidence.of(artifact).verdict()).isEqualTo(Verdict.FAIL);
		assertThat(RungEvidence.of(artifact).because())
				.isEqualTo("check tax_within_limit failed: expected ratio <= 1.05, observed 1.31");

		// a PASS whose checks were deleted, or whose simulated mark was, does not follow either
		artifact.remove("acceptance");
		assertThat(RungEvidence.of(artifact).verdict()).isEqualTo(Verdict.FAIL);
		assertThat(RungEvidence.of(artifact).because()).isEqualTo(RungOutcome.NO_CHECK);
	}

	@Test
	@DisplayName("every rung artifact committed under experiments/ recomputes to the verdict it carries")
	void committedArtifacts() throws IOException {
		Path experiments = Path.of("..", "experiments");
		List<String> checked = new ArrayList<>();
		List<String> differ = new ArrayList<>();
		try (Stream<Path> files = Files.walk(experiments)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
				JsonNode doc = Json.MAPPER.readTree(file.toFile());
				if (doc.isObject() && doc.path("verdict").isTextual() && doc.has("acceptance")) {
					checked.add(file.toString());
					RungEvidence evidence = RungEvidence.of(doc);
					if (!evidence.verdict().name().equals(doc.path("verdict").asText())) {
						differ.add(file + ": " + doc.path("verdict").asText() + ", recomputed " + evidence.verdict() + " ("
								+ evidence.because() + ")");
					}
				}
			}
		}
		assertThat(checked).as("committed rung artifacts").hasSizeGreaterThan(10);
		assertThat(differ).isEmpty();
	}

	private static HarnessConfig config() {
		Map<String, String> values = Map.of(HarnessConstants.RUN_ID, "20261130T201500Z", HarnessConstants.PROFILE, "gpu");
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	/** A rung that records with {@code recording}, then throws {@code thrown} when given. */
	record RungTestCase(String name, Verdict expected, String because, Consumer<RungRecorder> recording, Throwable thrown0) {

		RungTestCase(String name, Verdict expected, String because, Consumer<RungRecorder> recording) {
			this(name, expected, because, recording, null);
		}

		RungRecorder record() {
			RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, config());
			recording.accept(run);
			return run;
		}

		Optional<Throwable> thrown() {
			return Optional.ofNullable(thrown0);
		}

		@Override
		public String toString() {
			return name;
		}
	}
}
