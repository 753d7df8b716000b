package dev.fakbattery.bench.tax;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Provenance;
import dev.fakbattery.wire.Json;

/**
 * A bench artifact under {@code experiments.dir}: schema, time, the SIMULATED label (every bench
 * here runs on the engine double), the bench's own fields, and provenance. Targets are recorded
 * beside what was measured ({@code target}, {@code target_met}), never asserted.
 */
final class BenchArtifact {

	private final ObjectNode doc = Json.MAPPER.createObjectNode();

	private final String fileName;

	BenchArtifact(String schema, String fileName, String command) {
		this.fileName = fileName;
		doc.put("schema", schema);
		doc.put("generated_at", Instant.now().truncatedTo(ChronoUnit.MICROS).toString());
		doc.put("verdict", "SIMULATED");
		doc.put("simulated", "measured on the engine double and the embedded reference gateway in one JVM on this machine; "
				+ "numbers about the harness and the gateway, never about a real engine");
		doc.put("command", command);
	}

	/**
	 * {@code -Dexperiments.dir=...} naming the folder this run writes to, for a bench's recorded command:
	 * {@code $PWD/...} inside the repository, else the absolute path.
	 */
	static String experimentsDirArgument(HarnessConfig config) {
		Path dir = config.experimentsDir().toAbsolutePath().normalize();
		Path root = config.string(HarnessConstants.ROOT_DIR).map(Path::of).orElse(Path.of("")).toAbsolutePath().normalize();
		return " -D" + HarnessConstants.EXPERIMENTS_DIR + "="
				+ (dir.startsWith(root) ? "$PWD/" + root.relativize(dir).toString().replace('\\', '/') : dir.toString());
	}

	/** The battery profile's rung-3 settings over {@code config}'s other values: a bench measures at the battery's sizes. */
	static TaxSettings batterySettings(HarnessConfig config) {
		return TaxSettings
				.from(HarnessConfig.of(name -> HarnessConstants.PROFILE.equals(name) ? Optional.of("battery") : config.string(name)));
	}

	ObjectNode body() {
		return doc;
	}

	/** Writes the artifact atomically and returns its path. */
	Path write(HarnessConfig config) {
		doc.set("provenance", Provenance.collect(config, Optional.empty(), Map.of()));
		doc.put("cores", Runtime.getRuntime().availableProcessors());
		doc.put("load_average_at_end", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		return ArtifactFiles.writeJson(config.experimentsDir().resolve(fileName), doc);
	}
}
