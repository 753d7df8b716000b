package dev.fakbattery.bench.container;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.core.process.ManagedProcess;

/**
 * The raw engine started from {@code engine.cmd} (llama-server, vLLM's CPU build, Ollama, anything
 * OpenAI-compatible): one process per JVM, shared by the rungs, like {@link EngineContainers}.
 *
 * <h2>Lifecycle</h2>
 * The first {@link #baseUrl(HarnessConfig)} with {@code engine.cmd} set fills in {@code {port}} (a
 * free loopback port) and {@code {model}} ({@code model}), runs it with {@code /bin/sh -c}, logs it to
 * {@code <experiments.dir>/logs/engine-<port>.log}, and waits until {@code GET /health} (else
 * {@code GET /v1/models}) answers 200 within {@code engine.cmd.timeout.sec}; later calls return
 * the same {@code http://127.0.0.1:<port>/v1}. A JVM shutdown hook stops it with its children. A start
 * that failed is remembered: later rungs fail at once with the same message.
 *
 * <h2>Outcomes</h2>
 * <ul>
 * <li>{@code engine.cmd} unset: empty, nothing is started.</li>
 * <li>No {@code {port}} in the template, or {@code {model}} without {@code model}:
 * {@link ConfigurationException} naming the parameter and the fix.</li>
 * <li>The command exits or stays unhealthy: {@link EngineUnavailableError} (a test failure) naming the
 * command, the exit status or the probes and the timeout, and the log with its last lines.</li>
 * </ul>
 *
 * @since 0.2
 */
public final class EngineCommands implements AutoCloseable {

	private static EngineCommands shared;

	private ManagedProcess running;

	private String runningTemplate;

	private URI runningUrl;

	private String failedTemplate;

	private String failure;

	private EngineCommands() {
	}

	/** The JVM's engine command, stopped by a shutdown hook. */
	public static synchronized EngineCommands shared() {
		if (shared == null) {
			EngineCommands commands = new EngineCommands();
			Runtime.getRuntime().addShutdownHook(new Thread(commands::close, "engine-cmd-stop"));
			shared = commands;
		}
		return shared;
	}

	/** Engine commands of their own, for self-tests: close them. */
	public static EngineCommands create() {
		return new EngineCommands();
	}

	/** The base URL of the JVM's {@code engine.cmd} engine, starting it on first use; empty when {@code engine.cmd} is unset. */
	public static Optional<URI> baseUrl(HarnessConfig config) {
		return shared().engineUrl(config);
	}

	/** See {@link #baseUrl(HarnessConfig)}; the outcomes are listed on the class. */
	public synchronized Optional<URI> engineUrl(HarnessConfig config) {
		Optional<String> template = config.string(HarnessConstants.ENGINE_CMD);
		if (template.isEmpty()) {
			return Optional.empty();
		}
		String wanted = render(template.get(), config);
		if (wanted.equals(failedTemplate)) {
			throw new EngineUnavailableError(failure);
		}
		if (running != null && wanted.equals(runningTemplate)) {
			return Optional.of(runningUrl);
		}
		stopRunning();
		Duration timeout = Duration.ofSeconds(config.get(ConfigKeys.ENGINE_CMD_TIMEOUT_SEC));
		ManagedProcess process;
		try {
			process = ManagedProcess.startOnFreePort(HarnessConstants.ENGINE_CMD, port -> wanted.replace("{port}", String.valueOf(port)),
					port -> logDir(config).resolve("engine-" + port + ".log"),
					port -> List.of(URI.create("http://127.0.0.1:" + port + "/health"),
							URI.create("http://127.0.0.1:" + port + "/v1/models")),
					timeout, ManagedProcess::freePort, RunSecrets.forRun(config));
		}
		catch (IllegalStateException e) {
			failedTemplate = wanted;
			failure = e.getMessage() + "\nFix: run the command by hand and read its log, or raise -D"
					+ HarnessConstants.ENGINE_CMD_TIMEOUT_SEC + " (now " + timeout.toSeconds() + ").";
			throw new EngineUnavailableError(failure, e);
		}
		String root = "http://127.0.0.1:" + process.port();
		running = process;
		runningTemplate = wanted;
		runningUrl = URI.create(root + "/v1");
		return Optional.of(runningUrl);
	}

	/** The running engine as {@code engine.cmd [command] (log PATH)}; empty when none runs. */
	public synchronized Optional<String> description() {
		return Optional.ofNullable(running).map(ManagedProcess::description);
	}

	/** Stops the running engine, if any, and forgets a failed start. */
	@Override
	public synchronized void close() {
		stopRunning();
		failedTemplate = null;
		failure = null;
	}

	private void stopRunning() {
		if (running != null) {
			running.close();
		}
		running = null;
		runningTemplate = null;
		runningUrl = null;
	}

	/** {@code template} with {@code {model}} filled in; {@code {port}} stays for the caller. */
	static String render(String template, HarnessConfig config) {
		if (!template.contains("{port}")) {
			throw new ConfigurationException("engine.cmd [" + template + "] has no {port}: the harness picks a free "
					+ "loopback port and the engine must listen on it. Fix: add --port {port} (and --host 127.0.0.1) to -Dengine.cmd.");
		}
		if (!template.contains("{model}")) {
			return template;
		}
		String model = config.string(HarnessConstants.MODEL)
				.orElseThrow(() -> new ConfigurationException(
						"engine.cmd [" + template + "] uses {model} but model is not set. Fix: pass -Dmodel=<served model name>."));
		return template.replace("{model}", model);
	}

	private static Path logDir(HarnessConfig config) {
		return config.experimentsDir().resolve("logs");
	}
}
