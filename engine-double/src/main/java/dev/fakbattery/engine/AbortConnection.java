package dev.fakbattery.engine;

/**
 * Thrown out of a handler to make the HTTP server drop the connection without finishing the response (the
 * {@code abort-after} fault): the server closes a connection whose handler failed mid-response.
 *
 * @since 0.1
 */
final class AbortConnection extends RuntimeException {

	AbortConnection(String message) {
		super(message, null, false, false);
	}
}
