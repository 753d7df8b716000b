package dev.fakbattery.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.wire.Json;

/**
 * The history of one experiments folder, kept beside it where {@code -Pbattery} does not empty it
 * ({@code experiments/history/<folder name>/}, like the tax baselines):
 * <pre>
 * runs.json               the run index: run id, start, target, battery verdict, each rung's verdict and headline, every number
 * runs/RUN_ID/            the run's artifacts (JSON and Markdown), the newest {@value #KEPT_RUNS} runs, for -Pcompare
 * allure/                 Allure's history (history.json, history-trend.json, ...) carried from one battery report to the next
 * ratios-across-runs.png  the tax and sweep ratios of every indexed run, with their 95 % intervals
 * </pre>
 *
 * @since 0.3
 */
public final class RunHistory {

	/** Archived runs kept; older archives are deleted (their index entries stay): {@value}. */
	public static final int KEPT_RUNS = 20;

	public static final String INDEX = "runs.json";
	public static final String PLOT = "ratios-across-runs.png";

	/** How Allure embeds a data file in a single-file report: {@code d('history/history.json','BASE64')}. */
	private static final Pattern EMBEDDED = Pattern.compile("d\\('(history/[A-Za-z0-9_.-]+\\.json)','([A-Za-z0-9+/=]*)'\\)");

	private final Path dir;

	public RunHistory(Path dir) {
		this.dir = dir;
	}

	/** {@code <parent of experiments dir>/history/<experiments dir name>}. */
	public static Path defaultDir(Path experimentsDir) {
		Path absolute = experimentsDir.toAbsolutePath().normalize();
		return absolute.resolveSibling("history").resolve(absolute.getFileName().toString());
	}

	public Path dir() {
		return dir;
	}

	/** The indexed runs, oldest first; empty before the first. */
	public List<RunSnapshot> runs() {
		Path index = dir.resolve(INDEX);
		List<RunSnapshot> runs = new ArrayList<>();
		if (Files.isRegularFile(index)) {
			RunSnapshot.readJson(index).forEach(entry -> runs.add(RunSnapshot.fromJson(entry)));
		}
		return runs;
	}

	/**
	 * Adds run {@code runId} of {@code experimentsDir} to the index (replacing an entry of the same id), archives its
	 * artifacts under {@code runs/RUN_ID/}, and deletes archives beyond the newest {@value #KEPT_RUNS}.
	 *
	 * @return the index after the update, oldest first
	 */
	public List<RunSnapshot> record(Path experimentsDir, Optional<String> runId) {
		RunSnapshot run = RunSnapshot.read(experimentsDir, runId);
		List<RunSnapshot> runs = new ArrayList<>(runs().stream().filter(r -> !r.runId().equals(run.runId())).toList());
		runs.add(run);
		runs.sort(Comparator.comparing(RunSnapshot::startedAt).thenComparing(RunSnapshot::runId));
		ArrayNode index = Json.MAPPER.createArrayNode();
		runs.forEach(r -> index.add(r.toJson()));
		ArtifactFiles.writeJson(dir.resolve(INDEX), index);
		archive(experimentsDir, run.runId());
		prune();
		return runs;
	}

	private void archive(Path experimentsDir, String runId) {
		Path target = dir.resolve("runs").resolve(runId);
		try (Stream<Path> files = Files.list(experimentsDir)) {
			Files.createDirectories(target);
			for (Path file : files.filter(f -> f.toString().endsWith(".json") || f.toString().endsWith(".md")).toList()) {
				JsonNode doc = file.toString().endsWith(".json") ? RunSnapshot.readJson(file) : null;
				if (doc == null || runId.equals(doc.path("run").path("run_id").asText(doc.path("run_id").asText()))) {
					ArtifactFiles.copy(file, target.resolve(file.getFileName()));
				}
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not archive run " + runId + " into " + target, e);
		}
	}

	private void prune() {
		Path runsDir = dir.resolve("runs");
		try (Stream<Path> archived = Files.list(runsDir)) {
			List<Path> sorted = archived.filter(Files::isDirectory).sorted().toList();
			for (Path old : sorted.subList(0, Math.max(0, sorted.size() - KEPT_RUNS))) {
				deleteTree(old);
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not prune " + runsDir, e);
		}
	}

	private static void deleteTree(Path root) throws IOException {
		try (Stream<Path> tree = Files.walk(root)) {
			for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

	/** Copies the kept Allure history into {@code resultsDir/history/}, so the next report's Trend has the earlier runs. */
	public int carryInto(Path resultsDir) {
		Path kept = dir.resolve("allure");
		if (!Files.isDirectory(kept)) {
			return 0;
		}
		try (Stream<Path> files = Files.list(kept)) {
			List<Path> json = files.filter(f -> f.toString().endsWith(".json")).toList();
			Files.createDirectories(resultsDir.resolve("history"));
			for (Path file : json) {
				ArtifactFiles.copy(file, resultsDir.resolve("history").resolve(file.getFileName()));
			}
			return json.size();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not carry the Allure history from " + kept + " into " + resultsDir, e);
		}
	}

	/**
	 * Keeps the history Allure computed for {@code report}: a single-file report embeds its {@code history/*.json}
	 * (base64) in index.html instead of writing a history folder, so they are read back from there; a folder report's
	 * {@code history/} is copied.
	 *
	 * @return the history files kept
	 * @throws IllegalStateException when the report carries no history (then the next Trend would silently restart)
	 */
	public List<String> keep(Path report) {
		List<String> kept = new ArrayList<>();
		try {
			Path folder = report.resolveSibling("history");
			if (Files.isDirectory(folder)) {
				try (Stream<Path> files = Files.list(folder)) {
					for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
						ArtifactFiles.writeString(dir.resolve("allure").resolve(file.getFileName()), Files.readString(file));
						kept.add(file.getFileName().toString());
					}
				}
			}
			else {
				Matcher m = EMBEDDED.matcher(Files.readString(report));
				while (m.find()) {
					String name = m.group(1).substring("history/".length());
					ArtifactFiles.writeString(dir.resolve("allure").resolve(name),
							new String(Base64.getDecoder().decode(m.group(2)), StandardCharsets.UTF_8));
					kept.add(name);
				}
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not read the report " + report, e);
		}
		if (!kept.contains("history-trend.json")) {
			throw new IllegalStateException("the report " + report + " carries no history/history-trend.json: the next report's "
					+ "Trend would start again from one run");
		}
		return kept;
	}
}
