package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactId;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("comparing two runs: both values, the change, whether the 95% intervals overlap")
class RunComparisonTests {

	@TempDir
	Path base;

	@TempDir
	Path head;

	@TempDir
	Path out;

	@Test
	@DisplayName("disjoint intervals read no, shared ones yes, a number without an interval no CI, a new number one run only")
	void overlapPerNumber() {
		RunFixture.taxRun(base, "20261130T201345Z", 1.0007);
		RunFixture headRun = RunFixture.taxRun(head, "20261130T210000Z", 1.0100);
		ObjectNode wire = headRun.artifact(ArtifactId.WIRE_CONFORMANCE, "SIMULATED", "66 rule runs passed");
		RunFixture.number(wire, "rule_runs_passed", 66, "rule runs", Double.NaN, Double.NaN);
		headRun.write(ArtifactId.WIRE_CONFORMANCE, wire);
		RunComparison comparison = compare();
		assertThat(comparison.rows()).extracting(RunComparison.Row::key, r -> r.overlap().toString())
				.containsExactly(
						org.assertj.core.groups.Tuple.tuple("3 tax / latency_tax", "no"),
						org.assertj.core.groups.Tuple.tuple("3 tax / decode_tps_tax", "yes"),
						org.assertj.core.groups.Tuple.tuple("3 tax / raw_median_latency_s", "no CI"),
						org.assertj.core.groups.Tuple.tuple("3 tax sweep / ratio_c1", "yes"),
						org.assertj.core.groups.Tuple.tuple("wire / rule_runs_passed", "one run only"));
		assertThat(comparison.rows().get(4).head().describe()).as("a whole count reads without decimals").isEqualTo("66");
	}

	@Test
	@DisplayName("the change is head minus base, with its share of the base")
	void change() {
		RunFixture.taxRun(base, "20261130T201345Z", 1.0000);
		RunFixture.taxRun(head, "20261130T210000Z", 1.0500);
		RunComparison.Row row = compare().rows().get(0);
		assertThat(row.change()).isEqualTo("+0.0500 (+5.00%)");
		assertThat(row.base().describe()).isEqualTo("1.0000 [0.9990, 1.0010]");
		assertThat(row.head().describe()).isEqualTo("1.0500 [1.0490, 1.0510]");
	}

	@Test
	@DisplayName("an artifact written before ci95 existed has its interval read from the source text")
	void intervalFromSourceText() {
		RunFixture run = new RunFixture(base, "20261130T201345Z");
		ObjectNode tax = run.artifact(ArtifactId.TAX_WITNESS, "SIMULATED", "latency_tax 1.0007");
		RunFixture.number(tax, "latency_tax", 1.0007, "ratio", Double.NaN, Double.NaN)
				.put("source", "adjudication-tax-witness: ratio of medians, 8 samples per arm; 95% CI [1.0004, 1.0010]");
		run.write(ArtifactId.TAX_WITNESS, tax);
		Reading reading = RunSnapshot.read(base, Optional.empty()).readings().get(0);
		assertThat(reading.ci().lo()).isEqualTo(1.0004);
		assertThat(reading.ci().hi()).isEqualTo(1.0010);
	}

	@Test
	@DisplayName("the table names both runs, every number and each rung's verdict, and says when targets differ")
	void table() {
		RunFixture.taxRun(base, "20261130T201345Z", 1.0007);
		RunFixture headRun = RunFixture.taxRun(head, "20261130T210000Z", 1.0100);
		ObjectNode tax = headRun.artifact(ArtifactId.TAX_WITNESS, "PASS", "latency_tax 1.0100");
		((ObjectNode) tax.path("target").path("engine")).put("engine_double", false).put("engine_version", "0.11.0");
		RunFixture.number(tax, "latency_tax", 1.0100, "ratio", 1.0090, 1.0110);
		headRun.write(ArtifactId.TAX_WITNESS, tax);
		String table = ComparisonTable.console(compare());
		assertThat(table)
				.contains("base run 20261130T201345Z", "head run 20261130T210000Z", "targets differ: the numbers are not like for like")
				.containsPattern(
						"3 tax / latency_tax\\s+ratio\\s+1.0007 \\[0.9997, 1.0017\\]\\s+1.0100 \\[1.0090, 1.0110\\]\\s+\\+0.0093 \\(\\+0.93%\\)\\s+no")
				.containsPattern("3 tax\\s+SIMULATED\\s+PASS");
	}

	@Test
	@DisplayName("the command prints the table and writes compare.md, compare.json and compare.png")
	void command() {
		RunFixture.taxRun(base, "20261130T201345Z", 1.0007);
		RunFixture.taxRun(head, "20261130T210000Z", 1.0100);
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		RunComparisonMain.run(new String[]{ "--base=" + base, "--head=" + head, "--out=" + out },
				new PrintStream(printed, true, StandardCharsets.UTF_8));
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("fak-battery comparison", "3 tax / latency_tax", "CIs overlap");
		assertThat(out.resolve("compare.md")).content().contains("| 3 tax / latency_tax | ratio | 1.0007 [0.9997, 1.0017] |");
		assertThat(out.resolve("compare.json")).content().contains("\"ci_overlap\" : \"no\"");
		assertThat(out.resolve("compare.png")).isNotEmptyFile();
	}

	@Test
	@DisplayName("without a base and no archived run, the command names compare.base and how to set it")
	void noBase() {
		RunFixture.taxRun(head, "20261130T210000Z", 1.0100);
		assertThatThrownBy(
				() -> RunComparisonMain.run(new String[]{ "--head=" + head, "--out=" + out, "--history-dir=" + out.resolve("none") },
						new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessage("no base run: " + out.resolve("none").resolve("runs") + " holds no other archived run than 20261130T210000Z; "
						+ "set -Dcompare.base=DIR (an experiments folder or an archived run)");
	}

	@Test
	@DisplayName("a folder without battery artifacts is refused, naming it")
	void emptyFolder() {
		assertThatThrownBy(() -> RunSnapshot.read(base, Optional.empty())).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("no battery artifact of run unknown in " + base + " (expected files such as adjudication-tax-witness.json); "
						+ "point at an experiments folder or an archived run");
	}

	@Test
	@DisplayName("artifacts of another run in the same folder are left out and listed")
	void otherRunsLeftOut() {
		RunFixture.taxRun(base, "20261130T201345Z", 1.0007);
		RunFixture older = new RunFixture(base, "20261129T100000Z");
		older.write(ArtifactId.FLOORS, older.artifact(ArtifactId.FLOORS, "PENDING_MEASUREMENT", ""));
		RunSnapshot run = RunSnapshot.read(base, Optional.empty());
		assertThat(run.runId()).isEqualTo("20261130T201345Z");
		assertThat(run.rungs()).extracting(RunSnapshot.Rung::rung).containsExactly("3 tax", "3 tax sweep");
		assertThat(run.otherRuns()).containsExactly("floors-check.json (run 20261129T100000Z)");
	}

	private RunComparison compare() {
		return RunComparison.of(RunSnapshot.read(base, Optional.empty()), RunSnapshot.read(head, Optional.empty()));
	}
}
