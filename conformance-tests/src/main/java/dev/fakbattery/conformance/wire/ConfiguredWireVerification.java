package dev.fakbattery.conformance.wire;

import java.net.URI;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;

/**
 * The wire rules against the gateway under test the configuration names: {@code gateway.url} (a running gateway, only
 * the {@code engine} dialect, against the kit's upstream on {@code kit.upstream.port}), {@code gateway.cmd} (started per
 * dialect), else the embedded reference gateway when it is on the class path. The names are read like the rungs read
 * them: JUnit configuration parameters, then system properties. The standalone jar runs this class; this repository's
 * {@code GatewayUnderTestWireTests} extends it.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@DisplayName("wire conformance: configured gateway under test")
public class ConfiguredWireVerification extends WireVerification {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return ConfiguredGateway.create(config(), upstream, engine);
	}
}
