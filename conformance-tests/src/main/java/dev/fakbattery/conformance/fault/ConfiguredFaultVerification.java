package dev.fakbattery.conformance.fault;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The fault rules against the configured gateway under test: {@code -Dgateway.cmd=...} (started per engine dialect),
 * {@code -Dgateway.url=...} (one running gateway: only the {@code engine} dialect runs, against a fault upstream on
 * {@code kit.upstream.port}), else the embedded reference gateway with its documented limits and the upstream timeout
 * shortened to {@value #EMBEDDED_TIMEOUT_MS} ms, so that a stall takes two seconds rather than five minutes. A gateway
 * that does not declare its limits gives them as {@code gateway.upstream.timeout.ms}, {@code gateway.max.body.bytes},
 * {@code gateway.max.header.bytes} and {@code gateway.max.event.bytes} (without them F02, F04, F06 and F07 are
 * PENDING_MEASUREMENT naming these names). The names are read like the rungs read them: JUnit configuration parameters,
 * then system properties. The standalone jar runs this class; this repository's {@code GatewayUnderTestFaultTests}
 * extends it. Runs isolated from other test classes: F01 measures a 200 ms cancel.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@DisplayName("fault rules: configured gateway under test")
@Isolated
public class ConfiguredFaultVerification extends FaultVerification {

	/**
	 * The upstream timeout the embedded reference gateway runs with here, in ms: {@value}. 2000, not 1000: at a load
	 * average near 25 on 2 cores (2026-12-02) F06's 8 MB body under the limit took longer than 1000 ms to be answered.
	 */
	public static final long EMBEDDED_TIMEOUT_MS = 2000;

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		if (config().string(HarnessConstants.GATEWAY_URL).isPresent() || config().string(HarnessConstants.GATEWAY_CMD).isPresent()) {
			return GatewayLauncher.resolve(config(), upstream, MODEL, engine, Path.of("target", "gateway-logs"));
		}
		return embeddedWithShortTimeout(upstream, engine);
	}

	/** The embedded reference gateway with its own documented limits, the upstream timeout shortened. */
	static GatewayUnderTest embeddedWithShortTimeout(URI upstream, Dialect engine) {
		GatewayLimits documented;
		try (GatewayUnderTest probe = GatewayLauncher.embedded(upstream, engine)) {
			documented = probe.limits().orElseThrow(() -> new IllegalStateException("the embedded gateway declares no limits"));
		}
		return GatewayLauncher.embedded(upstream, engine, documented.withUpstreamTimeout(Duration.ofMillis(EMBEDDED_TIMEOUT_MS)));
	}

	@Override
	protected List<Dialect> engines() {
		return config().string(HarnessConstants.GATEWAY_URL).isPresent() ? List.of(config().engine()) : super.engines();
	}

	@Override
	protected int upstreamPort(Dialect engine) {
		int port = config().get(ConfigKeys.KIT_UPSTREAM_PORT);
		return port == 0 ? 0 : port + engines().indexOf(engine);
	}

	@Override
	protected Optional<GatewayLimits> limits(GatewayUnderTest gateway) {
		return gateway.limits().or(() -> configured(config()));
	}

	/** Declared, else its own setting: a rule asks only for the limit it holds the gateway to. */
	@Override
	OptionalLong limit(GatewayUnderTest gateway, Limit limit) {
		if (gateway.limits().isPresent()) {
			return OptionalLong.of(limit.of(gateway.limits().get()));
		}
		return config().string(limit.key).isPresent() ? OptionalLong.of(config().positiveInt(limit.key, 1)) : OptionalLong.empty();
	}

	/** The four limits from configuration, when all four are given. */
	static Optional<GatewayLimits> configured(HarnessConfig config) {
		List<String> names = List.of(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, HarnessConstants.GATEWAY_MAX_BODY_BYTES,
				HarnessConstants.GATEWAY_MAX_HEADER_BYTES, HarnessConstants.GATEWAY_MAX_EVENT_BYTES);
		if (names.stream().anyMatch(name -> config.string(name).isEmpty())) {
			return Optional.empty();
		}
		return Optional.of(new GatewayLimits(Duration.ofMillis(config.positiveInt(names.get(0), 1)), config.positiveInt(names.get(1), 1),
				config.positiveInt(names.get(2), 1), config.positiveInt(names.get(3), 1)));
	}
}
