package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.fakbattery.core.ArtifactFiles;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("report split: the battery's results apart from the harness's self-tests")
class ReportSplitTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("Battery and Wire conformance results, their containers and attachments go to the battery; the rest to self-tests")
	void split() throws Exception {
		Path results = dir.resolve("results");
		result(results, "r1", "Battery", "a1-attachment.json");
		result(results, "r2", "Wire conformance", null);
		result(results, "r3", null, "a3-attachment.txt");
		result(results, "r4", "Harness", null);
		ArtifactFiles.writeString(results.resolve("c1-container.json"), "{\"uuid\":\"c1\",\"children\":[\"r1\",\"r3\"]}");
		ArtifactFiles.writeString(results.resolve("c2-container.json"), "{\"uuid\":\"c2\",\"children\":[\"r4\"],"
				+ "\"befores\":[{\"name\":\"setUp\",\"attachments\":[{\"source\":\"a4-attachment.txt\"}]}]}");
		for (String name : new String[]{ "a1-attachment.json", "a3-attachment.txt", "a4-attachment.txt", "orphan-attachment.txt",
			"categories.json", "environment.properties", "executor.json" }) {
			ArtifactFiles.writeString(results.resolve(name), "x");
		}
		ReportSplit.Counts counts = ReportSplit.split(results, dir.resolve("battery"), dir.resolve("self"));
		assertThat(counts).isEqualTo(new ReportSplit.Counts(2, 2));
		assertThat(names(dir.resolve("battery"))).containsExactly("a1-attachment.json", "c1-container.json", "categories.json",
				"environment.properties", "executor.json", "r1-result.json", "r2-result.json");
		assertThat(names(dir.resolve("self"))).containsExactly("a3-attachment.txt", "a4-attachment.txt", "c1-container.json",
				"c2-container.json", "categories.json", "environment.properties", "executor.json", "r3-result.json", "r4-result.json");
	}

	private static void result(Path results, String uuid, String epic, String attachment) {
		String labels = epic == null ? "[{\"name\":\"suite\",\"value\":\"x\"}]" : "[{\"name\":\"epic\",\"value\":\"" + epic + "\"}]";
		String attachments = attachment == null ? "[]" : "[{\"name\":\"a\",\"source\":\"" + attachment + "\"}]";
		ArtifactFiles.writeString(results.resolve(uuid + "-result.json"), "{\"uuid\":\"" + uuid + "\",\"labels\":" + labels
				+ ",\"steps\":[{\"name\":\"s\",\"attachments\":" + attachments + "}]}");
	}

	private static java.util.List<String> names(Path dir) throws Exception {
		try (Stream<Path> files = Files.list(dir)) {
			return files.map(f -> f.getFileName().toString()).sorted().toList();
		}
	}
}
