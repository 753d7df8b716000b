package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigKey;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("JupiterConfig: a misspelled -D fails the run naming the key; a self-test sees only its own parameters")
class JupiterConfigTests {

	@Test
	@DisplayName("-Dtax.coutn=3 fails the run: Unknown configuration parameter tax.coutn: did you mean tax.count?")
	void misspelledSystemPropertyFailsTheRun() {
		Events events = withSystemProperty("tax.coutn", "3", () -> run(Map.of()));
		events.assertThatEvents()
				.haveExactly(1, event(test("reads"), finishedWithFailure(
						message(m -> m.endsWith(
								"Unknown configuration parameter tax.coutn: did you mean tax.count? Fix: pass -Dtax.count=... instead of -Dtax.coutn.")))));
	}

	@Test
	@DisplayName("a -D far from every key (and the JVM's, Maven's own) passes")
	void farSystemPropertyPasses() {
		Events events = withSystemProperty("frobnicate.count", "3", () -> run(Map.of()));
		events.assertThatEvents().haveExactly(1, event(test("reads"), finishedSuccessfully()));
	}

	@Test
	@DisplayName("an EngineTestKit self-test sees only the parameters it was given, none of the outer build's -D values")
	void selfTestSeesNoOuterValue() {
		Map<String, String> outer = outerValues();
		Probe.SEEN.clear();
		withSystemProperties(outer, () -> run(Map.of(ConfigKeys.MODEL.name(), "given")))
				.assertThatEvents()
				.haveExactly(1, event(test("reads"), finishedSuccessfully()));
		assertThat(Probe.SEEN).as("values the self-test saw").containsExactly(ConfigKeys.MODEL.name() + "=given");
		Probe.SEEN.clear();
		withSystemProperties(outer, () -> run(HarnessConfig.hermeticParameters(Map.of(ConfigKeys.MODEL.name(), "given"))))
				.assertThatEvents()
				.haveExactly(1, event(test("reads"), finishedSuccessfully()));
		assertThat(Probe.SEEN).as("values the self-test saw with hermeticParameters").containsExactly(ConfigKeys.MODEL.name() + "=given");
	}

	@Test
	@DisplayName("control: a run with the Launcher's implicit parameters (as under Surefire) sees a -D value, so the test above can fail")
	void launcherRunSeesTheOuterValue() {
		Probe.SEEN.clear();
		withSystemProperties(Map.of(ConfigKeys.SELECTION.name(), "outer"), () -> EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(Probe.class))
				.enableImplicitConfigurationParameters(true)
				.execute()
				.testEvents())
				.assertThatEvents()
				.haveExactly(1, event(test("reads"), finishedSuccessfully()));
		assertThat(Probe.SEEN).contains(ConfigKeys.SELECTION.name() + "=outer");
	}

	/** A value for every key the JVM does not already set, as an outer build's -D values would be. */
	private static Map<String, String> outerValues() {
		Map<String, String> outer = new java.util.HashMap<>();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			if (System.getProperty(key.name()) == null) {
				outer.put(key.name(), "outer-" + key.name());
			}
		}
		assertThat(outer).as("keys this test can set as the outer build's -D values").containsKey(ConfigKeys.SELECTION.name());
		return outer;
	}

	private static Events run(Map<String, String> parameters) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(Probe.class))
				.configurationParameters(parameters)
				.execute()
				.testEvents();
	}

	private static Events withSystemProperty(String name, String value, java.util.function.Supplier<Events> body) {
		return withSystemProperties(Map.of(name, value), body);
	}

	private static Events withSystemProperties(Map<String, String> values, java.util.function.Supplier<Events> body) {
		Map<String, Optional<String>> before = new java.util.HashMap<>();
		values.forEach((name, value) -> {
			before.put(name, Optional.ofNullable(System.getProperty(name)));
			System.setProperty(name, value);
		});
		try {
			return body.get();
		}
		finally {
			before.forEach((name, value) -> value.ifPresentOrElse(v -> System.setProperty(name, v), () -> System.clearProperty(name)));
		}
	}

	/** Resolves the configuration the way the rungs do and records every key it sees set. */
	static final class ConfigResolver implements ParameterResolver {

		@Override
		public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
			return parameter.getParameter().getType() == HarnessConfig.class;
		}

		@Override
		public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
			return JupiterConfig.of(context);
		}
	}

	@ExtendWith(ConfigResolver.class)
	static class Probe {

		static final List<String> SEEN = new ArrayList<>();

		@Test
		void reads(HarnessConfig config) {
			for (ConfigKey<?> key : ConfigKeys.all()) {
				config.string(key.name()).ifPresent(value -> SEEN.add(key.name() + "=" + value));
			}
		}
	}
}
