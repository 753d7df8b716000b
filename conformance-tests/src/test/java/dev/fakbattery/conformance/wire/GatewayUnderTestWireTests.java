package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.api.gateway.GatewayLauncher;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The wire rules against the configured gateway under test: the embedded reference gateway by
 * default, {@code -Dgateway.cmd=...} (started per engine dialect), or {@code -Dgateway.url=...}
 * (one running gateway: only the {@code engine} dialect runs, against an upstream on
 * {@code kit.upstream.port}).
 */
@Tag("wire")
@WireRuleReport
@DisplayName("wire conformance: gateway under test")
class GatewayUnderTestWireTests extends WireRules {

	private final HarnessConfig config = HarnessConfig.fromSystemProperties();

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		return GatewayLauncher.resolve(config, upstream, ALIAS, engine, Path.of("target", "gateway-logs"));
	}

	@Override
	protected List<Dialect> engines() {
		return config.string(HarnessConstants.GATEWAY_URL).isPresent() ? List.of(config.engine()) : super.engines();
	}

	@Override
	protected int upstreamPort(Dialect engine) {
		int port = config.string(HarnessConstants.KIT_UPSTREAM_PORT).map(Integer::parseInt).orElse(0);
		return port == 0 ? 0 : port + engines().indexOf(engine);
	}
}
