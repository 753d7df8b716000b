package dev.fakbattery.conformance.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/compatibility.md is what the committed readings say ({@link CompatibilityTable}); a reading is what the kit's JUnit XML
 * says ({@link CompatibilityReading}). Regenerate the page with
 * {@code ./mvnw -B -o test -pl conformance-tests -am -Dtest=CompatibilityTableTests -Dsurefire.failIfNoSpecifiedTests=false -Dcompat.md.write=true}.
 */
@DisplayName("the compatibility table: generated from the committed readings, which are generated from the kit's XML")
class CompatibilityTableTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	@Test
	@DisplayName("docs/compatibility.md is the table of experiments/compatibility's readings")
	void committedPageMatchesTheReadings() throws IOException {
		String rendered = CompatibilityTable.render(ROOT.resolve("experiments/compatibility"));
		Path doc = ROOT.resolve("docs/compatibility.md");
		if (Boolean.getBoolean("compat.md.write")) {
			Files.writeString(doc, rendered);
		}
		assertThat(Files.readString(doc)).as("docs/compatibility.md differs from the readings; regenerate it: see this class's javadoc")
				.isEqualTo(rendered);
	}

	@Test
	@DisplayName("a reading counts each run by its JUnit outcome and message prefix, and its table cell counts rules that applied")
	void readingAndCells(@TempDir Path dir) throws IOException {
		Path xml = dir.resolve("TEST-dev.fakbattery.conformance.wire.GatewayUnderTestWireTests.xml");
		Files.writeString(xml,
				"""
						<?xml version="1.0" encoding="UTF-8"?>
						<testsuite name="w" tests="6">
						  <properties><property name="secret.path" value="/home/someone"/></properties>
						  <testcase name="required_W01_modelAlias(Dialect, String)[1]" classname="c"/>
						  <testcase name="required_W01_modelAlias(Dialect, String)[2]" classname="c">
						    <failure message="W01 [vllm stream] on gateway.cmd [x.sh 1] (log l.log): expected a, observed b"/>
						  </testcase>
						  <testcase name="required_W10_errorFrame(Dialect, String)[1]" classname="c"><skipped message="W10 needs a stream"/></testcase>
						  <testcase name="required_W03_denyDropped(Dialect, String)[1]" classname="c">
						    <skipped message="NOT_JUDGED: W03 [vllm non-stream]: no evidence"/>
						  </testcase>
						  <testcase name="required_W09_errors(Dialect, String)[1]" classname="c">
						    <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: PENDING_MEASUREMENT: W09 [vllm non-stream]: pending
								    ]]></skipped>
						  </testcase>
						  <testcase name="required_W04_transform(Dialect, String)[1]" classname="c">
						    <skipped message="NOT_CLAIMED: W04 [vllm non-stream]: outside the claim"/>
						  </testcase>
						</testsuite>
						""");
		JsonNode reading = CompatibilityReading.write(dir.resolve("out"), Map.of("name", "G 1.0", "date", "2026-12-05"), List.of(xml));

		assertThat(reading.at("/rules/W01/vllm non-stream/outcome").asText()).isEqualTo("PASS");
		assertThat(reading.at("/rules/W01/vllm stream/outcome").asText()).isEqualTo("FAIL");
		assertThat(reading.at("/rules/W01/vllm stream/message").asText()).isEqualTo("W01 [vllm stream]: expected a, observed b");
		assertThat(reading.at("/rules/W10/vllm non-stream/outcome").asText()).isEqualTo("NOT_APPLICABLE");
		assertThat(reading.at("/rules/W03/vllm non-stream/outcome").asText()).isEqualTo("NOT_JUDGED");
		assertThat(reading.at("/rules/W09/vllm non-stream/outcome").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(reading.at("/rules/W04/vllm non-stream/outcome").asText()).isEqualTo("NOT_CLAIMED");
		assertThat(Files.readString(dir.resolve("out/junit/wire.GatewayUnderTestWireTests.xml"))).doesNotContain("secret.path")
				.contains("required_W01_modelAlias");
		assertThat(Json.MAPPER.readTree(dir.resolve("out/kit-outcomes.json").toFile())).isEqualTo(reading);

		JsonNode rules = reading.path("rules");
		assertThat(CompatibilityTable.cell(rules, ConformanceClass.RELAY, "vllm non-stream")).isEqualTo("1/1, 1 pending");
		assertThat(CompatibilityTable.cell(rules, ConformanceClass.RELAY, "vllm stream")).isEqualTo("0/1");
		assertThat(CompatibilityTable.cell(rules, ConformanceClass.ADJUDICATION, "vllm non-stream")).isEqualTo("0/1, 1 not judged");
		assertThat(CompatibilityTable.cell(rules, ConformanceClass.CLIENTS, "vllm non-stream")).isEqualTo("-");
		assertThat(CompatibilityTable
				.cause("C01 [vllm stream]: 2 failing cases\n  - C01 [vllm stream]: expected x, observed y\n  - C01 [vllm stream]: z"))
				.isEqualTo("2 failing cases, the first: expected x, observed y");
		assertThat(CompatibilityTable.render(dir)).contains("| G 1.0 (2026-12-05) | relay | 1/1, 1 pending | 0/1 | - | - |")
				.contains("- **W01** (relay; vllm stream): expected a, observed b")
				.doesNotContain("clients |");
	}

	@Test
	@DisplayName("a reading of XML named by display names (Maven's and the standalone jar's) takes rule and target from the name, underscores and all")
	void readingOfPhrasedNames(@TempDir Path dir) throws IOException {
		Path xml = dir.resolve("TEST-dev.fakbattery.conformance.wire.GatewayUnderTestWireTests.xml");
		Files.writeString(xml,
				"""
						<?xml version="1.0" encoding="UTF-8"?>
						<testsuite name="w" tests="4">
						  <testcase name="W25 reasoning, content and finish_reason length kept sglang stream" classname="c"/>
						  <testcase name="W25 reasoning, content and finish_reason length kept vllm non-stream" classname="c">
						    <failure message="2 failing cases"/>
						  </testcase>
						  <testcase name="W07 finish_reason consistent with surviving calls [sglang non-stream]" classname="c">
						    <skipped message="NOT_JUDGED: no evidence"/>
						  </testcase>
						  <testcase name="F01 client gone, upstream request cancelled vllm stream" classname="c"/>
						</testsuite>
						""");
		JsonNode reading = CompatibilityReading.write(dir.resolve("out"), Map.of("name", "G 1.0", "date", "2026-12-05"), List.of(xml));

		assertThat(reading.at("/rules/W25/sglang stream/outcome").asText()).isEqualTo("PASS");
		assertThat(reading.at("/rules/W25/vllm non-stream/outcome").asText()).isEqualTo("FAIL");
		assertThat(reading.at("/rules/W07/sglang non-stream/outcome").asText()).isEqualTo("NOT_JUDGED");
		assertThat(reading.at("/rules/F01/vllm stream/outcome").asText()).isEqualTo("PASS");
		assertThat(reading.path("rules").fieldNames()).toIterable().containsExactly("F01", "W07", "W25");
	}

	@Test
	@DisplayName("the report's HTML page holds every row of docs/compatibility.md, and loses it when its reading is missing or altered")
	void reportPage(@TempDir Path dir) throws IOException {
		Path readings = ROOT.resolve("experiments/compatibility");
		List<String> gateways = List.of("nginx", "portkey");
		for (String gateway : gateways) {
			Files.createDirectories(dir.resolve(gateway));
			Files.copy(readings.resolve(gateway).resolve("kit-outcomes.json"), dir.resolve(gateway).resolve("kit-outcomes.json"));
		}
		List<String> rows = Files.readString(ROOT.resolve("docs/compatibility.md"))
				.lines()
				.filter(line -> line.startsWith("| ") && !line.startsWith("| gateway "))
				.map(line -> "<tr><td>" + String.join("</td><td>", line.substring(2, line.length() - 2).split(" \\| ")) + "</td></tr>")
				.toList();
		assertThat(rows).hasSizeGreaterThanOrEqualTo(8);

		assertThat(CompatibilityTable.html(dir)).contains(rows)
				.contains("<h2>Portkey 1.15.2</h2>", "<li><b>W03</b> (adjudication; every target): ");

		com.fasterxml.jackson.databind.node.ObjectNode portkey = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER
				.readTree(dir.resolve("portkey/kit-outcomes.json").toFile());
		String rule = "W01";
		assertThat(portkey.at("/rules/" + rule + "/vllm stream/outcome").asText()).as("the reading altered below").isEqualTo("PASS");
		((com.fasterxml.jackson.databind.node.ObjectNode) portkey.at("/rules/" + rule + "/vllm stream")).put("outcome", "FAIL")
				.put("message", "W01 [vllm stream]: expected the alias, observed another");
		Files.writeString(dir.resolve("portkey/kit-outcomes.json"), Json.MAPPER.writeValueAsString(portkey));
		String altered = CompatibilityTable.html(dir);
		List<String> relay = rows.stream().filter(row -> row.startsWith("<tr><td>Portkey") && row.contains("<td>relay</td>")).toList();
		assertThat(relay).hasSize(1);
		assertThat(altered).doesNotContain(relay.get(0))
				.contains("<li><b>W01</b> (relay; vllm stream): expected the alias, observed another</li>");

		Files.delete(dir.resolve("nginx/kit-outcomes.json"));
		assertThat(CompatibilityTable.html(dir)).doesNotContain("nginx").contains("<h2>Portkey 1.15.2</h2>");
	}
}
