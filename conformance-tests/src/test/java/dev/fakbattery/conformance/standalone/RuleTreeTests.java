package dev.fakbattery.conformance.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.fakbattery.conformance.rules.RuleOutcome;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone kit's tree marks a rule by its runs, and its JUnit XML names each run by rule and target. */
@DisplayName("the standalone kit's tree and XML names")
class RuleTreeTests {

	private static final String W01 = "W01 model alias reaches upstream, engine model comes back on every chunk";

	@Test
	@DisplayName("a rule whose runs all failed is marked ✘ with its count, never ✔, and every run's message is printed")
	void allFailed() {
		String line = RuleTree.line(W01, List.of(new RuleTree.Run("vllm non-stream", RuleOutcome.FAIL, "W01 [vllm non-stream]: 2 failing "
				+ "cases\n  - one\n  - two"), new RuleTree.Run("vllm stream", RuleOutcome.FAIL, "W01 [vllm stream] on x: expected a")));

		assertThat(line).startsWith("  ✘ " + W01 + ": 2 runs, 2 failed")
				.doesNotContain("✔")
				.contains("  - one", "  - two",
						"✘ [vllm stream] failed: W01 [vllm stream] on x: expected a");
	}

	@Test
	@DisplayName("✔ only when every run passed (not applicable ones aside); pending marks ■")
	void marks() {
		assertThat(RuleTree.line(W01, List.of(new RuleTree.Run("vllm non-stream", RuleOutcome.NOT_APPLICABLE, "Not applicable"),
				new RuleTree.Run("vllm stream", RuleOutcome.PASS, "")))).startsWith("  ✔ ");
		assertThat(RuleTree.line(W01, List.of(new RuleTree.Run("vllm stream", RuleOutcome.PASS, ""),
				new RuleTree.Run("sglang stream", RuleOutcome.PENDING_MEASUREMENT, "PENDING_MEASUREMENT: why")))).startsWith("  ■ ");
		assertThat(RuleTree.line(W01, List.of(new RuleTree.Run("vllm stream", RuleOutcome.PASS, ""),
				new RuleTree.Run("sglang stream", RuleOutcome.FAIL, "why")))).startsWith("  ✘ " + W01 + ": 2 runs, 1 passed, 1 failed");
	}

	@Test
	@DisplayName("JUnit XML test cases are renamed from the method and index to the rule and its target")
	void xmlNames(@TempDir Path reports) throws Exception {
		Path xml = reports.resolve("TEST-junit-jupiter.xml");
		Files.writeString(xml, """
				<?xml version="1.0" encoding="UTF-8"?>
				<testsuite name="JUnit Jupiter" tests="1"><testcase name="required_W01_modelAlias(Dialect, String)[2]" \
				classname="dev.fakbattery.conformance.wire.ConfiguredWireVerification"/></testsuite>
				""");

		XmlNames.rename(reports, Map.of("required_W01_modelAlias(Dialect, String)[2]", W01 + " [vllm stream]"));

		assertThat(Files.readString(xml)).contains("name=\"" + W01 + " [vllm stream]\"",
				"classname=\"dev.fakbattery.conformance.wire.ConfiguredWireVerification\"").doesNotContain("required_W01");
	}
}
