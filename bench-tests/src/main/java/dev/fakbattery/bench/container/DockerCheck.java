package dev.fakbattery.bench.container;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine is reachable. Asked before any container is created, so that a machine
 * without Docker gets the profile's outcome (skip or failure) with its reason, not a Testcontainers
 * stack trace.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface DockerCheck {

	boolean available();

	/**
	 * Testcontainers' own discovery ({@code DOCKER_HOST}, the socket, {@code ~/.testcontainers.properties}): the
	 * first strategy that answers a ping. Nothing is started: {@code DockerClientFactory.isDockerAvailable()} would
	 * also start the reaper (Ryuk), which on a machine without a registry waits minutes for an image it cannot pull.
	 */
	static DockerCheck testcontainers() {
		return () -> {
			try {
				DockerClientFactory.instance().getTransportConfig();
				return true;
			}
			catch (IllegalStateException noValidStrategy) {
				return false;
			}
		};
	}
}
