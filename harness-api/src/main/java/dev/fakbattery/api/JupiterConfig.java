package dev.fakbattery.api;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The battery's configuration as a test sees it: the JUnit configuration parameters, which are the run's explicit ones
 * (Surefire's, an EngineTestKit self-test's), then the JVM's system properties ({@code -D} values), then
 * {@code junit-platform.properties}; a self-test given {@code HarnessConfig.hermeticParameters} sees none of the outer
 * build's {@code -D} values.
 *
 * <p>The first resolution of a run (an engine run: the build's, or an EngineTestKit self-test's) checks the JVM's
 * system properties for a misspelled key ({@link ConfigKeys#checkSpelling}): {@code -Dtax.coutn=3} fails every test of
 * the run with "did you mean tax.count?".
 *
 * @since 0.6
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class JupiterConfig {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(JupiterConfig.class);

	private JupiterConfig() {
	}

	/**
	 * Configuration seen by the test of {@code context}.
	 *
	 * @throws dev.fakbattery.core.ConfigurationException when a system property is a misspelled key
	 */
	public static HarnessConfig of(ExtensionContext context) {
		context.getRoot().getStore(NAMESPACE).computeIfAbsent(ConfigKeys.class, key -> {
			ConfigKeys.checkSpelling(System.getProperties().stringPropertyNames());
			return Boolean.TRUE;
		}, Boolean.class);
		return HarnessConfig.of(context::getConfigurationParameter, System.getProperties()::stringPropertyNames);
	}
}
