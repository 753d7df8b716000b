package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.reportEntry;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PendingMeasurementError;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.StubEngine;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

@DisplayName("@Rung extensions: verdict, fail-closed outcome, artifact")
class RungExtensionsTests {

	static final String BASE_URL_PENDING = "PENDING_MEASUREMENT: raw engine base URL is not configured (set -Dbase.url=http://HOST:8000/v1)";

	@TempDir
	Path dir;

	@Test
	@DisplayName("a rung missing a measurement fails under gpu (allow.pending=false)")
	void pendingFailsUnderGpu() throws Exception {
		Events tests = run("missesBaseUrl", false).testEvents();
		tests.assertStatistics(stats -> stats.started(1).failed(1).succeeded(0));
		tests.assertThatEvents()
				.haveExactly(1, event(test("missesBaseUrl"),
						finishedWithFailure(instanceOf(PendingMeasurementError.class), message(BASE_URL_PENDING))));
		assertThat(artifact().path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
	}

	@Test
	@DisplayName("the same rung is PENDING_MEASUREMENT (aborted with the reason) under battery")
	void pendingAbortsUnderBattery() throws Exception {
		Events tests = run("missesBaseUrl", true).testEvents();
		tests.assertStatistics(stats -> stats.started(1).aborted(1).succeeded(0).failed(0));
		tests.assertThatEvents()
				.haveExactly(1, event(test("missesBaseUrl"),
						abortedWithReason(instanceOf(TestAbortedException.class), message(BASE_URL_PENDING))));
		JsonNode doc = artifact();
		assertThat(doc.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(doc.path("pending").get(0).path("name").asText()).isEqualTo("base.url");
		assertThat(doc.path("summary").path("pending_reason").asText()).isEqualTo(BASE_URL_PENDING.substring(21));
	}

	@Test
	@DisplayName("a pending measurement never passes, even next to passing checks")
	void pendingBesidePassingChecksStillPending() {
		run("passesChecksButMissesOne", false).testEvents()
				.assertStatistics(stats -> stats.failed(1).succeeded(0));
	}

	@Test
	@DisplayName("a measured rung passes and its artifact carries provenance")
	void measuredRungPasses() throws Exception {
		run("measures", false).testEvents().assertStatistics(stats -> stats.succeeded(1));
		JsonNode doc = artifact();
		assertThat(doc.path("schema").asText()).isEqualTo(ArtifactId.TAX_WITNESS.schema());
		assertThat(doc.path("verdict").asText()).isEqualTo("PASS");
		assertThat(doc.path("measurements").get(0).path("value").asDouble()).isEqualTo(1.07);
		assertThat(doc.path("acceptance").path("tax_measured").path("status").asText()).isEqualTo("PASS");
		assertThat(doc.path("summary").path("headline").asText()).isEqualTo("latency_tax 1.07");
		assertThat(doc.path("provenance").fieldNames()).toIterable()
				.contains("harness_version", "git_commit", "host",
						"jdk", "reproduce_command", "engine", "engine_version", "model", "precision", "batching_regime",
						"determinism_mode");
		assertThat(doc.path("provenance").path("determinism_mode").asText()).isEqualTo("engine.vllm.determinism.unavailable");
		assertThat(doc.path("generated_at").asText()).endsWith("Z");
		try (var files = Files.list(dir)) {
			assertThat(files.map(p -> p.getFileName().toString())).containsExactly("adjudication-tax-witness.json");
		}
	}

	@Test
	@DisplayName("a simulated rung is SIMULATED, never PASS, and is accepted under battery")
	void simulatedRung() throws Exception {
		run("simulates", true).testEvents().assertStatistics(stats -> stats.succeeded(1));
		assertThat(artifact().path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(artifact().path("simulated").asText()).isEqualTo("engine double");
	}

	@Test
	@DisplayName("a dry run is PLANNED: it fails under gpu and aborts under battery, naming why nothing was measured")
	void plannedIsNotMeasured() throws Exception {
		String planned = "PLANNED: -Ddry.run=true (dry run: nothing was measured)";
		run("plans", false).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("plans"),
						finishedWithFailure(instanceOf(PendingMeasurementError.class), message(planned))));
		assertThat(artifact().path("verdict").asText()).isEqualTo("PLANNED");
		run("plans", true).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("plans"),
						abortedWithReason(instanceOf(TestAbortedException.class), message(planned))));
	}

	@Test
	@DisplayName("the test's report entry names the artifact written and its verdict")
	void reportEntryNamesTheArtifact() {
		run("measures", false).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("measures"),
						reportEntry(Map.of("artifact", dir.resolve("adjudication-tax-witness.json") + " (PASS)"))));
		run("failsCheck", false).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("failsCheck"),
						reportEntry(Map.of("artifact", dir.resolve("adjudication-tax-witness.json") + " (FAIL)"))));
	}

	@Test
	@DisplayName("an artifact that would hold the value of the api.key.env variable is refused and not written")
	void artifactNeverHoldsTheKey() throws Exception {
		// the variable with the longest value stands in for the key: it is in no artifact by chance
		String variable = System.getenv()
				.entrySet()
				.stream()
				.filter(e -> e.getValue().length() >= 8)
				.max(java.util.Comparator.comparingInt(e -> e.getValue().length()))
				.map(Map.Entry::getKey)
				.orElseThrow(() -> new AssertionError("this test needs an environment variable with a value of 8 characters or more"));
		Map<String, String> key = Map.of(HarnessConstants.API_KEY_ENV, variable);
		run("measures", false, key).testEvents().assertStatistics(stats -> stats.succeeded(1));
		Files.delete(dir.resolve("adjudication-tax-witness.json"));
		run("leaksTheKey", false, key).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("leaksTheKey"),
						finishedWithFailure(instanceOf(IllegalStateException.class),
								message("artifact " + dir.resolve("adjudication-tax-witness.json")
										+ " would contain the value of the environment variable " + variable
										+ " (api.key.env), raw; refused to write it"))));
		assertThat(dir.resolve("adjudication-tax-witness.json")).doesNotExist();
	}

	@Test
	@DisplayName("a SIMULATED rung fails under gpu, naming the rung and the double")
	void simulatedFailsUnderGpu() throws Exception {
		run("simulates", false).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("simulates"), finishedWithFailure(
						instanceOf(AssertionFailedError.class),
						message("SIMULATED: rung 3 tax measured the engine double, not a real engine "
								+ "(engine double); profile gpu counts only real engines: point -Dbase.url at the serving engine"))));
		assertThat(artifact().path("verdict").asText()).isEqualTo("SIMULATED");
	}

	@Test
	@DisplayName("an engine that reports the double's version suffix makes the rung SIMULATED through any URL")
	void doubleBehindAnyUrlIsSimulated() throws Exception {
		try (StubEngine engine = StubEngine.start("0.29.0+engine-double", null)) {
			run("reachesTarget", false, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.failed(1));
			JsonNode doc = artifact();
			assertThat(doc.path("verdict").asText()).isEqualTo("SIMULATED");
			assertThat(doc.path("simulated").asText()).isEqualTo("the engine at " + engine.baseUrl() + " is the engine double: its "
					+ "version [0.29.0+engine-double] carries the engine double's suffix +engine-double");
			assertThat(doc.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
			assertThat(doc.path("provenance").path("engine_version").asText()).isEqualTo("0.29.0+engine-double");
		}
	}

	@Test
	@DisplayName("an engine whose Server header names the double is SIMULATED too; a real engine is not")
	void serverHeaderNamesTheDouble() throws Exception {
		try (StubEngine engine = StubEngine.start("0.11.0", "fak-battery-engine-double")) {
			run("reachesTarget", true, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			assertThat(artifact().path("verdict").asText()).isEqualTo("SIMULATED");
		}
		try (StubEngine engine = StubEngine.start("0.11.0", "uvicorn")) {
			run("reachesTarget", false, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			JsonNode doc = artifact();
			assertThat(doc.path("verdict").asText()).isEqualTo("PASS");
			assertThat(doc.path("target").path("engine").path("engine_kind").asText()).isEqualTo("vllm");
			assertThat(doc.path("target").path("engine").path("engine_version").asText()).isEqualTo("0.11.0");
			assertThat(doc.path("target").path("engine").path("identified_by").toString()).isEqualTo("[\"GET /version: version 0.11.0\"]");
			assertThat(doc.path("provenance").path("engine").asText()).isEqualTo("vllm");
		}
	}

	@Test
	@DisplayName("under gpu, an engine identified by owned_by alone is PENDING_MEASUREMENT unidentified engine, never PASS")
	void ownedByAloneIsUnidentified() throws Exception {
		try (StubEngine engine = StubEngine.start(null, "uvicorn")) {
			run("reachesTarget", false, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertThatEvents()
					.haveExactly(1, event(test("reachesTarget"), finishedWithFailure(instanceOf(PendingMeasurementError.class),
							message(m -> m.contains("unidentified engine at " + engine.baseUrl()) && m.contains("GET /version: HTTP 404")
									&& m.contains("owned_by vllm on /v1/models is a claim") && m.contains("set -Dengine.identity=NAME")))));
			JsonNode doc = artifact();
			assertThat(doc.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
			JsonNode target = doc.path("target").path("engine");
			assertThat(target.path("engine_kind").asText()).isEqualTo("unknown");
			assertThat(target.path("owned_by").asText()).isEqualTo("vllm");
			assertThat(target.path("identified_by").isEmpty()).isTrue();
			assertThat(target.path("probed").toString()).contains("GET /v1/models: HTTP 200, owned_by vllm", "GET /props: HTTP 404",
					"GET /metrics: HTTP 404", "Server header: uvicorn");
		}
	}

	@Test
	@DisplayName("the same engine under battery keeps its verdict: identification is required only where a real engine is")
	void unidentifiedUnderBatteryIsNotPending() throws Exception {
		try (StubEngine engine = StubEngine.start(null, "uvicorn")) {
			run("reachesTarget", true, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			assertThat(artifact().path("verdict").asText()).isEqualTo("PASS");
		}
	}

	@Test
	@DisplayName("engine.identity names an unidentified engine: PASS, the override recorded beside the probe's findings")
	void identityOverrideIsRecorded() throws Exception {
		try (StubEngine engine = StubEngine.start(null, "uvicorn")) {
			run("reachesTarget", false, Map.of(HarnessConstants.BASE_URL, engine.baseUrl(), HarnessConstants.ENGINE_IDENTITY, "vllm"))
					.testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			JsonNode target = artifact().path("target").path("engine");
			assertThat(artifact().path("verdict").asText()).isEqualTo("PASS");
			assertThat(target.path("identity_override").asText()).isEqualTo("vllm");
			assertThat(target.path("engine_kind").asText()).isEqualTo("vllm");
			assertThat(target.path("identified_by").isEmpty()).isTrue();
			assertThat(target.path("probed").toString()).contains("GET /version: HTTP 404");
		}
	}

	@Test
	@DisplayName("an engine's own metric families identify it; identified_by names the endpoint and what it said")
	void metricFamiliesIdentify() throws Exception {
		String page = "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 0\n"
				+ "vllm:e2e_request_latency_seconds_sum{model_name=\"m\"} 1.5\nvllm:e2e_request_latency_seconds_count 3\n";
		try (StubEngine engine = StubEngine.start(null, null, page)) {
			run("reachesTarget", false, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			JsonNode target = artifact().path("target").path("engine");
			assertThat(artifact().path("verdict").asText()).isEqualTo("PASS");
			assertThat(target.path("engine_kind").asText()).isEqualTo("vllm");
			assertThat(target.path("identified_by").toString()).isEqualTo("[\"GET /metrics: 2 metric families named vllm:*\"]");
			assertThat(target.path("identity_override").isNull()).isTrue();
		}
	}

	@Test
	@DisplayName("an engine whose /metrics page carries the double's comment is SIMULATED, though its families read as vLLM")
	void metricsCommentNamesTheDouble() throws Exception {
		String page = dev.fakbattery.wire.EngineDoubleMarker.METRICS_COMMENT + "\nvllm:num_requests_running 0\n";
		try (StubEngine engine = StubEngine.start(null, null, page)) {
			run("reachesTarget", true, Map.of(HarnessConstants.BASE_URL, engine.baseUrl())).testEvents()
					.assertStatistics(stats -> stats.succeeded(1));
			assertThat(artifact().path("verdict").asText()).isEqualTo("SIMULATED");
			assertThat(artifact().path("target").path("engine").path("engine_double_evidence").asText())
					.startsWith("its /metrics page carries the engine double's comment");
		}
	}

	@Test
	@DisplayName("every artifact carries the run id, its start and the gateway under test")
	void artifactCarriesRun() throws Exception {
		run("measures", false, Map.of(HarnessConstants.RUN_ID, "20261130T201500Z")).testEvents()
				.assertStatistics(stats -> stats.succeeded(1));
		JsonNode run = artifact().path("run");
		assertThat(run.path("run_id").asText()).isEqualTo("20261130T201500Z");
		assertThat(run.path("started_at").asText()).isEqualTo("2026-11-30T20:15:00Z");
		assertThat(run.path("profile").asText()).isEqualTo("gpu");
		assertThat(artifact().path("target").path("gateway").asText()).startsWith("embedded reference gateway");
		assertThat(artifact().path("target").path("engine").isNull()).isTrue();
	}

	@Test
	@DisplayName("a measurement invalidated by its own instrument is PENDING_MEASUREMENT, never FAIL, even beside a failed measurement check")
	void invalidatedIsPending() throws Exception {
		Events tests = run("invalidated", false).testEvents();
		tests.assertThatEvents()
				.haveExactly(1, event(test("invalidated"), finishedWithFailure(instanceOf(PendingMeasurementError.class),
						message("PENDING_MEASUREMENT: invalid measurement, its own instrument says so: engine double lag p99 1830 us "
								+ "> 1000 us (run on a quieter machine); not judged on an invalid measurement: ratio_at_least_0_99"))));
		JsonNode doc = artifact();
		assertThat(doc.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(doc.path("acceptance").path("ratio_at_least_0_99").path("status").asText()).isEqualTo("NOT_JUDGED");
		assertThat(doc.path("pending").get(0).path("invalidated").asBoolean()).isTrue();
	}

	@Test
	@DisplayName("a product failure (the gateway answered 500) is FAIL even on an invalid measurement, the lag reported beside it")
	void productFailureBeatsInvalidation() throws Exception {
		Events tests = run("answers500WhileClientLags", true).testEvents();
		tests.assertThatEvents()
				.haveExactly(1, event(test("answers500WhileClientLags"), finishedWithFailure(
						instanceOf(AssertionFailedError.class),
						message("rung 3 tax failed check gateway_chat: expected every request answers "
								+ "HTTP 200, observed 3/4 ok, first failure: HTTP 500: boom; beside it, invalid measurement, its own instrument "
								+ "says so: load client scheduling lag p99 1800 us over the 1000 us limit (run on a quieter machine); not judged "
								+ "on an invalid measurement: ratio_at_least_0_99"))));
		JsonNode doc = artifact();
		assertThat(doc.path("verdict").asText()).isEqualTo("FAIL");
		assertThat(doc.path("acceptance").path("gateway_chat").path("status").asText()).isEqualTo("FAIL");
		assertThat(doc.path("acceptance").path("gateway_chat").path("product").asBoolean()).isTrue();
		assertThat(doc.path("acceptance").path("ratio_at_least_0_99").path("status").asText()).isEqualTo("NOT_JUDGED");
		assertThat(doc.path("pending").get(0).path("invalidated").asBoolean()).isTrue();
		assertThat(doc.path("summary").path("failure").asText()).contains("load client scheduling lag p99 1800 us");
	}

	@Test
	@DisplayName("a product check that passed leaves an invalid measurement PENDING_MEASUREMENT")
	void passedProductCheckStaysPending() throws Exception {
		run("answersWhileClientLags", true).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("answersWhileClientLags"),
						abortedWithReason(
								message("PENDING_MEASUREMENT: invalid measurement, its own instrument says so: load client scheduling "
										+ "lag p99 1800 us over the 1000 us limit (run on a quieter machine); not judged on an invalid measurement: "
										+ "ratio_at_least_0_99"))));
		assertThat(artifact().path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
	}

	@Test
	@DisplayName("a rung body that sets the verdict fails: only the harness computes it")
	void bodyCannotSetVerdict() throws Exception {
		run("overwritesVerdict", true).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("overwritesVerdict"),
						finishedWithFailure(instanceOf(IllegalStateException.class),
								message("rung 3 tax sets fields only the harness writes: "
										+ "[verdict] summary[verdict]; record checks and measurements instead"))));
	}

	@Test
	@DisplayName("artifact validators judge the artifact as written: a failing one fails the rung")
	void validatorsJudgeTheWrittenArtifact() throws Exception {
		run("validatesWritten", false).testEvents().assertStatistics(stats -> stats.succeeded(1));
		assertThat(artifact().path("acceptance").path("schema_written").path("status").asText()).isEqualTo("PASS");
		run("validatesWrittenWrongly", false).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("validatesWrittenWrongly"),
						finishedWithFailure(instanceOf(AssertionFailedError.class),
								message("rung 3 tax failed check schema_written: expected "
										+ "schema fak.other.v1, observed fak.vllm-adjudication-tax.v1"))));
	}

	@Test
	@DisplayName("a failing acceptance check gives FAIL naming the check, expected and observed")
	void failingCheckFails() throws Exception {
		Events tests = run("failsCheck", true).testEvents();
		tests.assertThatEvents()
				.haveExactly(1, event(test("failsCheck"), finishedWithFailure(
						instanceOf(AssertionFailedError.class),
						message("rung 3 tax failed check latency_tax_measured: expected 8 ok samples per arm, observed 3 ok samples"))));
		assertThat(artifact().path("verdict").asText()).isEqualTo("FAIL");
		assertThat(artifact().path("acceptance").path("latency_tax_measured").path("status").asText()).isEqualTo("FAIL");
	}

	@Test
	@DisplayName("a rung that records no check fails: a verdict cannot come from nothing")
	void noCheckFails() {
		run("checksNothing", true).testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("checksNothing"),
						finishedWithFailure(message("rung 3 tax " + RungOutcome.NO_CHECK))));
	}

	@Test
	@DisplayName("a rung test that throws writes a FAIL artifact with the error")
	void throwingRungWritesFail() throws Exception {
		run("throwsError", true).testEvents().assertStatistics(stats -> stats.failed(1));
		assertThat(artifact().path("verdict").asText()).isEqualTo("FAIL");
		assertThat(artifact().path("error").asText()).isEqualTo("IllegalStateException: upstream returned 503");
	}

	@Test
	@DisplayName("a rung aborted before it measured is PENDING_MEASUREMENT with the abort's reason, never FAIL or PASS")
	void abortedRungIsPending() throws Exception {
		run("abortsBeforeMeasuring", true).testEvents().assertStatistics(stats -> stats.aborted(1));
		assertThat(artifact().path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(artifact().path("summary").path("pending_reason").asText()).isEqualTo("engine.image is set but Docker is not available");
	}

	@Test
	@DisplayName("a bad configuration value names the parameter, the value and the fix")
	void badConfigurationNamesItself() {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, "readsTaxCount", RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig
						.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(), HarnessConstants.TAX_COUNT, "eight")))
				.execute()
				.testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("readsTaxCount"), finishedWithFailure(
						instanceOf(ConfigurationException.class),
						message("Unable to parse tax.count value [eight]: expected a positive integer. Fix: pass -Dtax.count=8 or remove it to use the default."))));
	}

	@Test
	@DisplayName("a rung test without @RungArtifact is a configuration error")
	void missingArtifactDeclaration() {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(UndeclaredTestCase.class, "undeclared", RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString())))
				.execute()
				.testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("undeclared"), finishedWithFailure(
						instanceOf(ConfigurationException.class),
						message("Rung test [undeclared] declares no @RungArtifact: annotate the method or its class with the artifact it writes."))));
	}

	@Test
	@DisplayName("a failed artifact write fails the test")
	void failedWriteFails() throws Exception {
		Path blocked = dir.resolve("not-a-dir");
		Files.writeString(blocked, "a file where the experiments folder should be");
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, "measures", RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(
						Map.of(HarnessConstants.EXPERIMENTS_DIR, blocked.toString(), HarnessConstants.ALLOW_PENDING, "false")))
				.execute()
				.testEvents()
				.assertThatEvents()
				.haveExactly(1, event(test("measures"), finishedWithFailure(
						instanceOf(java.io.UncheckedIOException.class),
						message(m -> m.startsWith("could not write artifact " + blocked.resolve("adjudication-tax-witness.json"))))));
	}

	private EngineExecutionResults run(String method, boolean allowPending) {
		return run(method, allowPending, Map.of());
	}

	/** Runs {@code method} under battery ({@code allowPending}) or gpu, with {@code extra} configuration parameters. */
	private EngineExecutionResults run(String method, boolean allowPending, Map<String, String> extra) {
		Map<String, String> values = new java.util.HashMap<>(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
				HarnessConstants.ALLOW_PENDING, String.valueOf(allowPending), HarnessConstants.PROFILE, allowPending ? "battery" : "gpu"));
		values.putAll(extra);
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, method, RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(values))
				.execute();
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("adjudication-tax-witness.json").toFile());
	}

	// -------------------------------------------------------------------------

	@TaxRung
	@RungArtifact(ArtifactId.TAX_WITNESS)
	static class RungTestCase {

		@Test
		void missesBaseUrl(RungRecorder run) {
			run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
		}

		@Test
		void passesChecksButMissesOne(RungRecorder run) {
			run.measured("latency_tax", 1.07, "ratio", "test");
			run.check("tax_measured", true, "a latency tax", "1.07");
			run.pending("decode_tps_tax", "decode tok/s of the gateway arm", "run the gateway arm");
		}

		@Test
		void measures(RungRecorder run) {
			run.measured("latency_tax", 1.07, "ratio", "median(gateway)/median(raw)");
			run.check("tax_measured", true, "a latency tax", "1.07");
			run.headline("latency_tax 1.07");
		}

		@Test
		void plans(RungRecorder run) {
			run.planned("-Ddry.run=true");
			run.check("tax_measured", true, "a latency tax", "none sent");
		}

		@Test
		void leaksTheKey(RungRecorder run) {
			run.check("tax_measured", true, "a latency tax", "1.07");
			run.body().put("note", System.getenv(run.config().string(HarnessConstants.API_KEY_ENV).orElseThrow()));
		}

		@Test
		void simulates(RungRecorder run) {
			run.simulated("engine double");
			run.check("tax_measured", true, "a latency tax", "1.01");
		}

		@Test
		void reachesTarget(RungRecorder run) {
			run.target(run.config().v1Url(HarnessConstants.BASE_URL).orElseThrow(), HarnessConstants.BASE_URL);
			run.check("tax_measured", true, "a latency tax", "1.01");
		}

		@Test
		void invalidated(RungRecorder run) {
			run.check("ratio_at_least_0_99", false, "gateway/raw >= 0.99", "0.91");
			run.invalid("engine_double_lag", "engine double lag p99 1830 us > 1000 us", "run on a quieter machine");
		}

		@Test
		void answers500WhileClientLags(RungRecorder run) {
			run.check("gateway_chat", false, "every request answers HTTP 200", "3/4 ok, first failure: HTTP 500: boom", true);
			run.check("ratio_at_least_0_99", false, "gateway/raw >= 0.99", "0.91");
			run.invalid("client_lag", "load client scheduling lag p99 1800 us over the 1000 us limit", "run on a quieter machine");
		}

		@Test
		void answersWhileClientLags(RungRecorder run) {
			run.check("gateway_chat", true, "every request answers HTTP 200", "4/4 ok", true);
			run.check("ratio_at_least_0_99", false, "gateway/raw >= 0.99", "0.91");
			run.invalid("client_lag", "load client scheduling lag p99 1800 us over the 1000 us limit", "run on a quieter machine");
		}

		@Test
		void overwritesVerdict(RungRecorder run) {
			run.check("tax_measured", false, "a latency tax", "none");
			run.body().put("verdict", "PASS");
			run.body().putObject("summary").put("verdict", "PASS");
		}

		@Test
		void validatesWritten(RungRecorder run) {
			run.validateArtifact(doc -> java.util.List.of(new Check("schema_written",
					doc.path("schema").asText().equals(ArtifactId.TAX_WITNESS.schema()), "schema " + ArtifactId.TAX_WITNESS.schema(),
					doc.path("schema").asText())));
		}

		@Test
		void validatesWrittenWrongly(RungRecorder run) {
			run.validateArtifact(doc -> java.util.List.of(new Check("schema_written", doc.path("schema").asText().equals("fak.other.v1"),
					"schema fak.other.v1", doc.path("schema").asText())));
		}

		@Test
		void failsCheck(RungRecorder run) {
			run.check("latency_tax_measured", false, "8 ok samples per arm", "3 ok samples");
		}

		@Test
		void checksNothing(RungRecorder run) {
			run.body().put("note", "no check recorded");
		}

		@Test
		void throwsError(RungRecorder run) {
			throw new IllegalStateException("upstream returned 503");
		}

		@Test
		void abortsBeforeMeasuring(RungRecorder run) {
			throw new TestAbortedException("engine.image is set but Docker is not available");
		}

		@Test
		void readsTaxCount(RungRecorder run) {
			run.config().get(ConfigKeys.TAX_COUNT);
		}
	}

	@TaxRung
	static class UndeclaredTestCase {

		@Test
		void undeclared(RungRecorder run) {
		}
	}
}
