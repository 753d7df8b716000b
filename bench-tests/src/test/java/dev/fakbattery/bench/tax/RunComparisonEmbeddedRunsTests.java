package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.report.Reading;
import dev.fakbattery.report.RunComparison;
import dev.fakbattery.report.RunComparisonMain;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The comparison over two real runs: the tax witness run twice on the engine double (the smoke workload of the
 * default profile) into two folders, then compared. The numbers are measured, so the test checks the arithmetic
 * against the artifacts, not values.
 */
@DisplayName("comparing two embedded runs of the tax witness")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class RunComparisonEmbeddedRunsTests {

	@TempDir
	Path root;

	@Test
	@DisplayName("each number of both runs with both values, the change and the overlap of the intervals the artifacts carry")
	void twoRuns() {
		Path base = run("20261130T100000Z", "base");
		Path head = run("20261130T110000Z", "head");
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		RunComparison comparison = RunComparisonMain.run(new String[]{ "--base=" + base, "--head=" + head, "--out=" + root.resolve("out") },
				new PrintStream(printed, true, StandardCharsets.UTF_8));
		RunComparison.Row latency = comparison.rows().stream().filter(r -> r.key().equals("3 tax / latency_tax")).findFirst().orElseThrow();
		ConfidenceInterval baseCi = interval(base, latency.base().value());
		ConfidenceInterval headCi = interval(head, latency.head().value());
		assertThat(latency.base().ci()).isEqualTo(baseCi);
		assertThat(latency.head().ci()).isEqualTo(headCi);
		assertThat(latency.overlap()).isEqualTo(baseCi.overlaps(headCi) ? RunComparison.Overlap.YES : RunComparison.Overlap.NO);
		double delta = latency.head().value() - latency.base().value();
		assertThat(latency.change()).startsWith((delta >= 0 ? "+" : "-") + Reading.format(Math.abs(delta)));
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("base run 20261130T100000Z", "head run 20261130T110000Z",
				"3 tax / latency_tax", "3 tax / decode_tps_tax", "3 tax / noise_floor_latency_tax");
		assertThat(root.resolve("out/compare.png")).isNotEmptyFile();
	}

	/** Runs the tax witness on the engine double into {@code root/name} as run {@code runId}. */
	private Path run(String runId, String name) {
		Path dir = root.resolve(name);
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod("dev.fakbattery.bench.tax.TaxRungTests#taxWitness(dev.fakbattery.core.RungRecorder)"))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
						HarnessConstants.PROFILE, "default", HarnessConstants.ALLOW_PENDING, "true", HarnessConstants.RUN_ID, runId)))
				.execute();
		return dir;
	}

	/** The latency_tax interval as the artifact wrote it, checked to hold the value. */
	private static ConfidenceInterval interval(Path dir, double value) {
		for (JsonNode m : dev.fakbattery.report.RunSnapshot.readJson(dir.resolve("adjudication-tax-witness.json")).path("measurements")) {
			if (m.path("name").asText().equals("latency_tax")) {
				ConfidenceInterval ci = ConfidenceInterval.ofBounds("reported ci95", value, m.path("ci95").path("low").asDouble(),
						m.path("ci95").path("high").asDouble(), 0.95);
				assertThat(value).isBetween(ci.lo(), ci.hi());
				return ci;
			}
		}
		throw new AssertionError("no latency_tax in " + dir + ": " + Optional.empty());
	}
}
