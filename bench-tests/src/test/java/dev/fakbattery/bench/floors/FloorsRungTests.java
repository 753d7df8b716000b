package dev.fakbattery.bench.floors;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.fakbattery.api.FloorsRung;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PreProduced;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.process.CommandResult;
import dev.fakbattery.core.process.ProcessCommandRunner;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 5: deterministic floors. With {@code floors.dir} it checks the identity of the artifacts
 * found there, which this run did not produce: they count only with their own provenance
 * ({@link PreProduced}), and a test fixture is refused; with {@code floors.bin} it runs fak's
 * five fak commands first. A floor artifact that is absent is PENDING_MEASUREMENT, never a pass.
 */
@FloorsRung
@NodeOnly
@RungArtifact(ArtifactId.FLOORS)
@DisplayName("rung 5 floors")
class FloorsRungTests {

	private static final int VERIFIED_COUNT = 20;

	@Test
	@DisplayName("checks the identity of the five floor artifacts")
	void floors(RungRecorder run) {
		Optional<Path> dir = run.config().path(HarnessConstants.FLOORS_DIR);
		Optional<String> bin = run.config().string(HarnessConstants.FLOORS_BIN);
		if (dir.isEmpty() && bin.isEmpty()) {
			run.pending(HarnessConstants.FLOORS_DIR, "no floor artifacts: neither floors.dir nor floors.bin is configured",
					"set -Dfloors.dir=DIR holding the floor artifacts, or -Dfloors.bin=/path/to/fak to produce them");
			return;
		}
		Path floorsDir = dir.orElse(run.config().experimentsDir().resolve("floors"));
		run.body().put("floors_dir", floorsDir.toString());
		if (dir.isEmpty()) {
			produce(run, bin.get(), floorsDir);
		}
		else if (PreProduced.refuseFixture(run, HarnessConstants.FLOORS_DIR, floorsDir,
				Arrays.stream(FloorArtifact.values()).map(f -> floorsDir.resolve(f.fileName())).toList())) {
			run.headline("refused: " + floorsDir + " holds test fixtures, not floor artifacts");
			return;
		}
		ArrayNode floors = run.body().putArray("floors");
		List<PreProduced.Entry> provenance = new ArrayList<>();
		for (FloorEvaluation floor : FloorChecks.evaluate(floorsDir, VERIFIED_COUNT)) {
			floors.addObject()
					.put("id", floor.floor().checkId())
					.put("file", floor.file().toString())
					.put("status", floor.status().name())
					.put("detail", floor.detail());
			if (floor.status() == FloorStatus.MISSING) {
				run.pending(floor.floor().checkId(), "floor artifact " + floor.file().getFileName() + " is missing",
						"produce it with -Dfloors.bin=/path/to/fak or copy it into " + floorsDir);
				continue;
			}
			provenance.add(PreProduced.read(floorsDir, floor.file(), true));
			for (Check check : floor.checks()) {
				run.check(check.name(), check.passed(), check.expected(), check.observed());
			}
			floor.figures().forEach(run::record);
		}
		if (dir.isPresent()) {
			// not produced by this run: counted only on its own provenance
			PreProduced.record(run, floorsDir, provenance, "put producer, version, generated_at and binary_sha256 (the sha256 of the "
					+ "fak binary that wrote it) into " + floorsDir.resolve(PreProduced.PROVENANCE_FILE)
					+ ", or produce the floors in this run with -D" + HarnessConstants.FLOORS_BIN + "=/path/to/fak instead of -D"
					+ HarnessConstants.FLOORS_DIR);
		}
		run.headline((dir.isPresent() ? "pre-produced: " : "") + FloorChecks.evaluate(floorsDir, VERIFIED_COUNT)
				.stream()
				.map(f -> f.floor().checkId() + " " + f.status())
				.collect(Collectors.joining(", ")));
	}

	private static void produce(RungRecorder run, String bin, Path out) {
		// a floor artifact an earlier run left here would be judged as this run's when a command writes nothing
		for (FloorArtifact floor : FloorArtifact.values()) {
			try {
				java.nio.file.Files.deleteIfExists(out.resolve(floor.fileName()));
			}
			catch (java.io.IOException e) {
				throw new java.io.UncheckedIOException("could not remove the earlier run's " + out.resolve(floor.fileName())
						+ "; remove it by hand or point -D" + HarnessConstants.EXPERIMENTS_DIR + " elsewhere", e);
			}
		}
		run.body().put("floors_bin_sha256", sha256(Path.of(bin)));
		ProcessCommandRunner runner = new ProcessCommandRunner(Duration.ofMinutes(10));
		ArrayNode commands = run.body().putArray("commands");
		for (FloorCommand command : new FloorCommands(bin, out, Optional.empty(), VERIFIED_COUNT).all()) {
			CommandResult result = runner.run(command.argv());
			commands.addObject()
					.put("floor", command.floor().checkId())
					.put("argv", String.join(" ", command.argv()))
					.put("exit_code", result.exitCode());
			run.check(command.floor().checkId() + ".command", result.exitCode() == 0, String.join(" ", command.argv()) + " exits 0",
					"exit " + result.exitCode() + lastLine(result.stderr()));
		}
	}

	/** The sha256 of the binary that produced the floors, hex; null when it is not a readable file (a command on the PATH). */
	static String sha256(Path bin) {
		try {
			return java.util.HexFormat.of()
					.formatHex(java.security.MessageDigest.getInstance("SHA-256")
							.digest(java.nio.file.Files.readAllBytes(bin)));
		}
		catch (java.io.IOException | java.security.NoSuchAlgorithmException e) {
			return null;
		}
	}

	private static String lastLine(String text) {
		List<String> lines = text.lines().toList();
		return lines.isEmpty() ? "" : ": " + lines.get(lines.size() - 1);
	}
}
