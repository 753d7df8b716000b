package dev.fakbattery.bench.container;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;

import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The raw engine started from {@code engine.image}: one container per JVM, shared by the rungs.
 *
 * <h2>Lifecycle</h2>
 * The first {@link #baseUrl(HarnessConfig)} with {@code engine.image} set starts the container and
 * waits for its health check; later calls return the same URL at once. It is stopped by a JVM
 * shutdown hook, or earlier by {@link #close()} on {@link #shared()} (a later call then starts a
 * new one). Where Testcontainers' reaper (Ryuk) runs, it also removes it if the JVM dies without
 * running hooks; bench-tests' tests run without it ({@code TESTCONTAINERS_RYUK_DISABLED=true}) and
 * {@link ContainerLeftovers} checks in {@code verify} that none is left. A start that failed is
 * remembered: later rungs fail at once with the same message instead of pulling or waiting for the
 * startup timeout again.
 *
 * <h2>Outcomes</h2>
 * <ul>
 * <li>{@code engine.image} unset: empty, nothing is touched.</li>
 * <li>A bad or missing value ({@code model}, {@code engine.tp}, an unset token variable, ...):
 * {@link ConfigurationException} naming the parameter and the fix, checked before
 * Docker.</li>
 * <li>No Docker engine: under profile {@code gpu} an {@link EngineUnavailableError} (a test failure:
 * the node battery fails closed); under the other profiles a {@link TestAbortedException} (a skip
 * with its reason). Availability is asked before any container is created.</li>
 * <li>The container does not start or become healthy: {@link EngineUnavailableError} in every
 * profile (the engine was asked for and is broken).</li>
 * </ul>
 *
 * <h2>Example</h2>
 * <pre>
 * Optional&lt;URI&gt; raw = EngineContainers.baseUrl(run.config()); // http://127.0.0.1:32771/v1
 * </pre>
 *
 * @since 0.1
 */
public final class EngineContainers implements AutoCloseable {

	private static final Logger LOG = LoggerFactory.getLogger(EngineContainers.class);

	private static EngineContainers shared;

	private final DockerCheck docker;
	private final EngineLauncher launcher;
	private final Function<String, String> environment;
	private final ReentrantLock lock = new ReentrantLock();
	private final AtomicReference<RunningEngine> running = new AtomicReference<>();
	private volatile boolean shuttingDown;
	private EngineContainerSpec spec;
	private String failure;

	private EngineContainers(DockerCheck docker, EngineLauncher launcher, Function<String, String> environment) {
		this.docker = Objects.requireNonNull(docker);
		this.launcher = Objects.requireNonNull(launcher);
		this.environment = Objects.requireNonNull(environment);
	}

	/** The JVM's engine container: Testcontainers, the real environment, stopped by a shutdown hook. */
	public static synchronized EngineContainers shared() {
		if (shared == null) {
			EngineContainers engines = create(DockerCheck.testcontainers(), new TestcontainersEngineLauncher(), System::getenv);
			Runtime.getRuntime().addShutdownHook(new Thread(engines::shutdown, "engine-container-stop"));
			shared = engines;
		}
		return shared;
	}

	/** The base URL of the JVM's engine container, starting it on first use; empty when {@code engine.image} is unset. */
	public static Optional<URI> baseUrl(HarnessConfig config) {
		return shared().engineUrl(config);
	}

	/**
	 * Containers over another Docker check, launcher and environment, for self-tests (a launcher that
	 * hands out the engine double's URL, a check that says "no Docker"). No shutdown hook: close it.
	 */
	public static EngineContainers create(DockerCheck docker, EngineLauncher launcher, Function<String, String> environment) {
		return new EngineContainers(docker, launcher, environment);
	}

	/** See {@link #baseUrl(HarnessConfig)}; the outcomes are listed on the class. */
	public Optional<URI> engineUrl(HarnessConfig config) {
		if (config.string(HarnessConstants.ENGINE_IMAGE).isEmpty()) {
			return Optional.empty();
		}
		EngineContainerSpec wanted = EngineContainerSpec.from(config);
		Map<String, String> env = wanted.containerEnv(environment);
		lock.lock();
		try {
			if (spec != null) {
				return Optional.of(reuse(wanted));
			}
			requireDocker(config.profile());
			spec = wanted;
			return Optional.of(start(wanted, env));
		}
		finally {
			lock.unlock();
		}
	}

	/** {@link RunningEngine#provenance()} of the running container; empty when none runs. */
	public Map<String, String> provenance() {
		RunningEngine engine = running.get();
		return engine == null ? Map.of() : engine.provenance();
	}

	/** Stops the container if one runs and forgets a failed start; the next call starts afresh. */
	@Override
	public void close() {
		lock.lock();
		try {
			stopRunning();
			spec = null;
			failure = null;
		}
		finally {
			lock.unlock();
		}
	}

	/** The shutdown hook: stops without waiting for a start in flight (that one stops itself). */
	void shutdown() {
		shuttingDown = true;
		stopRunning();
	}

	private URI reuse(EngineContainerSpec wanted) {
		if (!spec.equals(wanted)) {
			throw new ConfigurationException("engine.image: this JVM's engine container is [" + spec.describe()
					+ "] but this test asks for [" + wanted.describe() + "]. One engine container per JVM. "
					+ "Fix: use one engine configuration per Maven run.");
		}
		if (failure != null) {
			throw new EngineUnavailableError(failure + " (first attempt in this JVM; not retried)");
		}
		RunningEngine engine = running.get();
		if (engine == null) {
			throw new EngineUnavailableError("engine container was stopped: the JVM is shutting down");
		}
		return engine.baseUrl();
	}

	private void requireDocker(Profile profile) {
		if (docker.available()) {
			return;
		}
		if (!profile.embeddedTargetAllowed()) {
			throw new EngineUnavailableError("engine.image is set but no Docker engine is available (profile " + profile.id()
					+ " fails closed). Fix: start the Docker daemon with the NVIDIA container toolkit where Testcontainers "
					+ "finds it (DOCKER_HOST or /var/run/docker.sock), or unset -Dengine.image and pass "
					+ "-Dbase.url=http://HOST:8000/v1 of an engine you started.");
		}
		throw new TestAbortedException("engine.image is set but Docker is not available: skipped under profile " + profile.id()
				+ " (-Pgpu fails instead). Fix: start a Docker engine with the NVIDIA container toolkit, or unset "
				+ "-Dengine.image and pass -Dbase.url=http://HOST:8000/v1.");
	}

	private URI start(EngineContainerSpec wanted, Map<String, String> env) {
		LOG.info("starting engine container: {}", wanted);
		long started = System.nanoTime();
		RunningEngine engine;
		try {
			engine = launcher.start(wanted, env);
		}
		catch (ConfigurationException e) {
			// found only against the Docker engine (a cpuset beyond its CPUs): a misconfiguration, remembered like a failure
			failure = e.getMessage();
			throw e;
		}
		catch (RuntimeException e) {
			failure = "engine container did not start or become healthy: " + wanted.describe() + ": " + summary(e)
					+ ". Fix: read the engine log, check the image tag, the NVIDIA container toolkit (GPU engines) and the model, "
					+ "or raise -Dengine.startup.timeout.sec (now " + wanted.startupTimeout().toSeconds() + ").";
			throw new EngineUnavailableError(failure, e);
		}
		running.set(engine);
		if (shuttingDown) {
			stopRunning();
			throw new EngineUnavailableError("engine container started while the JVM was shutting down; stopped it");
		}
		LOG.info("engine container healthy at {} after {} s", engine.baseUrl(),
				Duration.ofNanos(System.nanoTime() - started).toSeconds());
		return engine.baseUrl();
	}

	private void stopRunning() {
		RunningEngine engine = running.getAndSet(null);
		if (engine != null) {
			engine.close();
		}
	}

	private static String summary(Throwable e) {
		StringBuilder text = new StringBuilder(e.getClass().getSimpleName() + " (" + e.getMessage() + ")");
		Throwable root = e;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root != e) {
			text.append(", root cause ").append(root.getClass().getSimpleName()).append(" (").append(root.getMessage()).append(')');
		}
		return text.toString();
	}
}
