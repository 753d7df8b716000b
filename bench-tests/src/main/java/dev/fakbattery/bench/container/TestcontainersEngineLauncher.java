package dev.fakbattery.bench.container;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.dockerjava.api.command.CreateContainerCmd;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Starts the engine with Testcontainers: all GPUs, 16 GiB of shared memory, port 8000 published on
 * a free host port, the engine's output logged under {@value #ENGINE_LOGGER}, and a wait for
 * {@code GET /health} to answer 200 within the spec's startup timeout (the image pull comes
 * before and is not counted).
 *
 * <p>The Testcontainers container object is never logged or printed: its {@code toString} would
 * show the environment, which may hold the Hugging Face token.
 */
final class TestcontainersEngineLauncher implements EngineLauncher {

	static final String ENGINE_LOGGER = "dev.fakbattery.bench.container.engine";

	@Override
	public RunningEngine start(EngineContainerSpec spec, Map<String, String> env) {
		GenericContainer<?> container = container(spec, env);
		try {
			container.start();
		}
		catch (RuntimeException e) {
			container.stop();
			throw e;
		}
		return new Started(container, baseUrl(container.getHost(), container.getMappedPort(spec.port())));
	}

	/** The configured, not started, container; needs no Docker. */
	static GenericContainer<?> container(EngineContainerSpec spec, Map<String, String> env) {
		Logger log = LoggerFactory.getLogger(ENGINE_LOGGER);
		return new GenericContainer<>(DockerImageName.parse(spec.image()))
				.withExposedPorts(spec.port())
				.withSharedMemorySize(spec.sharedMemoryBytes())
				.withEnv(env)
				.withCommand(spec.args().toArray(String[]::new))
				.withCreateContainerCmdModifier(cmd -> customize(spec, cmd))
				.withLogConsumer(new Slf4jLogConsumer(log).withPrefix("engine"))
				.waitingFor(Wait.forHttp(spec.healthPath())
						.forPort(spec.port())
						.forStatusCode(200)
						.withStartupTimeout(spec.startupTimeout()));
	}

	/** The device request for all GPUs and, for SGLang, the entrypoint. */
	static void customize(EngineContainerSpec spec, CreateContainerCmd cmd) {
		cmd.getHostConfig().withDeviceRequests(List.of(spec.deviceRequest()));
		if (!spec.entrypoint().isEmpty()) {
			cmd.withEntrypoint(spec.entrypoint());
		}
	}

	/** {@code http://HOST:PORT/v1}; {@code localhost} becomes {@code 127.0.0.1} so IPv6 resolution cannot miss the port. */
	static URI baseUrl(String host, int port) {
		String address = "localhost".equals(host) ? "127.0.0.1" : host.contains(":") ? "[" + host + "]" : host;
		return URI.create("http://" + address + ":" + port + "/v1");
	}

	private static final class Started implements RunningEngine {

		private final GenericContainer<?> container;
		private final URI baseUrl;
		private final AtomicBoolean closed = new AtomicBoolean();

		Started(GenericContainer<?> container, URI baseUrl) {
			this.container = container;
			this.baseUrl = baseUrl;
		}

		@Override
		public URI baseUrl() {
			return baseUrl;
		}

		@Override
		public void close() {
			if (closed.compareAndSet(false, true)) {
				container.stop();
			}
		}

		@Override
		public String toString() {
			return "engine container at " + baseUrl;
		}
	}
}
