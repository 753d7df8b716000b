package dev.fakbattery.wire;

/**
 * The bytes are not the wire shape a reader expected: invalid JSON, a field of the wrong type, a streamed tool-call
 * delta without {@code index}. Thrown, never logged and skipped: a gateway test must fail closed on it.
 *
 * @since 0.1
 */
public class WireFormatException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public WireFormatException(String message) {
		super(message);
	}

	public WireFormatException(String message, Throwable cause) {
		super(message, cause);
	}
}
