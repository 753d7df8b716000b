package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * A failing test's report holds no secret: a child JVM with a canary key in the environment variable
 * {@code api.key.env} names runs, through the JUnit launcher with the configuration parameters this test JVM got from
 * the build (Surefire's {@code configurationParameters}, which turn {@link GuardedFailures} on), a test that fails with
 * the key in each form in its message and one that errors with it in its cause; the launcher's Ant-style XML report
 * (Surefire's format: the failure's message, type and trace) and each failure's printed trace (what Surefire's
 * {@code .txt} holds) are then scanned. The same run with extension auto-detection off lands every plant, so the scan
 * can fail.
 */
@DisplayName("a failing test's XML report and printed trace hold no planted key, in any form; the failure stays a failure")
@Timeout(120)
@Execution(ExecutionMode.CONCURRENT) // mostly waiting on its child JVM
class GuardedFailuresCanaryTests {

	static final String KEY_ENV = "FAK_CANARY_API_KEY";

	static final String KEY = CanaryForms.freshKey();

	static final SecretGuard GUARD = CanaryForms.guard(KEY);

	static final String AUTODETECTION = "junit.jupiter.extensions.autodetection.enabled";

	static final String INCLUDE = "junit.jupiter.extensions.autodetection.include";

	static final int FORMS = (int) CanaryForms.forms().count();

	/** The configuration parameters this test JVM got from the build, as Jupiter reads them. */
	static final Map<String, Optional<String>> BUILD = new HashMap<>();

	@RegisterExtension
	static final BeforeAllCallback READ_BUILD = context -> List.of(AUTODETECTION, INCLUDE)
			.forEach(name -> BUILD.put(name, context.getConfigurationParameter(name)));

	@TempDir
	Path root;

	@Test
	@DisplayName("with the build's configuration: every test fails or errors as thrown, its report names the redaction, none holds the key")
	void guardedReportsHoldNoKey() throws Exception {
		Map<String, String> build = new HashMap<>();
		for (String name : List.of(AUTODETECTION, INCLUDE)) {
			build.put(name, BUILD.get(name)
					.orElseGet(() -> fail("this test JVM has no configuration parameter " + name
							+ ": the build's Surefire configurationParameters (junit.guard.parameters in the root pom) must turn "
							+ GuardedFailures.class.getSimpleName() + " on")));
		}
		Reports reports = run(build);

		assertThat(reports.traces()).as("one printed trace per failing test").hasSize(2 * FORMS);
		List<String> findings = new ArrayList<>();
		for (Path file : reports.all()) {
			GUARD.find(file).ifPresent(found -> findings.add(root.relativize(file) + ": " + found));
		}
		assertThat(findings).as("report files holding the key").isEmpty();
		String xml = reports.xml();
		assertThat(elements(xml, "failure")).as("failures still failures, as thrown")
				.hasSize(FORMS)
				.allSatisfy(failure -> assertThat(failure).contains("type=\"java.lang.AssertionError\"")
						.contains("[REDACTED api.key.env"));
		assertThat(elements(xml, "error")).as("errors still errors, as thrown")
				.hasSize(FORMS)
				.allSatisfy(error -> assertThat(error).contains("type=\"java.lang.IllegalStateException\"")
						.contains("[REDACTED api.key.env"));
	}

	@Test
	@DisplayName("self-test: with extension auto-detection off each plant lands in the XML report and in every printed trace")
	void unguardedReportsHoldEveryPlant() throws Exception {
		Reports reports = run(Map.of(AUTODETECTION, "false"));

		assertThat(reports.traces()).hasSize(2 * FORMS).allSatisfy(file -> assertThat(GUARD.find(file)).as(file.toString()).isPresent());
		assertThat(GUARD.find(reports.xmlFile())).isPresent();
		assertThat(reports.xml()).doesNotContain("[REDACTED");
	}

	/** The {@code <failure>} or {@code <error>} elements of the XML report, each with its message, type and trace. */
	private static List<String> elements(String xml, String name) {
		Matcher matcher = Pattern.compile("<" + name + " [^>]*>.*?</" + name + ">", Pattern.DOTALL).matcher(xml);
		List<String> found = new ArrayList<>();
		while (matcher.find()) {
			found.add(matcher.group());
		}
		return found;
	}

	private Reports run(Map<String, String> parameters) throws Exception {
		Path reports = root.resolve("reports");
		Path console = root.resolve("console.log");
		List<String> command = new ArrayList<>(ChildJava.command());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dapi.key.env=" + KEY_ENV,
				"-Dallure.results.directory=" + root.resolve("allure-results"), FailingMain.class.getName(), reports.toString()));
		parameters.forEach((name, value) -> command.add(name + "=" + value));
		ProcessBuilder child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
		child.environment().put(KEY_ENV, KEY);
		Process process = child.start();
		assertThat(process.waitFor(100, TimeUnit.SECONDS)).as("the failing run ended").isTrue();
		assertThat(process.exitValue()).as("exit status; see %s", console).isZero();
		return new Reports(reports);
	}

	record Reports(Path dir) {

		Path xmlFile() {
			return dir.resolve("TEST-junit-jupiter.xml");
		}

		String xml() throws IOException {
			return Files.readString(xmlFile(), StandardCharsets.UTF_8);
		}

		List<Path> traces() throws IOException {
			try (Stream<Path> files = Files.list(dir.resolve("traces"))) {
				return files.sorted().toList();
			}
		}

		List<Path> all() throws IOException {
			try (Stream<Path> files = Files.walk(dir)) {
				return files.filter(Files::isRegularFile).sorted().toList();
			}
		}
	}

	/**
	 * The child JVM: runs {@link FailingTestCase} through the launcher with the configuration parameters given as
	 * {@code NAME=VALUE}, writing the launcher's XML report and each failure's printed trace under REPORTS.
	 *
	 * <pre>FailingMain REPORTS NAME=VALUE...</pre>
	 */
	public static final class FailingMain {

		private FailingMain() {
		}

		public static void main(String[] args) throws IOException {
			Path reports = Path.of(args[0]);
			Files.createDirectories(reports.resolve("traces"));
			Map<String, String> parameters = new HashMap<>();
			for (int i = 1; i < args.length; i++) {
				parameters.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
			}
			AtomicInteger failures = new AtomicInteger();
			TestExecutionListener traces = new TestExecutionListener() {

				@Override
				public void executionFinished(TestIdentifier test, TestExecutionResult result) {
					result.getThrowable().ifPresent(thrown -> {
						try (PrintWriter out = new PrintWriter(
								Files.newBufferedWriter(reports.resolve("traces").resolve(failures.incrementAndGet() + ".txt")))) {
							out.println(test.getDisplayName());
							thrown.printStackTrace(out);
						}
						catch (IOException e) {
							throw new java.io.UncheckedIOException(e);
						}
					});
				}
			};
			LauncherFactory.create()
					.execute(LauncherDiscoveryRequestBuilder.request()
							.selectors(selectClass(FailingTestCase.class))
							.configurationParameters(parameters)
							.build(), new LegacyXmlReportGeneratingListener(reports, new PrintWriter(System.out, true)), traces);
			System.exit(0);
		}
	}

	/** Fails, and errors, with the key of {@link #KEY_ENV} in each form. */
	static class FailingTestCase {

		static Stream<Arguments> planted() {
			String key = System.getenv(KEY_ENV);
			return CanaryForms.forms().map(form -> Arguments.of(form.get()[0], CanaryForms.encode(form, key)));
		}

		@ParameterizedTest(name = "{0}")
		@MethodSource("planted")
		void failure(String form, String planted) {
			fail("failure message " + planted);
		}

		@ParameterizedTest(name = "{0}")
		@MethodSource("planted")
		void error(String form, String planted) throws IOException {
			throw new IllegalStateException("the request failed", new IOException("the engine answered " + planted));
		}
	}
}
