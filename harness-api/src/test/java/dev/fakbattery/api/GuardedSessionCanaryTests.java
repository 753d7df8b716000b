package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import io.qameta.allure.Allure;

/**
 * The write-time guards as a test JVM gets them: a child JVM with a canary key in the environment variable
 * {@code api.key.env} names runs, through the JUnit launcher with allure-jupiter, a test that plants the key in each
 * form in each writer's path (its display name, a parameter, a step, an attachment, its failure message and trace,
 * {@code System.out} and {@code System.err}); then every file it wrote (its Allure results, its console) is scanned.
 * The same run without the launcher session listeners (the guards) lands each plant, so the scan can fail.
 */
@DisplayName("a test JVM's Allure results and console hold no planted key, in any form, in any writer's path")
@Timeout(120)
@Execution(ExecutionMode.CONCURRENT) // mostly waiting on its child JVM
class GuardedSessionCanaryTests {

	static final String KEY_ENV = "FAK_CANARY_API_KEY";

	static final String KEY = CanaryForms.freshKey();

	static final SecretGuard GUARD = CanaryForms.guard(KEY);

	@TempDir
	Path root;

	@Test
	@DisplayName("guarded: every result, attachment and console line is written, none holds the key")
	void guardedRunLeaksNothing() throws Exception {
		Run run = run(true);

		assertThat(run.files("-result.json")).as("one result per form").hasSize((int) CanaryForms.forms().count());
		assertThat(run.files("-attachment.txt")).as("one attachment per form").hasSize((int) CanaryForms.forms().count());
		List<String> findings = new ArrayList<>();
		for (Path file : run.all()) {
			GUARD.find(file).ifPresent(found -> findings.add(root.relativize(file) + ": " + found));
		}
		assertThat(findings).as("files holding the key").isEmpty();
		assertThat(run.console().lines().filter(line -> line.contains("[REDACTED api.key.env")))
				.as("each planted console line written, redacted: %s", run.console())
				.hasSize(2 * (int) CanaryForms.oneLineForms().count());
		assertThat(run.files("-result.json")).allSatisfy(file -> assertThat(Files.readString(file)).contains("[REDACTED api.key.env"));
	}

	@Test
	@DisplayName("self-test: without the guards each plant lands in every result, every attachment and every console line")
	void unguardedRunLandsEveryPlant() throws Exception {
		Run run = run(false);

		assertThat(run.files("-result.json")).hasSize((int) CanaryForms.forms().count())
				.allSatisfy(file -> assertThat(GUARD.find(file)).as(file.toString()).isPresent());
		assertThat(run.files("-attachment.txt")).hasSize((int) CanaryForms.forms().count())
				.allSatisfy(file -> assertThat(GUARD.find(file)).as(file.toString()).isPresent());
		List<String> planted = run.console().lines().filter(line -> line.startsWith("stdout ") || line.startsWith("stderr ")).toList();
		assertThat(planted).hasSize(2 * (int) CanaryForms.oneLineForms().count())
				.allSatisfy(line -> assertThat(GUARD.find(line)).as(line).isPresent());
	}

	private Run run(boolean guarded) throws Exception {
		Path results = root.resolve("allure-results");
		Path console = root.resolve("console.log");
		List<String> command = new ArrayList<>(ChildJava.command());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dapi.key.env=" + KEY_ENV,
				"-Dallure.results.directory=" + results, PlantingMain.class.getName(), Boolean.toString(guarded)));
		ProcessBuilder child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
		child.environment().put(KEY_ENV, KEY);
		Process process = child.start();
		assertThat(process.waitFor(100, TimeUnit.SECONDS)).as("the planting run ended").isTrue();
		assertThat(process.exitValue()).as("exit status; see %s", console).isZero();
		return new Run(results, console);
	}

	record Run(Path results, Path consoleFile) {

		List<Path> files(String suffix) throws IOException {
			return all().stream().filter(file -> file.getFileName().toString().endsWith(suffix)).toList();
		}

		List<Path> all() throws IOException {
			try (Stream<Path> files = Files.list(results)) {
				return Stream.concat(files, Stream.of(consoleFile)).toList();
			}
		}

		String console() throws IOException {
			return Files.readString(consoleFile, StandardCharsets.UTF_8);
		}
	}

	/** The child JVM: runs {@link PlantingTestCase} through the launcher, its session listeners registered or not. */
	public static final class PlantingMain {

		private PlantingMain() {
		}

		public static void main(String[] args) {
			LauncherConfig config = LauncherConfig.builder()
					.enableLauncherSessionListenerAutoRegistration(Boolean.parseBoolean(args[0]))
					.build();
			LauncherFactory.create(config)
					.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(PlantingTestCase.class)).build());
			System.exit(0);
		}
	}

	/** Plants the key of {@link #KEY_ENV} in each form in each of a test's writer paths. */
	static class PlantingTestCase {

		static Stream<Arguments> planted() {
			String key = System.getenv(KEY_ENV);
			List<Object> oneLine = CanaryForms.oneLineForms().map(form -> form.get()[0]).toList();
			return CanaryForms.forms()
					.map(form -> Arguments.of(form.get()[0], CanaryForms.encode(form, key), oneLine.contains(form.get()[0])));
		}

		@ParameterizedTest(name = "{0}: {1}")
		@MethodSource("planted")
		void plant(String form, String planted, boolean oneLine) {
			if (oneLine) {
				System.out.println("stdout " + form + ": " + planted);
				System.err.println("stderr " + form + ": " + planted);
			}
			Allure.parameter("planted", planted);
			Allure.step("step " + planted);
			Allure.addAttachment("attachment " + form, "text/plain", "request\n" + planted + "\n");
			fail("failure message " + planted);
		}
	}
}
