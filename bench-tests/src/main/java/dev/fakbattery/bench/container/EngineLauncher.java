package dev.fakbattery.bench.container;

import java.util.Map;

/**
 * Starts the container a spec describes and waits until it is healthy.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface EngineLauncher {

	/**
	 * @param spec the container
	 * @param env its environment (may hold the Hugging Face token: never log it)
	 * @return the healthy engine
	 * @throws RuntimeException when it could not start or did not become healthy in time
	 */
	RunningEngine start(EngineContainerSpec spec, Map<String, String> env);
}
