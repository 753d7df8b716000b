package dev.fakbattery.conformance.wire;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;

import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;

import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Runs kit classes inside a rung, handing on the configuration the rung itself was given. */
final class KitRun {

	private KitRun() {
	}

	/**
	 * Every name of {@link HarnessConstants} with the value {@code config} resolves for it, as JUnit configuration
	 * parameters: the kit run inside a rung then reads exactly what the rung read, whether it came as a configuration
	 * parameter or a system property.
	 */
	static Map<String, String> parameters(HarnessConfig config) {
		Map<String, String> parameters = new TreeMap<>();
		for (Field field : HarnessConstants.class.getFields()) {
			if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
				String name = constant(field);
				config.string(name).ifPresent(value -> parameters.put(name, value));
			}
		}
		return parameters;
	}

	/** The kit class run with {@code config}'s values; its test events. */
	static Events run(Class<?> kit, HarnessConfig config) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(kit)).configurationParameters(parameters(config)).execute()
			.testEvents();
	}

	private static String constant(Field field) {
		try {
			return (String) field.get(null);
		}
		catch (IllegalAccessException e) {
			throw new IllegalStateException(e);
		}
	}
}
