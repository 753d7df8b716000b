package dev.fakbattery.report.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("final gate: what it prints, writes and reads besides the artifacts")
class GateReportingTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("the summary table pads every column to its widest cell")
	void summaryTableAligns() {
		List<GateRow> rows = List.of(new GateRow(ArtifactId.RUN_CONTRACT, "PASS", "PASS", "a.json", "headline", "r", null),
				new GateRow(ArtifactId.TAX_WITNESS, "MISSING", "PENDING_MEASUREMENT", "longer-name.json", "why", "r", null));
		assertThat(SummaryTable.console(rows)).isEqualTo("""
				rung        verdict              artifact          headline / reason
				--------------------------------------------------------------------
				0 contract  PASS                 a.json            headline
				3 tax       PENDING_MEASUREMENT  longer-name.json  why
				""");
		assertThat(SummaryTable.markdown(rows)).contains("| 3 tax | PENDING_MEASUREMENT | `longer-name.json` | why |");
	}

	@Test
	@DisplayName("a PASS on pre-produced inputs says so in the summary table and names their provenance")
	void preProducedRow() throws IOException {
		var block = dev.fakbattery.wire.Json.MAPPER.readTree("""
				{"source": "/data/floors", "artifacts": [{"file": "/data/floors/turntax-airline.json", "producer": "fak floors",
				"version": "v0.9.1", "generated_at": "2026-11-30T10:00:00Z", "binary_sha256": null}]}""");
		GateRow row = new GateRow(ArtifactId.FLOORS, "PASS", "PASS", "floors-check.json", "pre-produced: turntax_floor PASS", "r", null,
				block);
		assertThat(row.isPreProduced()).isTrue();
		assertThat(row.preProducedLine())
				.isEqualTo("/data/floors: turntax-airline.json (producer fak floors, version v0.9.1, generated_at 2026-11-30T10:00:00Z)");
		assertThat(SummaryTable.markdown(List.of(row))).contains("| 5 floors | PASS (pre-produced) | `floors-check.json` |");
		assertThat(new GateRow(ArtifactId.FLOORS, "PASS", "PASS", "f.json", "d", "r", null).isPreProduced()).isFalse();
	}

	@Test
	@DisplayName("failed and errored tests are read from every module's Surefire reports of this build; passing ones are not")
	void testReportScan() throws IOException {
		Path reports = Files.createDirectories(dir.resolve("bench-tests/target/surefire-reports"));
		Files.writeString(reports.resolve("TEST-a.xml"), """
				<testsuite><testcase classname="a.ATests" name="ok"/>
				<testcase classname="a.ATests" name="broken"><failure message="expected 1"/></testcase>
				<testcase classname="a.ATests" name="crashed"><error/></testcase></testsuite>""");
		Files.writeString(reports.resolve("other.xml"),
				"<testsuite><testcase classname=\"x\" name=\"y\"><failure message=\"no\"/></testcase></testsuite>");
		assertThat(TestReportScan.failedTests(dir)).extracting(Object::toString)
				.containsExactly("a.ATests.broken: expected 1", "a.ATests.crashed: error");
		java.time.Instant start = TestReportScan.buildStart("20261201T024432Z").orElseThrow();
		assertThat(start).isEqualTo(java.time.Instant.parse("2026-12-01T02:44:32Z"));
		Files.setLastModifiedTime(reports.resolve("TEST-a.xml"), java.nio.file.attribute.FileTime.from(start.minusSeconds(1)));
		assertThat(TestReportScan.failedTests(dir, Optional.of(start))).as("a report an earlier build left").isEmpty();
		Files.setLastModifiedTime(reports.resolve("TEST-a.xml"), java.nio.file.attribute.FileTime.from(start));
		assertThat(TestReportScan.failedTests(dir, Optional.of(start))).hasSize(2);
		assertThat(TestReportScan.buildStart("my-run")).isEmpty();
		assertThat(TestReportScan.buildStart("20261201T024432Z-3fa9c2")).as("a run id with its random part").hasValue(start);
		Files.writeString(reports.resolve("TEST-b.xml"), "<not xml");
		assertThat(TestReportScan.failedTests(dir)).extracting(Object::toString).last().asString().contains("unreadable test report");
	}

	@Test
	@DisplayName("a failed test of the run fails the gate with its name, even when the battery is pending-allowed")
	void failedTestFailsTheGate() throws IOException {
		Path reports = Files.createDirectories(dir.resolve("m/target/surefire-reports"));
		Files.writeString(reports.resolve("TEST-a.xml"),
				"<testsuite><testcase classname=\"a.ATests\" name=\"t\"><failure message=\"boom\"/></testcase></testsuite>");
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "enforce", "--experiments-dir=" + dir, "--profile=battery",
			"--allow-pending=true", "--root-dir=" + dir, "--test-reports=" + dir, "--report=r.html" },
				new PrintStream(printed, true, StandardCharsets.UTF_8)))
				.hasMessage("1 test(s) failed; first: a.ATests.t: boom; battery PENDING_MEASUREMENT");
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("1 failed test(s):\n  a.ATests.t: boom")
				.contains("report: r.html")
				.contains("fak-battery summary (, run none)");
	}

	@Test
	@DisplayName("the self-tests' report is named only where this run wrote one (the measuring profiles run no self-test)")
	void selfTestReportOnlyWhenWritten() throws IOException {
		String[] args = { "enforce", "--experiments-dir=" + dir, "--profile=battery", "--allow-pending=true", "--root-dir=" + dir,
			"--test-reports=" + dir, "--report=r.html", "--self-test-report=" + dir.resolve("self/index.html") };
		ByteArrayOutputStream none = new ByteArrayOutputStream();
		FinalGateMain.run(args, new PrintStream(none, true, StandardCharsets.UTF_8));
		assertThat(none.toString(StandardCharsets.UTF_8)).contains("report: r.html").doesNotContain("self-test report");
		Files.writeString(Files.createDirectories(dir.resolve("self")).resolve("index.html"), "<html/>");
		ByteArrayOutputStream written = new ByteArrayOutputStream();
		FinalGateMain.run(args, new PrintStream(written, true, StandardCharsets.UTF_8));
		assertThat(written.toString(StandardCharsets.UTF_8)).contains("harness self-test report: " + dir.resolve("self/index.html"));
	}

	@Test
	@DisplayName("bad command lines name the problem")
	void usage() {
		PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
		assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "judge" }, quiet)).hasMessageStartingWith("usage: FinalGateMain");
		assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "write" }, quiet)).hasMessage("missing --experiments-dir=DIR");
		assertThatThrownBy(() -> FinalGateMain.run(new String[]{ "write", "x" }, quiet))
				.hasMessage("unknown argument [x]: expected --name=value");
	}

	@Test
	@DisplayName("the newest run is the latest start, not the largest id; a stale artifact on the double is not SIMULATED")
	void newestRunByStart() {
		write(ArtifactId.RUN_CONTRACT, "b-old", "2026-11-29T09:00:00Z", true);
		write(ArtifactId.PREFLIGHT, "a-new", "2026-11-30T09:00:00Z", false);
		var result = FinalGate.evaluate(dir);
		assertThat(result.runId()).hasValue("a-new");
		assertThat(result.stale()).contains("raw_fak_run_contract");
		assertThat(result.simulated()).isEmpty();
	}

	@Test
	@DisplayName("the report environment names the run, the battery and the first artifact's provenance")
	void environment() throws IOException {
		write(ArtifactId.RUN_CONTRACT, "r1", "2026-11-30T09:00:00Z", false);
		ReportEnvironment.write(dir.resolve("results"), FinalGate.evaluate(dir, Optional.of("r1")), "", "./mvnw verify -Pgate");
		java.util.Properties env = new java.util.Properties();
		try (var in = Files.newInputStream(dir.resolve("results/environment.properties"))) {
			env.load(in);
		}
		assertThat(env.getProperty("battery")).startsWith("PENDING_MEASUREMENT, final gate PENDING_MEASUREMENT, 1/");
		assertThat(env.getProperty("battery run")).isEqualTo("r1, started 2026-11-30T09:00:00Z");
		assertThat(env.getProperty("target model")).isEqualTo("unknown");
		assertThat(env.getProperty("with build command")).isEqualTo("./mvnw verify -Pgate");
	}

	private void write(ArtifactId id, String runId, String started, boolean engineDouble) {
		var doc = Json.MAPPER.createObjectNode().put("schema", id.schema()).put("verdict", "PASS");
		doc.putObject("run").put("run_id", runId).put("started_at", started).put("profile", "gpu");
		doc.putObject("acceptance").putObject("measured").put("status", "PASS").put("expected", "a measurement").put("observed", "one");
		doc.putObject("target").putObject("engine").put("engine_kind", "vllm").put("engine_double", engineDouble).put("fingerprint", "f");
		doc.putObject("provenance").put("engine", "vllm").putNull("model");
		ArtifactFiles.writeJson(dir.resolve(id.fileName()), doc);
	}
}
