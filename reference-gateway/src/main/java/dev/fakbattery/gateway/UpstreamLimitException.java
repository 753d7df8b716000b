package dev.fakbattery.gateway;

import java.io.IOException;

/**
 * Reading the upstream answer broke one of the gateway's limits: the upstream went silent past the upstream timeout
 * (answered 504) or sent more than the gateway holds at once (502). The message is what the client is told.
 */
final class UpstreamLimitException extends IOException {

	private static final long serialVersionUID = 1L;

	private final int status;

	private final String type;

	private UpstreamLimitException(int status, String type, String message) {
		super(message);
		this.status = status;
		this.type = type;
	}

	static UpstreamLimitException stalled(long timeoutMillis) {
		return new UpstreamLimitException(504, OpenAiError.GATEWAY_TIMEOUT,
				"upstream sent nothing for " + timeoutMillis + " ms (the gateway's upstream timeout)");
	}

	static UpstreamLimitException notAnswered(long timeoutMillis) {
		return new UpstreamLimitException(504, OpenAiError.GATEWAY_TIMEOUT,
				"upstream did not answer within " + timeoutMillis + " ms (the gateway's upstream timeout)");
	}

	static UpstreamLimitException tooLarge(String what) {
		return new UpstreamLimitException(502, OpenAiError.BAD_GATEWAY, what);
	}

	int status() {
		return status;
	}

	String type() {
		return type;
	}
}
