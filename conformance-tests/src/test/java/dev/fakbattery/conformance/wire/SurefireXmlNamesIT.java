package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Surefire's XML of this very build names each test case by its JUnit display names (the root pom's
 * {@code usePhrasedTestCaseMethodName}): read after surefire wrote it, from {@link KitTestNamesTests}' report, whose
 * parameterized test is named as a rule run is, by its method's display name and its own. Without that setting the
 * same cases read {@code everyRuleRunNamed(Class, int)[1]}.
 */
@Tag("wire")
@DisplayName("surefire's XML of this build: each test case named by its display names, as a rule run is (rule and target)")
class SurefireXmlNamesIT {

	private static final Path XML = Path.of("target", "surefire-reports", "TEST-" + KitTestNamesTests.class.getName() + ".xml");

	@Test
	@DisplayName("KitTestNamesTests' cases read '<method display name> <run display name>', none by method and index")
	void phrasedNames() throws Exception {
		Instant buildStart = buildStart(System.getProperty("harness.run.id", ""));
		assumeTrue(Files.isRegularFile(XML) && !Files.getLastModifiedTime(XML).toInstant().isBefore(buildStart),
				"surefire did not run KitTestNamesTests in this build (no " + XML + " written since " + buildStart
						+ "): -Dtest=... left it out");

		List<String> names = names(XML);

		assertThat(names).as(XML.toString())
				.contains("every rule run is named by its rule and its target wire kit",
						"every rule run is named by its rule and its target fault kit",
						"every rule run is named by its rule and its target client kit")
				.noneMatch(name -> name.matches(".*\\w\\([^)]*\\)(\\[\\d+\\])?"));
	}

	/** The build's start from its run id ({@code 20261130T201500Z-3fa9c2}); a run id that names none is a misconfiguration. */
	static Instant buildStart(String runId) {
		try {
			return LocalDateTime
					.parse(runId.substring(0, Math.min(16, runId.length())), DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'"))
					.toInstant(ZoneOffset.UTC);
		}
		catch (DateTimeParseException e) {
			throw new IllegalStateException("harness.run.id [" + runId + "] names no build start (yyyyMMdd'T'HHmmss'Z'...): "
					+ "run this through failsafe, whose configuration in conformance-tests/pom.xml passes it", e);
		}
	}

	private static List<String> names(Path xml) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		NodeList cases = factory.newDocumentBuilder().parse(xml.toFile()).getElementsByTagName("testcase");
		List<String> names = new ArrayList<>();
		for (int i = 0; i < cases.getLength(); i++) {
			names.add(((Element) cases.item(i)).getAttribute("name"));
		}
		return names;
	}
}
