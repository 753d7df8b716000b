package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactFiles;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the report's prepare step: the compatibility table's page attached to the final gate's page of the battery report")
class ReportMainTests {

	@TempDir
	Path root;

	@Test
	@DisplayName("the page given is attached as HTML, as written, beside the final check")
	void compatibilityPageAttached() throws IOException {
		Path page = ArtifactFiles.writeString(root.resolve("compatibility.html"),
				"<html><body><table><tr><td>nginx</td></tr></table></body></html>");

		JsonNode gate = gateResult(prepare(page));

		JsonNode attached = attachment(gate, "compatibility.html");
		assertThat(attached.path("type").asText()).isEqualTo("text/html");
		assertThat(root.resolve("battery").resolve(attached.path("source").asText())).hasSameTextualContentAs(page);
	}

	@Test
	@DisplayName("a page that is not there is named, with the parameter and who writes it, and the gate's page goes without it")
	void missingPageNamed() throws IOException {
		String out = prepare(root.resolve("absent.html"));

		assertThat(out).contains("[report] no compatibility page at " + root.resolve("absent.html") + " (--compatibility-page)")
				.contains("conformance-tests writes it");
		assertThat(gateResult(out).path("attachments").findValuesAsText("name")).doesNotContain("absent.html", "compatibility.html");
	}

	/** Runs prepare on a SIMULATED run with {@code page} as its compatibility page; what it printed. */
	private String prepare(Path page) {
		Path experiments = root.resolve("experiments/embedded");
		RunFixture.taxRun(experiments, "20261130T201345Z", 1.01).finalCheck("SIMULATED", "PENDING_MEASUREMENT");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ReportMain.run(new String[]{ "prepare", "--experiments-dir=" + experiments, "--results-dir=" + root.resolve("results"),
			"--battery-results=" + root.resolve("battery"), "--self-test-results=" + root.resolve("self-tests"),
			"--history-dir=" + root.resolve("history"), "--run-id=20261130T201345Z", "--compatibility-page=" + page },
				new PrintStream(out, true, StandardCharsets.UTF_8));
		return out.toString(StandardCharsets.UTF_8);
	}

	private JsonNode gateResult(String out) throws IOException {
		try (Stream<Path> files = Files.list(root.resolve("battery"))) {
			List<JsonNode> gates = files.filter(f -> f.getFileName().toString().endsWith("-result.json"))
					.map(RunSnapshot::readJson)
					.filter(r -> r.path("historyId").asText().equals(GateReport.HISTORY_ID))
					.toList();
			assertThat(gates).as(out).hasSize(1);
			return gates.get(0);
		}
	}

	private static JsonNode attachment(JsonNode result, String name) {
		for (JsonNode attachment : result.path("attachments")) {
			if (attachment.path("name").asText().equals(name)) {
				return attachment;
			}
		}
		throw new AssertionError("no attachment " + name + " in " + result.path("attachments"));
	}
}
