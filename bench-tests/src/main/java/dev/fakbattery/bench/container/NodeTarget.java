package dev.fakbattery.bench.container;

import java.net.URI;
import java.util.Optional;
import java.util.function.Function;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungRecorder;

/**
 * The raw engine a rung measures on a serving node, in this order: {@code base.url} when it is set
 * (then nothing is started); else the engine {@code engine.cmd} starts ({@link EngineCommands}); else
 * the engine container of {@code engine.image} ({@link EngineContainers}, its image id, container and launcher
 * recorded in the provenance); else nothing, recorded on
 * the run as the pending measurement {@code base.url} ("raw engine base URL is not configured"). The engine
 * it finds is asked who it is ({@link RungRecorder#target}), so a rung that reaches the engine double through any URL
 * is SIMULATED.
 *
 * <h2>Example</h2>
 * <pre>
 * Optional&lt;URI&gt; base = NodeTarget.baseUrl(run);
 * if (base.isEmpty()) {
 *     return; // pending: the fail-closed extension reports it
 * }
 * </pre>
 *
 * @since 0.1
 */
public final class NodeTarget {

	private NodeTarget() {
	}

	/**
	 * The raw engine base URL, ending in {@code /v1}.
	 *
	 * @throws org.junit.jupiter.api.extension.ConfigurationException on a bad value
	 * @throws org.opentest4j.TestAbortedException when {@code engine.image} is set, Docker is absent and the profile is not {@code gpu}
	 * @throws EngineUnavailableError when the engine command or container cannot run (see {@link EngineCommands}, {@link EngineContainers})
	 */
	public static Optional<URI> baseUrl(RungRecorder run) {
		return baseUrl(run, EngineCommands::baseUrl, EngineContainers.shared());
	}

	/** {@link #baseUrl(RungRecorder)} over other engine containers ({@link EngineContainers#create}), for self-tests. */
	public static Optional<URI> baseUrl(RungRecorder run, EngineContainers engines) {
		return baseUrl(run, EngineCommands::baseUrl, engines);
	}

	/** {@link #baseUrl(RungRecorder)} over other engine commands and containers, for self-tests. */
	public static Optional<URI> baseUrl(RungRecorder run, EngineCommands commands, EngineContainers engines) {
		return baseUrl(run, commands::engineUrl, engines);
	}

	/**
	 * The node's raw engine when one is configured, or when the profile needs one (then its absence is recorded
	 * as pending); empty, with nothing recorded, when nothing is configured and the profile lets the rung measure
	 * the embedded engine double instead ({@link dev.fakbattery.core.Profile#embeddedTargetAllowed()}).
	 */
	public static Optional<URI> configured(RungRecorder run) {
		return configured(run.config()) || !run.config().profile().embeddedTargetAllowed() ? baseUrl(run) : Optional.empty();
	}

	/** Whether a raw engine is configured at all: {@code base.url}, {@code engine.cmd} or {@code engine.image}. */
	public static boolean configured(HarnessConfig config) {
		return config.string(HarnessConstants.BASE_URL).isPresent() || config.string(HarnessConstants.ENGINE_CMD).isPresent()
				|| config.string(HarnessConstants.ENGINE_IMAGE).isPresent();
	}

	private static Optional<URI> baseUrl(RungRecorder run, Function<HarnessConfig, Optional<URI>> command,
			EngineContainers container) {
		Optional<URI> configured = run.config().v1Url(HarnessConstants.BASE_URL);
		if (configured.isPresent()) {
			run.target(configured.get(), HarnessConstants.BASE_URL);
			return configured;
		}
		Optional<URI> started = command.apply(run.config());
		if (started.isPresent()) {
			run.target(started.get(), HarnessConstants.ENGINE_CMD);
			return started;
		}
		started = container.engineUrl(run.config());
		if (started.isPresent()) {
			container.provenance().forEach(run::provenance);
			run.target(started.get(), HarnessConstants.ENGINE_IMAGE);
			return started;
		}
		return run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
	}
}
