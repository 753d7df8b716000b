package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Atomic artifacts for real: a child JVM writing artifact after artifact is killed with SIGKILL in the middle of a
 * write, and the artifact on disk is the previous version or the new one, whole, never a part. The same kill on a
 * writer that writes straight into the target leaves a partial file, which the same check reports: the check can fail.
 */
@DisplayName("ArtifactFiles under SIGKILL")
@Timeout(120)
@Execution(ExecutionMode.CONCURRENT)
class ArtifactKillTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a child JVM killed mid-write leaves the old artifact or the new one, never a partial one")
	void killedMidWriteLeavesWholeArtifact() throws Exception {
		int midWrite = 0;
		for (int round = 0; round < 6; round++) {
			Path target = dir.resolve("round-" + round + ".json");
			Kill kill = killMidWrite(target, "atomic", 2, 13 * round);
			assertThat(whole(target)).as("round %d, killed after version %d", round, kill.lastWritten()).isEmpty();
			assertThat(version(target)).as("round %d", round).isBetween(kill.lastWritten(), kill.lastWritten() + 1);
			midWrite += kill.tempLeft() ? 1 : 0;
		}
		assertThat(midWrite).as("rounds whose kill landed mid-write (a temp file left behind)").isPositive();
	}

	@Test
	@DisplayName("the same kill on a writer that writes straight into the target leaves a partial file, and the check says so")
	void naiveWriterLeavesPartialFile() throws Exception {
		Path target = dir.resolve("naive.json");
		killMidWrite(target, "naive", 2, 40);

		assertThat(whole(target)).get().asString().startsWith("partial artifact " + target + ": ");
	}

	/** Empty when {@code file} is one whole document (its {@code end} equals its {@code version}), else what is wrong. */
	static Optional<String> whole(Path file) throws IOException {
		String text = Files.readString(file, StandardCharsets.UTF_8);
		Optional<JsonNode> json = WireJson.read(text);
		if (json.isEmpty() || !json.get().path("end").equals(json.get().path("version"))
				|| json.get().path("items").size() != ArtifactWriterChild.ITEMS) {
			return Optional.of("partial artifact " + file + ": " + text.length() + " characters, ending "
					+ text.substring(Math.max(0, text.length() - 40)));
		}
		return Optional.empty();
	}

	private static int version(Path file) throws IOException {
		return WireJson.readObject(Files.readString(file)).path("version").asInt();
	}

	/** How a kill went: the last version the child reported whole, and whether a temp file was left behind. */
	record Kill(int lastWritten, boolean tempLeft) {
	}

	/** Starts the child, waits for {@code after} whole versions, then {@code delayMillis} more, and SIGKILLs it. */
	private Kill killMidWrite(Path target, String mode, int after, int delayMillis) throws Exception {
		Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), ArtifactWriterChild.class.getName(), target.toString(), mode)
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
		int written = 0;
		try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
			while (written < after) {
				String line = out.readLine();
				assertThat(line).as("the child's progress").isNotNull();
				written = Integer.parseInt(line.substring("wrote ".length()));
			}
			Thread.sleep(delayMillis);
			new ProcessBuilder("kill", "-KILL", Long.toString(child.pid())).start().waitFor(10, TimeUnit.SECONDS);
			assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("the child died").isTrue();
			assertThat(child.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
			for (String line = out.readLine(); line != null; line = out.readLine()) {
				written = Integer.parseInt(line.substring("wrote ".length()));
			}
		}
		boolean tempLeft;
		try (Stream<Path> files = Files.list(target.getParent())) {
			List<Path> temps = files.filter(p -> p.getFileName().toString().startsWith("." + target.getFileName())).toList();
			tempLeft = !temps.isEmpty();
		}
		return new Kill(written, tempLeft);
	}
}
