package dev.fakbattery.conformance.wire;

import dev.fakbattery.api.JupiterConfig;
import dev.fakbattery.core.HarnessConfig;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the {@link HarnessConfig} the rungs see (JUnit configuration parameters, then system properties) into the
 * kit's {@code @BeforeAll} (the wire kit's and the fault kit's), so that a name given either way reaches the kit
 * exactly as it reaches the rung.
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public class KitConfigResolver implements ParameterResolver {

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == HarnessConfig.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return JupiterConfig.of(context);
	}
}
