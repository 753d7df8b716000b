package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.util.List;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The wire rules on the captured answers of {@code -Dwire.captures=DIR}, against the configured gateway under test
 * ({@link ConfiguredGateway}); skipped, with that reason, when no folder is named.
 */
@Tag("wire")
@DisplayName("wire conformance: captured wires")
class CapturedWireTests extends CapturedWireVerification {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return ConfiguredGateway.create(config(), upstream, engine);
	}

	@Override
	protected List<Dialect> served() {
		return ConfiguredGateway.served(config());
	}
}
