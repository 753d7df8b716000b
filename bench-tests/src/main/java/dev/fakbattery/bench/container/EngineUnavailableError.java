package dev.fakbattery.bench.container;

import org.opentest4j.AssertionFailedError;

/**
 * A test failure, not a skip: {@code engine.image} is set but the engine cannot run, because no
 * Docker engine is reachable under the {@code gpu} profile (which fails closed) or because the
 * container did not start or become healthy. The message names the cause and the fix.
 *
 * @since 0.1
 */
public final class EngineUnavailableError extends AssertionFailedError {

	private static final long serialVersionUID = 1L;

	public EngineUnavailableError(String message) {
		super(message);
	}

	public EngineUnavailableError(String message, Throwable cause) {
		super(message, cause);
	}
}
