package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fakbattery.api.Rung;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.ReportLabels;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * The battery report as a reader sees it in a real browser: what must be visible is read from the run the report
 * shows (the newest entry of the run index the report step wrote), never written into the test. Screenshots of
 * each main page go to {@code report.screenshots.dir}. Tagged {@value Rung#TAG}: the measuring profiles' tag filter
 * ({@code harness.groups}) takes it, so {@code -Pbattery -Pbrowser} runs it (it ran no test there before this tag).
 */
@Tag(Rung.TAG)
@DisplayName("the battery report in headless Chromium")
class BatteryReportBrowserTests {

	private static ReportBrowser browser;
	private static RunSnapshot run;
	private static int indexedRuns;
	private static Path shots;

	@BeforeAll
	static void open(@TempDir Path profile) {
		Path chromium = Path.of(HarnessConfig.fromSystemProperties().get(ConfigKeys.REPORT_CHROMIUM));
		Path chromedriver = Path.of(HarnessConfig.fromSystemProperties().get(ConfigKeys.REPORT_CHROMEDRIVER));
		for (Path program : List.of(chromium, chromedriver)) {
			Assumptions.assumeTrue(Files.isExecutable(program), () -> "no Chromium: " + program + " is not installed; install it with "
					+ "apt-get install -y chromium chromium-driver (or set -D" + HarnessConstants.REPORT_CHROMIUM + "=PATH -D"
					+ HarnessConstants.REPORT_CHROMEDRIVER + "=PATH)");
		}
		Path report = Path.of(property("report.file", "reports/allure/index.html"));
		if (!Files.isRegularFile(report)) {
			throw new IllegalStateException("no battery report at " + report + ": run ./mvnw verify -Pbattery -Pbrowser");
		}
		Path experiments = HarnessConfig.fromSystemProperties().get(ConfigKeys.EXPERIMENTS_DIR);
		RunHistory history = new RunHistory(Optional.ofNullable(System.getProperty(HarnessConstants.HISTORY_DIR))
				.filter(d -> !d.isBlank())
				.map(Path::of)
				.orElseGet(() -> RunHistory.defaultDir(experiments)));
		List<RunSnapshot> runs = history.runs();
		if (runs.isEmpty()) {
			throw new IllegalStateException(
					"no run index in " + history.dir() + ": the report at " + report + " was not produced by -Pbattery");
		}
		run = runs.get(runs.size() - 1);
		indexedRuns = runs.size();
		shots = Path.of(property("report.screenshots.dir", "target/report-screenshots"));
		browser = new ReportBrowser(chromium, chromedriver, report, profile);
	}

	@AfterAll
	static void close() {
		if (browser != null) {
			browser.close();
		}
	}

	@Test
	@DisplayName("Overview's first glance is the verdict: the title names it and the real passes; no real pass reads 0 %, never 100 % green")
	void firstGlance() {
		browser.open("", "test cases");
		long passes = run.rungs().stream().filter(r -> artifact(r).required() && r.verdict().equals("PASS")).count();
		String title = "fak-battery: " + run.battery() + ", " + passes + "/" + ArtifactId.requiredArtifacts().size()
				+ " required artifacts passed on a real target (run " + run.runId() + ")";
		assertThat(browser.text("[data-id=summary]").toLowerCase(Locale.ROOT)).as("the report's title")
				.contains(title.toLowerCase(Locale.ROOT));
		String donut = browser.text("[data-id=summary] .chart__caption");
		if (passes == 0 && List.of("SIMULATED", "PENDING_MEASUREMENT").contains(run.battery())) {
			assertThat(donut).as("the passed share of a %s battery without a real pass: every SIMULATED or pending test skipped",
					run.battery()).isEqualTo("0%");
		}
		browser.screenshot(shots.resolve("first-glance.png"), 900);
	}

	@Test
	@DisplayName("Overview leads with the battery: the run, its verdict, each rung's verdict and headline numbers")
	void overview() {
		browser.open("", "test cases");
		assertThat(browser.text("[data-id=summary]").toLowerCase(Locale.ROOT))
				.contains("(run " + run.runId().toLowerCase(Locale.ROOT) + ")")
				.containsPattern(batteryResults() + "\\s+test cases");
		browser.click("a.environment-widget__expand");
		List<String> rows = browser.all("[data-id=environment] .table__row")
				.stream()
				.map(r -> r.getText().replaceAll("\\s+", " "))
				.toList();
		assertThat(rows.get(0)).as("the first Environment row").startsWith("battery " + run.battery() + ", final gate");
		String environment = String.join("\n", rows);
		for (RunSnapshot.Rung rung : run.rungs().stream().filter(r -> artifact(r).required()).toList()) {
			String expected = "rung " + rung.rung() + " " + rung.verdict() + ": "
					+ (rung.verdict().equals("FAIL") ? "" : firstLine(rung.headline()));
			assertThat(rows).as("the Environment row of rung %s", rung.rung()).anyMatch(row -> row.startsWith(expected.strip()));
		}
		for (Reading reading : run.readings().stream().filter(r -> r.rung().equals("3 tax") && r.name().endsWith("_tax")).toList()) {
			assertThat(environment).as("the headline number %s", reading.key())
					.contains(String.format(Locale.ROOT, "%.4f", reading.value()));
		}
		browser.screenshot(shots.resolve("overview.png"), 1700);
	}

	@Test
	@DisplayName("Trend has one point per indexed run of this experiments folder")
	void trend() {
		browser.open("", "test cases");
		String trend = browser.text("[data-id=history-trend]");
		if (indexedRuns < 2) {
			assertThat(trend).as("a first run has no trend to draw").contains("There is nothing to show");
			return;
		}
		assertThat(trend).doesNotContain("There is nothing to show");
		assertThat(browser.all("[data-id=history-trend] g.slice")).as("Trend's points, one per run (Allure keeps 20)")
				.hasSize(Math.min(indexedRuns, 20));
		List<String> builds = browser.all("[data-id=history-trend] .chart__axis_x .tick text").stream().map(WebElement::getText).toList();
		assertThat(builds).as("Trend's runs, named by their place in the run index").last().isEqualTo("#" + indexedRuns);
	}

	@Test
	@DisplayName("Behaviors reads Battery > rung > test [verdict], then Wire conformance > rule > target")
	void behaviors() {
		browser.open("behaviors", ReportLabels.BATTERY);
		assertThat(browser.all("div.tree__content > div.tree > div.tree__content > div.node > div.node__title .node__name"))
				.extracting(WebElement::getText)
				.containsExactlyInAnyOrder(ReportLabels.BATTERY, ReportLabels.WIRE);
		browser.expand(ReportLabels.BATTERY, true);
		browser.expand(ReportLabels.WIRE, false);
		String rule = browser.expandFirstChild(ReportLabels.WIRE);
		String tree = browser.visibleText();
		for (RunSnapshot.Rung rung : run.rungs()) {
			assertThat(tree).as("rung %s", rung.rung()).contains(ReportLabels.feature(artifact(rung)));
			assertThat(tree).contains("[" + rung.verdict() + "]");
		}
		assertThat(rule).as("a wire or client rule, named by its id").matches("[WC]\\d\\d .+");
		assertThat(tree).as("the wire rules and the client rules, each a feature of the wire epic")
				.containsPattern("\\bW\\d\\d ")
				.containsPattern("\\bC0\\d ");
		assertThat(tree).contains("final gate [" + run.battery() + "]").containsPattern("(vllm|sglang) (non-stream|stream)");
		browser.screenshot(shots.resolve("behaviors.png"), 1300);
	}

	@Test
	@DisplayName("a rung's page: verdict, headline, what it ran against, its checks and its artifact")
	void rungPage() {
		browser.open("behaviors", ReportLabels.BATTERY);
		browser.expand(ReportLabels.BATTERY, true);
		browser.openLeaf("tax witness");
		String page = browser.visibleText();
		RunSnapshot.Rung tax = run.rungs().stream().filter(r -> r.rung().equals("3 tax")).findFirst().orElseThrow();
		assertThat(page).contains(tax.verdict() + ": " + firstLine(tax.headline()), "engine version", "run id", run.runId(), "workload",
				"check ", "adjudication-tax-witness.json");
		browser.screenshot(shots.resolve("rung-page.png"), 2000);
	}

	@Test
	@DisplayName("the final gate's page: the battery verdict, one step per required artifact, the run index and ratios across runs")
	void gatePage() {
		browser.open("behaviors", ReportLabels.BATTERY);
		browser.expand(ReportLabels.BATTERY, true);
		browser.openLeaf("final gate [");
		assertThat(browser.visibleText()).contains(run.battery() + ": battery " + run.battery(), "runs.json", "final-check.json");
		browser.screenshot(shots.resolve("final-gate.png"), 1600);
	}

	@Test
	@DisplayName("Categories keep PENDING_MEASUREMENT and SIMULATED apart from product failures")
	void categories() {
		browser.open("categories", "Categories");
		if (run.rungs().stream().anyMatch(r -> r.verdict().equals("PENDING_MEASUREMENT"))) {
			assertThat(browser.visibleText()).contains("PENDING_MEASUREMENT (not measured");
		}
		browser.screenshot(shots.resolve("categories.png"), 900);
		browser.open("graph", "Status");
		browser.screenshot(shots.resolve("graphs.png"), 1100);
	}

	private static ArtifactId artifact(RunSnapshot.Rung rung) {
		return Arrays.stream(ArtifactId.values()).filter(a -> a.rung().equals(rung.rung())).findFirst().orElseThrow();
	}

	/** The results the battery report was generated from. */
	private static long batteryResults() {
		Path results = Path.of(property("report.battery.results", "target/allure-battery-results"));
		try (Stream<Path> files = Files.list(results)) {
			return files.filter(f -> f.getFileName().toString().endsWith("-result.json")).count();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not read the battery's results in " + results, e);
		}
	}

	private static String firstLine(String text) {
		return text.length() > 60 ? text.substring(0, 60) : text;
	}

	private static String property(String name, String otherwise) {
		String value = System.getProperty(name);
		return value == null || value.isBlank() ? otherwise : value;
	}
}
