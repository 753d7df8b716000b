package dev.fakbattery.gateway;

import java.net.URI;

import dev.fakbattery.api.gateway.EmbeddedGatewayProvider;
import dev.fakbattery.api.gateway.GatewayUnderTest;
import dev.fakbattery.gateway.policy.PolicyLoader;

/**
 * Starts the {@link ReferenceGateway} as the kit's embedded default gateway: a free loopback port, the kit's
 * policy convention. Registered in {@code META-INF/services}.
 *
 * @since 0.1
 */
public final class EmbeddedReferenceGatewayProvider implements EmbeddedGatewayProvider {

	@Override
	public GatewayUnderTest start(URI upstream, String engine) {
		return ReferenceGateway.builder()
			.upstream(upstream)
			.policy(PolicyLoader.kitConvention())
			.engine(engine)
			.port(0)
			.build()
			.start();
	}
}
