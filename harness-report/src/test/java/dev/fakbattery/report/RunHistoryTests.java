package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.ArtifactFiles;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("run history: index, archive, ratios across runs, Allure history carried through a single-file report")
class RunHistoryTests {

	@TempDir
	Path root;

	@Test
	@DisplayName("lives beside the experiments folder, where -Pbattery does not empty it")
	void defaultDir() {
		assertThat(RunHistory.defaultDir(root.resolve("experiments/embedded"))).isEqualTo(root.resolve("experiments/history/embedded"));
	}

	@Test
	@DisplayName("indexes each run once, oldest first, with its target, battery, verdicts and numbers, and archives its artifacts")
	void indexAndArchive() throws Exception {
		Path experiments = root.resolve("experiments/embedded");
		RunHistory history = new RunHistory(RunHistory.defaultDir(experiments));
		RunFixture.taxRun(experiments, "20261130T210000Z", 1.0100).finalCheck("SIMULATED", "PENDING_MEASUREMENT");
		history.record(experiments, Optional.of("20261130T210000Z"));
		clear(experiments);
		RunFixture.taxRun(experiments, "20261130T201345Z", 1.0007);
		history.record(experiments, Optional.of("20261130T201345Z"));
		List<RunSnapshot> runs = history.record(experiments, Optional.of("20261130T201345Z"));
		assertThat(runs).extracting(RunSnapshot::runId).containsExactly("20261130T201345Z", "20261130T210000Z");
		assertThat(runs.get(1).battery()).isEqualTo("SIMULATED");
		assertThat(runs.get(0).battery()).isEqualTo("unknown");
		assertThat(runs.get(1).target())
				.startsWith("engine double (vllm dialect) 0.29.0+engine-double serving [\"Qwen/Qwen2.5-7B-Instruct\"]");
		assertThat(runs.get(1).readings()).extracting(Reading::key).contains("3 tax / latency_tax", "3 tax sweep / ratio_c1");
		assertThat(history.runs()).extracting(RunSnapshot::runId).containsExactly("20261130T201345Z", "20261130T210000Z");
		assertThat(history.dir().resolve("runs/20261130T210000Z/adjudication-tax-witness.json")).isRegularFile();
		assertThat(history.dir().resolve("runs/20261130T210000Z/final-check.json")).isRegularFile();
		assertThat(history.dir().resolve("runs/20261130T201345Z/final-check.json")).doesNotExist();
	}

	@Test
	@DisplayName("keeps the newest archived runs only; their index entries stay")
	void prunesArchive() {
		Path experiments = root.resolve("experiments/embedded");
		RunHistory history = new RunHistory(root.resolve("history"));
		for (int i = 0; i <= RunHistory.KEPT_RUNS; i++) {
			RunFixture.taxRun(experiments, String.format("20261130T20%02d00Z", i), 1.0);
			history.record(experiments, Optional.empty());
		}
		assertThat(history.runs()).hasSize(RunHistory.KEPT_RUNS + 1);
		assertThat(history.dir().resolve("runs/20261130T200000Z")).doesNotExist();
		assertThat(history.dir().resolve("runs/20261130T200100Z")).isDirectory();
	}

	@Test
	@DisplayName("draws the tax and sweep ratios of every run; nothing when no run has a ratio")
	void ratiosPlot() {
		RunSnapshot one = RunSnapshot.read(RunFixture.taxRun(root.resolve("a"), "20261130T201345Z", 1.0007).dir(), Optional.empty());
		RunSnapshot two = RunSnapshot.read(RunFixture.taxRun(root.resolve("b"), "20261130T210000Z", 1.0100).dir(), Optional.empty());
		assertThat(RatiosPlot.draw(List.of(one, two), root.resolve("plot.png"))).hasValue(root.resolve("plot.png"));
		assertThat(root.resolve("plot.png")).isNotEmptyFile();
		RunSnapshot noRatio = new RunSnapshot("r", "t", "x", "b", List.of(),
				List.of(new Reading("wire", "rule_runs_passed", 66, "rule runs", null)),
				List.of());
		assertThat(RatiosPlot.draw(List.of(noRatio), root.resolve("none.png"))).isEmpty();
	}

	@Test
	@DisplayName("reads the history a single-file report embeds, and carries it into the next results folder")
	void keepsAndCarriesAllureHistory() throws Exception {
		String trend = "[{\"data\":{\"passed\":80,\"total\":82}}]";
		Path report = ArtifactFiles.writeString(root.resolve("reports/allure/index.html"), "<script>d('data/x.json','e30='),\n"
				+ "d('history/history-trend.json','" + base64(trend) + "'),\nd('history/history.json','" + base64("{}") + "')</script>");
		RunHistory history = new RunHistory(root.resolve("history"));
		assertThat(history.keep(report)).containsExactly("history-trend.json", "history.json");
		Path results = root.resolve("results");
		assertThat(history.carryInto(results)).isEqualTo(2);
		assertThat(results.resolve("history/history-trend.json")).content().isEqualTo(trend);
	}

	@Test
	@DisplayName("a report without history fails the step: the next Trend would silently restart")
	void reportWithoutHistory() {
		Path report = ArtifactFiles.writeString(root.resolve("index.html"), "<script>d('data/x.json','e30=')</script>");
		assertThatThrownBy(() -> new RunHistory(root.resolve("history")).keep(report)).isInstanceOf(IllegalStateException.class)
				.hasMessage("the report " + report
						+ " carries no history/history-trend.json: the next report's Trend would start again from one run");
	}

	@Test
	@DisplayName("no kept history: nothing carried, the first Trend point")
	void firstRun() {
		assertThat(new RunHistory(root.resolve("history")).carryInto(root.resolve("results"))).isZero();
	}

	private static String base64(String text) {
		return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

	private static void clear(Path dir) throws Exception {
		try (var files = Files.list(dir)) {
			for (Path file : files.toList()) {
				Files.delete(file);
			}
		}
	}
}
