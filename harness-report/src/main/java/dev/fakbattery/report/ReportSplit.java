package dev.fakbattery.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.ReportLabels;

/**
 * Splits one Allure results folder in two: the battery (results labelled with epic {@link ReportLabels#BATTERY} or
 * {@link ReportLabels#WIRE}: the rungs, the wire rules against the gateway under test, the final gate) and the
 * harness's self-tests (everything else). Containers and attachments go where the results that use them go;
 * categories, environment and executor go to both.
 *
 * @since 0.3
 */
public final class ReportSplit {

	/** What was split: result files per side. */
	public record Counts(int battery, int selfTests) {
	}

	private static final List<String> SHARED = List.of("categories.json", "environment.properties", "executor.json");

	private ReportSplit() {
	}

	public static Counts split(Path results, Path battery, Path selfTests) {
		Map<String, Set<Path>> attachmentSides = new HashMap<>();
		Map<String, Path> sideOfResult = new HashMap<>();
		int[] counts = new int[2];
		try {
			Files.createDirectories(battery);
			Files.createDirectories(selfTests);
			for (Path file : list(results, "-result.json")) {
				JsonNode result = RunSnapshot.readJson(file);
				Path side = inBattery(result) ? battery : selfTests;
				counts[side == battery ? 0 : 1]++;
				sideOfResult.put(result.path("uuid").asText(), side);
				copy(file, side);
				attachments(result, attachmentSides, Set.of(side));
			}
			for (Path file : list(results, "-container.json")) {
				JsonNode container = RunSnapshot.readJson(file);
				Set<Path> sides = new HashSet<>();
				container.path("children").forEach(child -> {
					Path side = sideOfResult.get(child.asText());
					if (side != null) {
						sides.add(side);
					}
				});
				for (Path side : sides) {
					copy(file, side);
				}
				attachments(container, attachmentSides, sides);
			}
			for (Map.Entry<String, Set<Path>> attachment : attachmentSides.entrySet()) {
				Path file = results.resolve(attachment.getKey());
				if (Files.isRegularFile(file)) {
					for (Path side : attachment.getValue()) {
						copy(file, side);
					}
				}
			}
			for (String name : SHARED) {
				if (Files.isRegularFile(results.resolve(name))) {
					copy(results.resolve(name), battery);
					copy(results.resolve(name), selfTests);
				}
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not split the Allure results in " + results, e);
		}
		return new Counts(counts[0], counts[1]);
	}

	static boolean inBattery(JsonNode result) {
		for (JsonNode label : result.path("labels")) {
			if (label.path("name").asText().equals("epic")
					&& List.of(ReportLabels.BATTERY, ReportLabels.WIRE).contains(label.path("value").asText())) {
				return true;
			}
		}
		return false;
	}

	/** Every attachment source in {@code node} (its own, its steps', its fixtures'), recorded for {@code sides}. */
	private static void attachments(JsonNode node, Map<String, Set<Path>> attachmentSides, Set<Path> sides) {
		node.findValues("attachments").forEach(list -> list.forEach(a -> {
			if (a.path("source").isTextual()) {
				attachmentSides.computeIfAbsent(a.path("source").asText(), k -> new HashSet<>()).addAll(sides);
			}
		}));
	}

	private static List<Path> list(Path dir, String suffix) throws IOException {
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
		}
	}

	private static void copy(Path file, Path dir) throws IOException {
		ArtifactFiles.copy(file, dir.resolve(file.getFileName()));
	}
}
