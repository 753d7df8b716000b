package dev.fakbattery.gateway;

import java.net.URI;

import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.EmbeddedGatewayProvider;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Starts the {@link ReferenceGateway} as the kit's embedded default gateway: a free loopback port, the kit's
 * policy convention, the HTTP front named by the system property {@value HttpFront#SERVER_PROPERTY} ({@code jdk}
 * unless given, {@code helidon} or {@code netty}), so the kit and the battery can judge any front. Registered in
 * {@code META-INF/services}.
 *
 * @since 0.1
 */
public final class EmbeddedReferenceGatewayProvider implements EmbeddedGatewayProvider {

	@Override
	public GatewayUnderTest start(URI upstream, Dialect engine) {
		return ReferenceGateway.builder()
				.upstream(upstream)
				.policy(PolicyLoader.kitConvention())
				.engine(engine)
				.port(0)
				.build()
				.start();
	}

	@Override
	public GatewayUnderTest start(URI upstream, Dialect engine, GatewayLimits limits) {
		return ReferenceGateway.builder()
				.upstream(upstream)
				.policy(PolicyLoader.kitConvention())
				.engine(engine)
				.limits(limits)
				.port(0)
				.build()
				.start();
	}
}
