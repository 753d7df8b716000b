package dev.fakbattery.wire.spi;

import java.net.URI;

import dev.fakbattery.wire.Dialect;

/**
 * Service-provider interface of the embedded default gateway (the reference gateway module
 * registers one in {@code META-INF/services}), so harness-api does not depend on it.
 *
 * @since 0.1
 */
public interface EmbeddedGatewayProvider {

	/**
	 * Starts the embedded gateway on a free loopback port, in front of {@code upstream} (ending in
	 * {@code /v1}), speaking {@code engine}'s dialect for cache resets,
	 * with the kit's policy convention (allow_* allowed, deny_* denied, transform_* redacted to
	 * {@code {"redacted":true}}, anything else denied).
	 */
	GatewayUnderTest start(URI upstream, Dialect engine);

	/**
	 * As {@link #start(URI, Dialect)}, with these limits instead of the gateway's defaults (the fault rules shorten
	 * the upstream timeout so that a stall takes seconds, not minutes).
	 *
	 * @throws UnsupportedOperationException when the gateway cannot take limits (the default)
	 * @since 0.3
	 */
	default GatewayUnderTest start(URI upstream, Dialect engine, GatewayLimits limits) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot be started with limits " + limits);
	}
}
