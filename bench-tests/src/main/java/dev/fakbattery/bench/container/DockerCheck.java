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

	/** Testcontainers' own discovery ({@code DOCKER_HOST}, the socket, {@code ~/.testcontainers.properties}). */
	static DockerCheck testcontainers() {
		return () -> DockerClientFactory.instance().isDockerAvailable();
	}
}
