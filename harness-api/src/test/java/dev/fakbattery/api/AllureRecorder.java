package dev.fakbattery.api;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.fakbattery.core.HarnessConfig;

import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.junitplatform.AllureJunitPlatform;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

/**
 * Runs test classes through a real JUnit launcher with Allure's listener on a lifecycle of its own, the way Surefire
 * and allure-jupiter run them, and keeps the Allure results in memory. Allure's lifecycle is global: callers run
 * {@code @Isolated}.
 */
final class AllureRecorder implements AllureResultsWriter {

	final List<TestResult> results = new CopyOnWriteArrayList<>();
	final List<String> attachments = new CopyOnWriteArrayList<>();

	static AllureRecorder run(Class<?> testClass, Map<String, String> parameters) {
		AllureRecorder recorder = new AllureRecorder();
		AllureLifecycle previous = Allure.getLifecycle();
		AllureLifecycle lifecycle = new AllureLifecycle(recorder);
		Allure.setLifecycle(lifecycle);
		try {
			LauncherConfig config = LauncherConfig.builder()
					.enableTestExecutionListenerAutoRegistration(false)
					.enablePostDiscoveryFilterAutoRegistration(false)
					.enableLauncherSessionListenerAutoRegistration(false)
					.enableLauncherDiscoveryListenerAutoRegistration(false)
					.build();
			LauncherFactory.create(config)
					.execute(LauncherDiscoveryRequestBuilder.request()
							.selectors(selectClass(testClass))
							.configurationParameters(HarnessConfig.hermeticParameters(parameters))
							.build(), new AllureJunitPlatform(lifecycle));
		}
		finally {
			Allure.setLifecycle(previous);
		}
		return recorder;
	}

	TestResult result(String name) {
		return results.stream()
				.filter(r -> r.getName().startsWith(name))
				.findFirst()
				.orElseThrow(() -> new AssertionError(
						"no Allure result named " + name + "...: " + results.stream().map(TestResult::getName).toList()));
	}

	static Optional<String> label(TestResult result, String name) {
		return result.getLabels().stream().filter(l -> l.getName().equals(name)).map(Label::getValue).findFirst();
	}

	static Optional<String> parameter(TestResult result, String name) {
		return result.getParameters().stream().filter(p -> p.getName().equals(name)).map(Parameter::getValue).findFirst();
	}

	@Override
	public void write(TestResult result) {
		results.add(result);
	}

	@Override
	public void write(TestResultContainer container) {
	}

	@Override
	public void write(String source, InputStream attachment) {
		attachments.add(source);
	}
}
