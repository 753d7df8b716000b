package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.util.List;

import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The wire rules against the configured gateway under test ({@link ConfiguredGateway}). The names are read like the
 * rungs read them: JUnit configuration parameters, then system properties.
 */
@Tag("wire")
@WireRuleReport
@DisplayName("wire conformance: gateway under test")
class GatewayUnderTestWireTests extends WireRules {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return ConfiguredGateway.create(config(), upstream, engine);
	}

	@Override
	protected List<Dialect> engines() {
		return ConfiguredGateway.engines(config());
	}

	@Override
	protected int upstreamPort(Dialect engine) {
		return ConfiguredGateway.upstreamPort(config(), engine);
	}
}
