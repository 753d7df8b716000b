package dev.fakbattery.api;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.extension.ExtensionContext;

import io.qameta.allure.AllureLifecycle;

/**
 * The Allure test case of the running JUnit test. A rung or rule run inside another test (an EngineTestKit
 * self-test) has none of its own: Allure's current case is then the outer test's, and labelling it would move a
 * self-test into the battery report.
 */
final class AllureTest {

	/** Allure's label with the JUnit unique id of the test it reports. */
	static final String UNIQUE_ID = "junit.platform.uniqueid";

	private AllureTest() {
	}

	/** The uuid of the Allure test case reporting {@code context}'s test; empty when Allure reports another one or none. */
	static Optional<String> of(ExtensionContext context) {
		AllureLifecycle lifecycle = NestedReport.lifecycle(context);
		Optional<String> current = lifecycle.getCurrentTestCase();
		if (current.isEmpty()) {
			return Optional.empty();
		}
		AtomicBoolean same = new AtomicBoolean();
		lifecycle.updateTestCase(current.get(), result -> same.set(result.getLabels()
				.stream()
				.anyMatch(label -> UNIQUE_ID.equals(label.getName()) && context.getUniqueId().equals(label.getValue()))));
		return same.get() ? current : Optional.empty();
	}
}
