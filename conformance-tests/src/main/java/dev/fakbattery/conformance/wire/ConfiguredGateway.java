package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * The gateway under test a run names, for every kit class that runs against it: the embedded reference gateway by
 * default, {@code gateway.cmd} (started per engine dialect, given {@value WireConformanceKit#GATEWAY_MODEL} as
 * {@code {model}}), or {@code gateway.url} (one running gateway: only the {@code engine} dialect, against an upstream
 * on {@code kit.upstream.port}). The kit's own rules run in {@link WireConformanceKit#KIT_DIALECTS}; captured answers in
 * the dialect that sent them.
 */
final class ConfiguredGateway {

	private ConfiguredGateway() {
	}

	static GatewayUnderTest create(HarnessConfig config, URI upstream, Dialect engine) {
		return GatewayLauncher.resolve(config, upstream, WireConformanceKit.GATEWAY_MODEL, engine, Path.of("target", "gateway-logs"));
	}

	/** The dialects the kit's own rules run in: {@link WireConformanceKit#KIT_DIALECTS}, or the {@code engine} of a running gateway. */
	static List<Dialect> engines(HarnessConfig config) {
		return runningGateway(config) ? List.of(config.engine()) : WireConformanceKit.KIT_DIALECTS;
	}

	/** The dialects captured answers can be replayed in: every one, or the {@code engine} of a running gateway. */
	static List<Dialect> served(HarnessConfig config) {
		return runningGateway(config) ? List.of(config.engine()) : List.of(Dialect.values());
	}

	/**
	 * The upstream's port for {@code engine}: {@code kit.upstream.port} for a running gateway's one dialect; else that
	 * port plus the dialect's place in {@link Dialect} (vLLM, SGLang, llama.cpp); 0 (any free port) when not set.
	 */
	static int upstreamPort(HarnessConfig config, Dialect engine) {
		int port = config.get(ConfigKeys.KIT_UPSTREAM_PORT);
		return port == 0 ? 0 : port + (runningGateway(config) ? 0 : engine.ordinal());
	}

	private static boolean runningGateway(HarnessConfig config) {
		return config.string(HarnessConstants.GATEWAY_URL).isPresent();
	}
}
