package dev.fakbattery.bench.container;

import java.net.URI;
import java.util.Map;

/**
 * A started engine container that answered its health check.
 *
 * @since 0.1
 */
public interface RunningEngine extends AutoCloseable {

	/** {@code http://HOST:<mapped port>/v1}, without a trailing slash. */
	URI baseUrl();

	/**
	 * What the artifacts' provenance records about it: {@code engine_launcher} ({@code testcontainers}),
	 * {@code engine_image}, {@code engine_image_id} ({@code sha256:...}), {@code engine_container_id},
	 * {@code engine_container_log}, {@code engine_cpuset} (the CPUs Docker gave it, or {@code all}); empty when the
	 * launcher knows none.
	 */
	default Map<String, String> provenance() {
		return Map.of();
	}

	/** Stops and removes the container; a second call does nothing. */
	@Override
	void close();
}
