package dev.fakbattery.conformance.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * A committed compatibility reading: the kit's JUnit XML of one gateway (the {@code GatewayUnderTest...Tests} classes run
 * with {@code gateway.cmd}) turned into {@code kit-outcomes.json}, each rule's {@link RuleOutcome} per target
 * ({@code vllm stream}) with its message, the gateway command and log path left out, and the XML itself kept beside it
 * without its {@code <properties>} (the JVM's system properties are no part of a reading).
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class CompatibilityReading {

	/** The reading's schema id: {@value}. */
	public static final String SCHEMA = "fak-battery.kit-compatibility-reading.v2";

	private static final List<String> TARGETS = List.of("vllm non-stream", "vllm stream", "sglang non-stream", "sglang stream");

	private static final Pattern TARGET = Pattern.compile("^\\w+ \\[([a-z]+ [a-z-]+)\\]");

	/**
	 * A test case named by its display names: surefire's ({@code W01 model alias ... vllm stream}, the root pom's
	 * {@code usePhrasedTestCaseMethodName}) or the standalone jar's ({@code W01 model alias ... [vllm stream]}); an older
	 * reading's are named by method and index ({@code required_W01_modelAlias(Dialect, String)[2]}).
	 */
	private static final Pattern PHRASED = Pattern.compile("([A-Z]\\d\\d) .* \\[?((?:vllm|sglang|llamacpp) (?:non-stream|stream))\\]?");

	private static final Pattern COMMAND = Pattern.compile(" on gateway\\.cmd \\[[^\\]]*\\] \\(log [^)]*\\)");

	private CompatibilityReading() {
	}

	/**
	 * Writes {@code out}/kit-outcomes.json and {@code out}/junit/ from {@code xml}, the reading described by
	 * {@code about} (gateway, date, commit, host, command).
	 */
	public static ObjectNode write(Path out, Map<String, String> about, List<Path> xml) {
		ObjectNode reading = Json.MAPPER.createObjectNode().put("schema", SCHEMA);
		about.forEach(reading::put);
		Map<String, Map<String, ObjectNode>> rules = new TreeMap<>();
		try {
			Files.createDirectories(out.resolve("junit"));
			for (Path file : xml) {
				Document document = parse(file);
				Element suite = document.getDocumentElement();
				for (Node properties : nodes(suite.getElementsByTagName("properties"))) {
					properties.getParentNode().removeChild(properties);
				}
				Map<String, Integer> seen = new TreeMap<>();
				for (Node node : nodes(suite.getElementsByTagName("testcase"))) {
					Element testcase = (Element) node;
					String name = testcase.getAttribute("name");
					Matcher phrased = PHRASED.matcher(name);
					String[] parts = name.split("_");
					String rule = phrased.matches() ? phrased.group(1) : parts.length > 1 ? parts[1] : parts[0].split(" ")[0];
					int index = seen.merge(rule, 1, Integer::sum) - 1;
					ObjectNode run = run(testcase);
					Matcher named = TARGET.matcher(run.path("message").asText(""));
					String target = phrased.matches()
							? phrased.group(2)
							: named.find() ? named.group(1) : index < TARGETS.size() ? TARGETS.get(index) : String.valueOf(index);
					rules.computeIfAbsent(rule, r -> new TreeMap<>(java.util.Comparator.comparingInt(CompatibilityReading::order)))
							.put(target, run);
				}
				String kept = file.getFileName().toString().replace("TEST-dev.fakbattery.conformance.", "");
				var transformer = TransformerFactory.newInstance().newTransformer();
				transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
				transformer.transform(new DOMSource(document), new StreamResult(out.resolve("junit").resolve(kept).toFile()));
			}
			ObjectNode byRule = reading.putObject("rules");
			rules.forEach((rule, targets) -> targets.forEach((target, run) -> byRule.with(rule).set(target, run)));
			Files.writeString(out.resolve("kit-outcomes.json"),
					Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(reading) + "\n");
			return reading;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (TransformerException e) {
			throw new IllegalStateException("cannot write the XML of " + out + ": " + e.getMessage(), e);
		}
	}

	/** A run's outcome (as {@link RuleOutcome#of} reads a JUnit result) and, where it did not pass, its message. */
	static ObjectNode run(Element testcase) {
		Element failure = first(testcase, "failure");
		Element skipped = first(testcase, "skipped");
		Element ended = failure != null ? failure : skipped;
		String message = ended == null ? "" : message(ended);
		RuleOutcome outcome = failure != null
				? message.startsWith(RuleOutcome.PENDING_PREFIX) ? RuleOutcome.PENDING_MEASUREMENT : RuleOutcome.FAIL
				: skipped == null
						? RuleOutcome.PASS
						: message.startsWith(RuleOutcome.NOT_JUDGED_PREFIX)
								? RuleOutcome.NOT_JUDGED
								: message.startsWith(RuleOutcome.PENDING_PREFIX)
										? RuleOutcome.PENDING_MEASUREMENT
										: message.startsWith(RuleOutcome.NOT_CLAIMED_PREFIX)
												? RuleOutcome.NOT_CLAIMED
												: RuleOutcome.NOT_APPLICABLE;
		ObjectNode run = Json.MAPPER.createObjectNode().put("outcome", outcome.name());
		if (!message.isEmpty()) {
			String clean = COMMAND.matcher(message).replaceAll("");
			run.put("message", clean.length() <= 400 ? clean : clean.substring(0, 400));
		}
		return run;
	}

	/** A failure's or skip's message: its attribute, else its text (surefire writes an abort there) without the exception's class. */
	private static String message(Element ended) {
		String attribute = ended.getAttribute("message");
		if (!attribute.isEmpty()) {
			return attribute;
		}
		return THROWN.matcher(ended.getTextContent().strip()).replaceFirst("");
	}

	private static final Pattern THROWN = Pattern.compile("^[\\w.$]+(Exception|Error): ");

	private static int order(String target) {
		int at = TARGETS.indexOf(target);
		return at < 0 ? TARGETS.size() : at;
	}

	private static Document parse(Path file) throws IOException {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			return factory.newDocumentBuilder().parse(file.toFile());
		}
		catch (ParserConfigurationException | SAXException e) {
			throw new IOException("not the kit's JUnit XML: " + file + " (" + e.getMessage() + ")", e);
		}
	}

	private static Element first(Element parent, String tag) {
		NodeList found = parent.getElementsByTagName(tag);
		return found.getLength() == 0 ? null : (Element) found.item(0);
	}

	private static List<Node> nodes(NodeList list) {
		List<Node> nodes = new java.util.ArrayList<>();
		for (int i = 0; i < list.getLength(); i++) {
			nodes.add(list.item(i));
		}
		return nodes;
	}
}
