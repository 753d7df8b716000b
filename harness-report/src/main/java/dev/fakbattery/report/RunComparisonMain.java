package dev.fakbattery.report;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.HarnessConstants;

/**
 * Compares two runs ({@code ./mvnw verify -Pcompare -Dcompare.base=DIR -Dcompare.head=DIR}): prints the table of
 * {@link ComparisonTable}, and writes compare.md, compare.json and compare.png into the output folder.
 * <pre>
 * RunComparisonMain --base=DIR --head=DIR --out=DIR [--experiments-dir=DIR] [--history-dir=DIR]
 * </pre>
 * Without a head, the experiments folder is the head; without a base, the newest run archived in the experiments
 * folder's history ({@link RunHistory}) other than the head's run is the base.
 *
 * @since 0.3
 */
public final class RunComparisonMain {

	private RunComparisonMain() {
	}

	public static void main(String[] args) {
		try {
			run(args, System.out);
		}
		catch (IllegalArgumentException | IllegalStateException e) {
			System.err.println("[fak-battery] compare: " + e.getMessage());
			System.exit(1);
		}
	}

	public static RunComparison run(String[] args, PrintStream out) {
		String[] withCommand = new String[args.length + 1];
		withCommand[0] = "compare";
		System.arraycopy(args, 0, withCommand, 1, args.length);
		ReportMain.Options options = ReportMain.Options.parse(withCommand, "compare");
		Optional<Path> experiments = options.optional("experiments-dir").map(Path::of);
		Path headDir = options.optional("head")
				.map(Path::of)
				.or(() -> experiments)
				.orElseThrow(() -> new IllegalArgumentException(
						"no head run: set -D" + HarnessConstants.COMPARE_HEAD + "=DIR (an experiments folder or an archived run)"));
		RunSnapshot head = RunSnapshot.read(headDir.toAbsolutePath().normalize(), Optional.empty());
		Path historyDir = options.optional("history-dir").map(Path::of).orElseGet(() -> RunHistory.defaultDir(experiments.orElse(headDir)));
		Path baseDir = options.optional("base").map(Path::of).orElseGet(() -> previousRun(historyDir, head.runId()));
		RunSnapshot base = RunSnapshot.read(baseDir.toAbsolutePath().normalize(), Optional.empty());
		RunComparison comparison = RunComparison.of(base, head);
		Path outDir = options.path("out");
		ArtifactFiles.writeString(outDir.resolve("compare.md"), ComparisonTable.markdown(comparison));
		ArtifactFiles.writeJson(outDir.resolve("compare.json"), comparison.toJson());
		Optional<Path> plot = RunComparisonPlot.draw(comparison, outDir.resolve("compare.png"));
		out.println();
		out.println("fak-battery comparison (" + baseDir + " -> " + headDir + ")");
		out.print(ComparisonTable.console(comparison));
		out.println("written: " + outDir.resolve("compare.md") + ", " + outDir.resolve("compare.json")
				+ plot.map(p -> ", " + p).orElse(" (no plot: neither run has a number with a 95% CI)"));
		return comparison;
	}

	/** The newest run archived in {@code historyDir} other than {@code headRun}. */
	static Path previousRun(Path historyDir, String headRun) {
		Path runs = historyDir.resolve("runs");
		try (Stream<Path> archived = Files.isDirectory(runs) ? Files.list(runs) : Stream.empty()) {
			return archived.filter(Files::isDirectory)
					.filter(d -> !d.getFileName().toString().equals(headRun))
					.max(Comparator.comparing(d -> d.getFileName().toString()))
					.orElseThrow(() -> new IllegalArgumentException("no base run: " + runs + " holds no other archived run than " + headRun
							+ "; set -D" + HarnessConstants.COMPARE_BASE + "=DIR (an experiments folder or an archived run)"));
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not list " + runs, e);
		}
	}
}
