package dev.fakbattery.core.gateway;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ServiceLoader;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.GatewayHeaders;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.EmbeddedGatewayProvider;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.apiguardian.api.API;

/**
 * Chooses the gateway under test: {@code gateway.url} (already running), else {@code gateway.cmd}
 * (started, health-checked, logged and stopped by the harness), else the embedded reference
 * gateway found through {@link EmbeddedGatewayProvider}.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class GatewayLauncher {

	/** How the embedded default is named: {@value}. */
	public static final String EMBEDDED = "embedded reference gateway (dev.fakbattery:reference-gateway)";

	private GatewayLauncher() {
	}

	/**
	 * The gateway under test in front of {@code upstream} for {@code engine}'s dialect ({@code vllm}
	 * or {@code sglang}; the embedded gateway resets that engine's prefix cache after a quarantine).
	 */
	public static GatewayUnderTest resolve(HarnessConfig config, URI upstream, String model, Dialect engine, Path logDir) {
		var url = config.v1Url(HarnessConstants.GATEWAY_URL);
		if (url.isPresent()) {
			return new ExternalGateway(url.get(), config.get(ConfigKeys.GATEWAY_DECLARES_RECORD));
		}
		var command = config.string(HarnessConstants.GATEWAY_CMD);
		if (command.isPresent()) {
			Duration timeout = Duration.ofSeconds(config.get(ConfigKeys.GATEWAY_START_TIMEOUT_SEC));
			return ProcessGateway.start(command.get(), upstream, model, engine, logDir, timeout,
					config.get(ConfigKeys.GATEWAY_DECLARES_RECORD), RunSecrets.forRun(config),
					GatewayHeaders.of(config, System::getenv).values(upstream));
		}
		return embedded(upstream, engine);
	}

	/**
	 * {@code template} as {@code gateway.cmd} runs it: {@code {port}}, {@code {upstream}}, {@code {model}} and
	 * {@code {engine}} (the dialect's id) filled in.
	 *
	 * @since 0.4
	 */
	public static String command(String template, int port, URI upstream, String model, Dialect engine) {
		return ProcessGateway.render(template, port, upstream, model, engine);
	}

	/**
	 * The gateway under test as {@code config} names it, without starting it: {@code gateway.url URL},
	 * {@code gateway.cmd COMMAND} or {@value #EMBEDDED}.
	 */
	public static String describe(HarnessConfig config) {
		return config.string(HarnessConstants.GATEWAY_URL)
				.map(url -> "gateway.url " + url)
				.or(() -> config.string(HarnessConstants.GATEWAY_CMD).map(cmd -> "gateway.cmd " + cmd))
				.orElse(EMBEDDED);
	}

	public static GatewayUnderTest embedded(URI upstream, Dialect engine) {
		return provider().start(upstream, engine);
	}

	/**
	 * The embedded gateway with {@code limits} instead of its defaults (the fault rules shorten its upstream timeout).
	 *
	 * @since 0.3
	 */
	public static GatewayUnderTest embedded(URI upstream, Dialect engine, GatewayLimits limits) {
		return provider().start(upstream, engine, limits);
	}

	private static EmbeddedGatewayProvider provider() {
		return ServiceLoader.load(EmbeddedGatewayProvider.class)
				.findFirst()
				.orElseThrow(() -> new ConfigurationException("No gateway under test: set -Dgateway.url=http://HOST:PORT/v1 "
						+ "or -Dgateway.cmd=\"... {port} {upstream} {model}\", or put dev.fakbattery:reference-gateway on the test classpath."));
	}

	/** A gateway someone else runs: the harness only talks to it. */
	record ExternalGateway(URI baseUrl, boolean declaresAdjudicationRecord) implements GatewayUnderTest {
		@Override
		public String description() {
			return "gateway.url " + baseUrl;
		}

		@Override
		public void close() {
		}
	}
}
