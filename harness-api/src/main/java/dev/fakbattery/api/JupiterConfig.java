package dev.fakbattery.api;

import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The battery's configuration as a test sees it: JUnit configuration parameters first (which include
 * {@code junit-platform.properties} and, through the Maven Surefire bridge, {@code -D} values), then system properties.
 *
 * @since 0.6
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class JupiterConfig {

	private JupiterConfig() {
	}

	/** Configuration seen by the test of {@code context}. */
	public static HarnessConfig of(ExtensionContext context) {
		return HarnessConfig.of(name -> context.getConfigurationParameter(name)
				.or(() -> Optional.ofNullable(System.getProperty(name))));
	}
}
