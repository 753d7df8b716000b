package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Link;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.Stage;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

@DisplayName("the guarded Allure writer writes no result, container or attachment that holds the key, in any form")
class GuardedResultsWriterTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@TempDir
	Path dir;

	/** Where in Allure's results a test may put a text: each writer path, given the writer and the planted text. */
	enum Plant {
		TEST_NAME((writer, text) -> writer.write(result().setName("test " + text))),
		STATUS_MESSAGE((writer, text) -> writer.write(result().setStatus(Status.FAILED)
				.setStatusDetails(new StatusDetails().setMessage("expected 200 for " + text)))),
		STACK_TRACE((writer, text) -> writer.write(result().setStatus(Status.BROKEN)
				.setStatusDetails(new StatusDetails()
						.setTrace("java.lang.AssertionError: x\n\tat a.B.c(B.java:1)\n" + text + "\n\tat d.E.f(E.java:2)")))),
		STEP((writer, text) -> writer.write(result().setSteps(List.of(new StepResult().setName("send " + text).setStatus(Status.PASSED))))),
		PARAMETER((writer, text) -> writer.write(result().setParameters(List.of(new Parameter().setName("header").setValue(text))))),
		LABEL((writer, text) -> writer.write(result().setLabels(List.of(new Label().setName("tag").setValue(text))))),
		LINK((writer, text) -> writer
				.write(result().setLinks(List.of(new Link().setName("target").setUrl("http://127.0.0.1/?q=" + text))))),
		DESCRIPTION((writer, text) -> writer.write(result().setDescription("a request with\n" + text + "\nin it"))),
		CONTAINER((writer, text) -> writer.write(new TestResultContainer().setUuid(UUID.randomUUID().toString()).setName("class " + text))),
		ATTACHMENT((writer, text) -> writer.write(UUID.randomUUID() + "-attachment.txt",
				new ByteArrayInputStream(CanaryForms.bytes("request:\n" + text + "\nend\n"))));

		final BiConsumer<AllureResultsWriter, String> write;

		Plant(BiConsumer<AllureResultsWriter, String> write) {
			this.write = write;
		}

		static TestResult result() {
			return new TestResult().setUuid(UUID.randomUUID().toString())
					.setName("a test")
					.setStatus(Status.PASSED)
					.setStage(Stage.FINISHED);
		}
	}

	static Stream<Arguments> plants() {
		return Stream.of(Plant.values())
				.flatMap(plant -> CanaryForms.forms()
						.map(form -> Arguments.of(plant, form.get()[0], CanaryForms.encode(form, CanaryForms.KEY))));
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("plants")
	@DisplayName("the key planted in a writer's path in a form is redacted from the file written, which is still written")
	void redactsEachFormInEachPath(Plant plant, String form, String planted) throws IOException {
		plant.write.accept(new GuardedResultsWriter(new FileSystemResultsWriter(dir), GUARD), planted);

		List<Path> files = files();
		assertThat(files).as("the result is written").hasSize(1);
		assertThat(GUARD.find(files.get(0))).as("%s, %s: %s", plant, form, Files.readString(files.get(0))).isEmpty();
		assertThat(Files.readString(files.get(0))).contains("[REDACTED api.key.env");
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("plants")
	@DisplayName("self-test: written without the guard, the key planted in each path and form is in the file, so the guard is what keeps it out")
	void withoutTheGuardEachPlantLands(Plant plant, String form, String planted) throws IOException {
		plant.write.accept(new FileSystemResultsWriter(dir), planted);

		assertThat(GUARD.find(files().get(0))).as("%s, %s", plant, form).isPresent();
	}

	@Test
	@DisplayName("a result without the key is passed on as it is; a redacted one keeps its status, stage and every other field")
	void cleanResultsPassUnchanged() {
		List<Object> written = new ArrayList<>();
		AllureResultsWriter recorder = new AllureResultsWriter() {

			@Override
			public void write(TestResult result) {
				written.add(result);
			}

			@Override
			public void write(TestResultContainer container) {
				written.add(container);
			}

			@Override
			public void write(String source, java.io.InputStream attachment) {
				written.add(source);
			}
		};
		GuardedResultsWriter writer = new GuardedResultsWriter(recorder, GUARD);
		TestResult clean = Plant.result().setName("no key here");
		TestResultContainer container = new TestResultContainer().setUuid("c").setName("a class");
		writer.write(clean);
		writer.write(container);
		TestResult planted = Plant.result().setName("key " + CanaryForms.KEY).setStatus(Status.SKIPPED).setFullName("a.B.c");
		writer.write(planted);

		assertThat(written.get(0)).isSameAs(clean);
		assertThat(written.get(1)).isSameAs(container);
		TestResult redacted = (TestResult) written.get(2);
		assertThat(redacted.getName()).isEqualTo("key [REDACTED api.key.env]");
		assertThat(redacted.getUuid()).isEqualTo(planted.getUuid());
		assertThat(redacted.getStatus()).isEqualTo(Status.SKIPPED);
		assertThat(redacted.getStage()).isEqualTo(Stage.FINISHED);
		assertThat(redacted.getFullName()).isEqualTo("a.B.c");
	}

	@Test
	@DisplayName("with no secret to guard, everything is passed on unread")
	void noSecretPassesEverythingOn() throws IOException {
		List<Object> written = new ArrayList<>();
		java.io.InputStream attachment = new ByteArrayInputStream(CanaryForms.bytes(CanaryForms.KEY));
		AllureResultsWriter recorder = new AllureResultsWriter() {

			@Override
			public void write(TestResult result) {
				written.add(result);
			}

			@Override
			public void write(TestResultContainer container) {
				written.add(container);
			}

			@Override
			public void write(String source, java.io.InputStream stream) {
				written.add(stream);
			}
		};
		TestResult result = Plant.result().setName(CanaryForms.KEY);
		GuardedResultsWriter writer = new GuardedResultsWriter(recorder, SecretGuard.none());
		writer.write(result);
		writer.write("a-attachment.txt", attachment);

		assertThat(written).containsExactly(result, attachment);
		assertThat(attachment.available()).as("not read").isPositive();
	}

	private List<Path> files() throws IOException {
		try (Stream<Path> files = Files.list(dir)) {
			return files.toList();
		}
	}
}
