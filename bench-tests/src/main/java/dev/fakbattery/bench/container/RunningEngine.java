package dev.fakbattery.bench.container;

import java.net.URI;

/**
 * A started engine container that answered its health check.
 *
 * @since 0.1
 */
public interface RunningEngine extends AutoCloseable {

	/** {@code http://HOST:<mapped port>/v1}, without a trailing slash. */
	URI baseUrl();

	/** Stops and removes the container; a second call does nothing. */
	@Override
	void close();
}
