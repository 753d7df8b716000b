package dev.fakbattery.report.gate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads the Surefire reports of every module, so that a battery run that lets all modules finish
 * (to produce every artifact and the report) still fails on any failed test.
 *
 * @since 0.1
 */
public final class TestReportScan {

	/** One failed or errored test: {@code Class.method: message}. */
	public record FailedTest(String test, String message) {
		@Override
		public String toString() {
			return test + ": " + message;
		}
	}

	private static final java.time.format.DateTimeFormatter RUN_ID = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

	private TestReportScan() {
	}

	public static List<FailedTest> failedTests(Path root) {
		return failedTests(root, Optional.empty());
	}

	/**
	 * As {@link #failedTests(Path)}, reading only the reports written at or after {@code since} (the build's start):
	 * a report an earlier build left behind, for a test class this build did not run, says nothing about this run.
	 */
	public static List<FailedTest> failedTests(Path root, Optional<Instant> since) {
		List<FailedTest> failed = new ArrayList<>();
		try (Stream<Path> modules = Files.list(root)) {
			for (Path reports : modules.map(m -> m.resolve("target/surefire-reports")).filter(Files::isDirectory).sorted().toList()) {
				try (Stream<Path> files = Files.list(reports)) {
					for (Path xml : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml"))
							.filter(f -> since.isEmpty() || !modified(f).isBefore(since.get()))
							.sorted()
							.toList()) {
						failed.addAll(read(xml));
					}
				}
			}
		}
		catch (IOException e) {
			throw new IllegalStateException("could not read the test reports under " + root + ": " + e.getMessage(), e);
		}
		return failed;
	}

	/**
	 * The build start a run id names ({@code yyyyMMdd'T'HHmmss'Z'}, Maven's build timestamp, then any suffix such as
	 * the build's random part), or empty for any other id.
	 */
	public static Optional<Instant> buildStart(String runId) {
		try {
			return Optional.of(java.time.LocalDateTime.parse(runId.length() > 16 ? runId.substring(0, 16) : runId, RUN_ID)
					.toInstant(java.time.ZoneOffset.UTC));
		}
		catch (java.time.format.DateTimeParseException e) {
			return Optional.empty();
		}
	}

	private static Instant modified(Path file) {
		try {
			return Files.getLastModifiedTime(file).toInstant();
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
	}

	static List<FailedTest> read(Path xml) {
		List<FailedTest> failed = new ArrayList<>();
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			NodeList cases = factory.newDocumentBuilder().parse(xml.toFile()).getElementsByTagName("testcase");
			for (int i = 0; i < cases.getLength(); i++) {
				Element testcase = (Element) cases.item(i);
				for (String kind : new String[]{ "failure", "error" }) {
					NodeList problems = testcase.getElementsByTagName(kind);
					if (problems.getLength() > 0) {
						String message = ((Element) problems.item(0)).getAttribute("message");
						failed.add(new FailedTest(testcase.getAttribute("classname") + "." + testcase.getAttribute("name"),
								message.isEmpty() ? kind : message));
					}
				}
			}
		}
		catch (Exception e) {
			failed.add(new FailedTest(xml.toString(), "unreadable test report: " + e.getMessage()));
		}
		return failed;
	}
}
