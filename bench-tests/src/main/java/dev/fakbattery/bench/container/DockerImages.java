package dev.fakbattery.bench.container;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * The images a container needs, checked on the Docker engine before Testcontainers is asked to start anything:
 * present locally, else pulled within a bound, else a failure naming the image, the pull's cause and the fix, in
 * seconds rather than after Testcontainers' own retries (minutes on a machine with no registry).
 *
 * <p>The Docker client here is Testcontainers' discovery without its global client: it starts no reaper (Ryuk).
 *
 * @since 0.7
 */
public final class DockerImages {

	/** The variable that tells Testcontainers where the engine publishes container ports. */
	public static final String HOST_OVERRIDE = "TESTCONTAINERS_HOST_OVERRIDE";

	/**
	 * The image Testcontainers 2.0.5 runs to read the default route ({@code DockerClientFactory.TINY_IMAGE}, fixed
	 * there, not {@code TestcontainersConfiguration.getTinyImage()}); follow it when Testcontainers is upgraded.
	 */
	static final String TINY_IMAGE = "alpine:3.17";

	/** The variable that turns Testcontainers' reaper (Ryuk) off. */
	public static final String RYUK_DISABLED = "TESTCONTAINERS_RYUK_DISABLED";

	private static DockerClient client;

	private DockerImages() {
	}

	/** A Docker client over Testcontainers' discovery that starts nothing (no Ryuk, no checks); shared, never closed. */
	public static synchronized DockerClient client() {
		if (client == null) {
			client = DockerClientProviderStrategy.getClientForConfig(DockerClientFactory.instance().getTransportConfig());
		}
		return client;
	}

	/**
	 * The id ({@code sha256:...}) of {@code image} on the engine, pulling it first when it is not there.
	 *
	 * @param what what the image is for, for the message ({@code engine.image})
	 * @param fix the fix to name when it is neither there nor pullable
	 * @throws IllegalStateException naming the image, that it is not on the engine, the pull's cause (or that the pull
	 *         took longer than {@code pullTimeout}) and {@code fix}
	 */
	public static String require(DockerClient docker, String image, Duration pullTimeout, String what, String fix) {
		Optional<String> local = localId(docker, image);
		if (local.isPresent()) {
			return local.get();
		}
		String failure = pull(docker, image, pullTimeout);
		if (failure == null) {
			Optional<String> pulled = localId(docker, image);
			if (pulled.isPresent()) {
				return pulled.get();
			}
			failure = "the pull ended but the engine still has no image " + image;
		}
		throw new IllegalStateException(what + " " + image + " is not on this Docker engine and could not be pulled: " + failure
				+ ". Fix: " + fix);
	}

	/** The id of {@code image} when the engine has it. */
	public static Optional<String> localId(DockerClient docker, String image) {
		try {
			return Optional.of(docker.inspectImageCmd(image).exec().getId());
		}
		catch (NotFoundException absent) {
			return Optional.empty();
		}
	}

	/** Null when the pull succeeded, else what went wrong. */
	private static String pull(DockerClient docker, String image, Duration timeout) {
		DockerImageName name = DockerImageName.parse(image);
		long started = System.nanoTime();
		try (PullImageResultCallback callback = docker.pullImageCmd(name.getUnversionedPart())
				.withTag(name.getVersionPart())
				.exec(new PullImageResultCallback())) {
			if (!callback.awaitCompletion(timeout.toSeconds(), TimeUnit.SECONDS)) {
				return "no answer within " + timeout.toSeconds() + " s (engine.pull.timeout.sec)";
			}
			return null;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
		catch (Exception e) {
			return e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).strip() + " (after "
					+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms)";
		}
	}

	/**
	 * Testcontainers' reaper (Ryuk), unless {@value #RYUK_DISABLED} is {@code true} in {@code environment}: its image
	 * must be on the engine or pullable within {@code pullTimeout}. Without this check Testcontainers waits minutes
	 * for an image it cannot pull, then fails with {@code ContainerFetchException}.
	 *
	 * @throws IllegalStateException naming the image, the pull's cause and the fix ({@value #RYUK_DISABLED}{@code =true})
	 */
	public static void requireReaper(DockerClient docker, Function<String, String> environment, Duration pullTimeout) {
		if (Boolean.parseBoolean(environment.apply(RYUK_DISABLED))) {
			return;
		}
		require(docker, TestcontainersConfiguration.getInstance().getRyukImage(), pullTimeout,
				"Testcontainers' reaper (Ryuk, on because " + RYUK_DISABLED + " is not true): its image",
				"export " + RYUK_DISABLED + "=true (the harness stops and removes its own containers at exit; bench-tests' "
						+ "tests run so unless -Dtestcontainers.ryuk.disabled=false), or docker load the image from a machine "
						+ "that has it");
	}

	/**
	 * Where Testcontainers reaches published ports. Talking to the engine over a socket from inside a container, with
	 * {@value #HOST_OVERRIDE} unset and no gateway in the engine's {@code bridge} network, Testcontainers runs its tiny
	 * image ({@code alpine}) to read the default route; that image must then be on the engine or pullable within
	 * {@code pullTimeout}, else Testcontainers retries its pull for two minutes and fails.
	 *
	 * @throws IllegalStateException naming the image, the pull's cause and the fix ({@value #HOST_OVERRIDE})
	 */
	public static void requireHostAddress(DockerClient docker, Function<String, String> environment, Duration pullTimeout) {
		String override = environment.apply(HOST_OVERRIDE);
		if (override != null && !override.isBlank() || !java.nio.file.Files.exists(java.nio.file.Path.of("/.dockerenv"))) {
			return;
		}
		String scheme = DockerClientFactory.instance().getTransportConfig().getDockerHost().getScheme();
		if (!"unix".equals(scheme) && !"npipe".equals(scheme)) {
			return;
		}
		boolean bridgeGateway = docker.inspectNetworkCmd()
				.withNetworkId("bridge")
				.exec()
				.getIpam()
				.getConfig()
				.stream()
				.anyMatch(config -> config.getGateway() != null);
		if (bridgeGateway) {
			return;
		}
		require(docker, TINY_IMAGE, pullTimeout,
				"Testcontainers finds the Docker host's address from inside this container by running its tiny image",
				"export " + HOST_OVERRIDE + "=localhost when the Docker engine runs in this same container (its published ports "
						+ "are on localhost), else the address where it publishes them");
	}
}
