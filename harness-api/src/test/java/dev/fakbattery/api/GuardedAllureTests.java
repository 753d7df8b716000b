package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.TestResult;

@DisplayName("while a launcher session is open Allure writes its results through the guard")
class GuardedAllureTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@TempDir
	Path dir;

	private String resultsDirectory;

	@BeforeEach
	void resultsHere() {
		resultsDirectory = System.getProperty("allure.results.directory");
		System.setProperty("allure.results.directory", dir.toString());
	}

	@AfterEach
	void resultsBack() {
		if (resultsDirectory == null) {
			System.clearProperty("allure.results.directory");
		}
		else {
			System.setProperty("allure.results.directory", resultsDirectory);
		}
	}

	@Test
	@DisplayName("a test case and its attachment written through Allure's global lifecycle once the listener is made hold no key")
	void globalLifecycleIsGuarded() throws IOException {
		AllureLifecycle before = Allure.getLifecycle();
		GuardedAllure session = new GuardedAllure(GUARD);

		try {
			assertThat(Allure.getLifecycle()).isNotSameAs(before);
			writeATestCase(Allure.getLifecycle());
		}
		finally {
			session.launcherSessionClosed(null);
		}

		assertThat(Allure.getLifecycle()).as("given back when the session closes").isSameAs(before);
		assertThat(files()).hasSize(2).allSatisfy(file -> assertThat(GUARD.find(file)).as(file.toString()).isEmpty());
	}

	@Test
	@DisplayName("self-test: the same test case written by an unguarded lifecycle holds the key in its result and attachment")
	void unguardedLifecycleLeaks() throws IOException {
		AllureLifecycle before = Allure.getLifecycle();
		GuardedAllure session = new GuardedAllure(SecretGuard.none());

		assertThat(Allure.getLifecycle()).as("no secret: Allure left as it is").isSameAs(before);
		session.launcherSessionClosed(null);
		writeATestCase(new AllureLifecycle());

		assertThat(files()).hasSize(2).allSatisfy(file -> assertThat(GUARD.find(file)).as(file.toString()).isPresent());
	}

	@Test
	@DisplayName("a session opened inside a guarded one keeps the outer lifecycle")
	void nestedSessionsKeepTheOuterLifecycle() {
		AllureLifecycle before = Allure.getLifecycle();
		GuardedAllure outer = new GuardedAllure(GUARD);
		AllureLifecycle guarded = Allure.getLifecycle();
		GuardedAllure inner = new GuardedAllure(GUARD);
		assertThat(Allure.getLifecycle()).isSameAs(guarded);
		inner.launcherSessionClosed(null);
		assertThat(Allure.getLifecycle()).isSameAs(guarded);
		outer.launcherSessionClosed(null);

		assertThat(Allure.getLifecycle()).isSameAs(before);
	}

	@Test
	@DisplayName("the nested run's lifecycle writes where Allure's would, through the JVM's guard")
	void nestedRunLifecycleWritesToTheResultsDirectory() throws IOException {
		writeATestCase(GuardedResultsWriter.lifecycle());

		assertThat(files()).hasSize(2);
	}

	private static void writeATestCase(AllureLifecycle lifecycle) {
		String uuid = UUID.randomUUID().toString();
		lifecycle.scheduleTestCase(new TestResult().setUuid(uuid).setName("sends " + CanaryForms.KEY).setStatus(Status.PASSED));
		lifecycle.startTestCase(uuid);
		lifecycle.addAttachment("request", "text/plain", "txt", CanaryForms.bytes("Authorization: Bearer " + CanaryForms.KEY + "\n"));
		lifecycle.stopTestCase(uuid);
		lifecycle.writeTestCase(uuid);
	}

	private List<Path> files() throws IOException {
		try (Stream<Path> files = Files.list(dir)) {
			return files.toList();
		}
	}
}
