package dev.fakbattery.report;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fakbattery.report.gate.FinalGateMain;

/**
 * The report steps of a battery run, around the Allure command line (bench-tests' verify phase, after the final
 * gate wrote final-check.json):
 * <pre>
 * ReportMain prepare --experiments-dir=DIR --results-dir=DIR --battery-results=DIR --self-test-results=DIR
 *                    [--history-dir=DIR] [--run-id=ID] [--build-command=CMD] [--compatibility-page=FILE]
 * ReportMain keep    --report=FILE --experiments-dir=DIR [--history-dir=DIR]
 * </pre>
 * {@code prepare} adds the run to the run index and archive ({@link RunHistory}), draws the ratios across runs,
 * writes the final gate's result (the run index, the ratios and the compatibility table's HTML page, which
 * conformance-tests' {@code CompatibilityTable} renders from the committed readings, attached) and executor.json (whose report name, the battery report's title, leads with the
 * battery verdict and the count of real passes), splits the results into the battery's and the self-tests', and
 * carries the kept Allure history into the battery's; {@code keep} keeps the history of the generated battery report
 * for the next run.
 *
 * @since 0.3
 */
public final class ReportMain {

	private ReportMain() {
	}

	public static void main(String[] args) {
		try {
			run(args, System.out);
		}
		catch (IllegalArgumentException | IllegalStateException e) {
			System.err.println("[fak-battery] report: " + e.getMessage());
			System.exit(1);
		}
	}

	public static void run(String[] args, PrintStream out) {
		Options options = Options.parse(args, "prepare", "keep");
		Path experiments = options.path("experiments-dir");
		RunHistory history = new RunHistory(
				options.optional("history-dir").map(Path::of).orElseGet(() -> RunHistory.defaultDir(experiments)));
		if (options.command().equals("keep")) {
			List<String> kept = history.keep(options.path("report"));
			out.println("[report] kept the report's history " + kept + " in " + history.dir().resolve("allure"));
			return;
		}
		List<RunSnapshot> runs = history.record(experiments, options.optional("run-id"));
		RunSnapshot run = runs.stream()
				.filter(r -> options.optional("run-id").map(r.runId()::equals).orElse(true))
				.reduce((a, b) -> b)
				.orElseThrow();
		List<Path> attachments = new ArrayList<>(List.of(history.dir().resolve(RunHistory.INDEX)));
		RatiosPlot.draw(runs, history.dir().resolve(RunHistory.PLOT)).ifPresent(attachments::add);
		Optional<Path> compatibility = options.optional("compatibility-page").map(Path::of);
		compatibility.filter(Files::isRegularFile).ifPresent(attachments::add);
		compatibility.filter(page -> !Files.isRegularFile(page))
				.ifPresent(page -> out.println("[report] no compatibility page at " + page + " (--compatibility-page): the final gate's "
						+ "page goes without it; conformance-tests writes it when the report runs (harness.report.skip=false)"));
		Path results = options.path("results-dir");
		GateReport.write(experiments, results, attachments);
		String command = options.optional("build-command").map(FinalGateMain::buildCommand).filter(c -> !c.isEmpty()).orElse("unknown");
		Executor.write(results, run.runId(), runs.size(), command, GateReport.title(experiments), System::getenv);
		Path battery = fresh(options.path("battery-results"));
		Path selfTests = fresh(options.path("self-test-results"));
		ReportSplit.Counts counts = ReportSplit.split(results, battery, selfTests);
		int carried = history.carryInto(battery);
		out.println("[report] run " + run.runId() + ": " + counts.battery() + " battery results, " + counts.selfTests()
				+ " self-test results; run index " + runs.size() + " run(s) in " + history.dir()
				+ (carried == 0
						? "; no earlier report history (Trend starts here)"
						: "; Allure history of earlier runs carried (" + carried + " files)"));
	}

	private static Path fresh(Path dir) {
		try {
			if (Files.isDirectory(dir)) {
				try (Stream<Path> tree = Files.walk(dir)) {
					for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
						Files.delete(path);
					}
				}
			}
			return Files.createDirectories(dir);
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not empty " + dir, e);
		}
	}

	/** {@code command --name=value ...}. */
	record Options(String command, java.util.Map<String, String> values) {

		static Options parse(String[] args, String... commands) {
			if (args.length == 0 || !List.of(commands).contains(args[0])) {
				throw new IllegalArgumentException("usage: " + String.join("|", commands) + " --name=value ...");
			}
			java.util.Map<String, String> values = new java.util.HashMap<>();
			for (int i = 1; i < args.length; i++) {
				if (!args[i].startsWith("--") || !args[i].contains("=")) {
					throw new IllegalArgumentException("unknown argument [" + args[i] + "]: expected --name=value");
				}
				values.put(args[i].substring(2, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
			}
			return new Options(args[0], values);
		}

		Optional<String> optional(String name) {
			return Optional.ofNullable(values.get(name)).filter(v -> !v.isBlank());
		}

		Path path(String name) {
			return Path.of(optional(name).orElseThrow(() -> new IllegalArgumentException("missing --" + name + "=PATH")))
					.toAbsolutePath()
					.normalize();
		}
	}
}
