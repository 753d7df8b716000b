package dev.fakbattery.bench.container;

import java.nio.file.Path;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;

/**
 * Proves that the harness left no container behind: run by bench-tests' {@code verify} phase after the tests' JVM
 * has exited, it lists every container (running or not) with the label {@value TestcontainersEngineLauncher#LABEL}
 * of this checkout, and fails naming them when there is one. Without a Docker engine it says so and passes: then no
 * container can have been started.
 *
 * @since 0.7
 */
public final class ContainerLeftovers {

	private ContainerLeftovers() {
	}

	/** {@code ContainerLeftovers ROOT_DIR}: the checkout whose containers to look for. */
	public static void main(String[] args) {
		if (args.length != 1) {
			throw new IllegalArgumentException("usage: ContainerLeftovers ROOT_DIR");
		}
		String scope = Path.of(args[0]).toAbsolutePath().normalize().toString();
		if (!DockerCheck.testcontainers().available()) {
			System.out.println("[containers] no Docker engine found: no harness container can be left");
			return;
		}
		List<String> left = left(DockerImages.client(), scope);
		if (!left.isEmpty()) {
			throw new IllegalStateException(left.size() + " container(s) of this checkout left after the tests (label "
					+ TestcontainersEngineLauncher.LABEL + "=" + scope + "): " + String.join("; ", left)
					+ ". Fix: docker rm -f them; a JVM killed with SIGKILL leaves its container when its reaper could not run (see the "
					+ "[reaper] lines of the test output) or could not reach the Docker host (TLS)");
		}
		System.out.println("[containers] none left with label " + TestcontainersEngineLauncher.LABEL + "=" + scope);
	}

	/** Each container labelled {@code scope}: id, image and state. */
	static List<String> left(DockerClient docker, String scope) {
		return docker.listContainersCmd()
				.withShowAll(true)
				.withLabelFilter(java.util.Map.of(TestcontainersEngineLauncher.LABEL, scope))
				.exec()
				.stream()
				.map(ContainerLeftovers::describe)
				.toList();
	}

	private static String describe(Container container) {
		return container.getId().substring(0, 12) + " " + container.getImage() + " (" + container.getStatus() + ")";
	}
}
