package dev.fakbattery.conformance.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The standalone kit's JUnit XML, its test names made readable: JUnit's console launcher names a rule run by its method
 * and index ({@code required_W01_modelAlias(Dialect, String)[2]}, the rule, engine and mode only in its
 * {@code system-out}); each becomes the rule and its target, {@code W01 model alias ... [vllm stream]}, as
 * {@link RuleTree} recorded it.
 */
final class XmlNames {

	private XmlNames() {
	}

	/** Renames the test cases of every {@code TEST-*.xml} in {@code reports} that {@code names} knows. */
	static void rename(Path reports, Map<String, String> names) {
		if (names.isEmpty() || !Files.isDirectory(reports)) {
			return;
		}
		try (Stream<Path> files = Files.list(reports)) {
			for (Path xml : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).toList()) {
				renameIn(xml, names);
			}
		}
		catch (IOException e) {
			throw new IllegalStateException("could not list the JUnit XML in " + reports + ": " + e.getMessage(), e);
		}
	}

	private static void renameIn(Path xml, Map<String, String> names) {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			Document document = factory.newDocumentBuilder().parse(xml.toFile());
			NodeList cases = document.getElementsByTagName("testcase");
			for (int i = 0; i < cases.getLength(); i++) {
				Element testcase = (Element) cases.item(i);
				String name = names.get(testcase.getAttribute("name"));
				if (name != null) {
					testcase.setAttribute("name", name);
				}
			}
			TransformerFactory transformers = TransformerFactory.newInstance();
			transformers.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			transformers.newTransformer().transform(new DOMSource(document), new StreamResult(xml.toFile()));
		}
		catch (Exception e) {
			throw new IllegalStateException("could not rename the tests of " + xml + ": " + e.getMessage(), e);
		}
	}
}
