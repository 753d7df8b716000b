package dev.fakbattery.conformance.wire;

import java.net.URI;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;

/**
 * The client rules against the gateway under test the configuration names, as {@link ConfiguredWireVerification} finds
 * it ({@code gateway.url}, {@code gateway.cmd}, else the embedded reference gateway). The standalone jar runs this
 * class; this repository's {@code GatewayUnderTestClientTests} extends it.
 *
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.7")
@DisplayName("client rules: configured gateway under test")
public class ConfiguredClientVerification extends ClientVerification {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return ConfiguredGateway.create(config(), upstream, engine);
	}
}
