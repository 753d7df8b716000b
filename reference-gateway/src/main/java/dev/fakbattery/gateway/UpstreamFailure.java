package dev.fakbattery.gateway;

import java.io.IOException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.SseLimitException;
import dev.fakbattery.wire.WireJson;

/**
 * What the client is told when reading the upstream answer failed: a limit the upstream broke is named (504 for a
 * stall past the upstream timeout, 502 for a line, event or answer longer than the gateway holds); any other failure
 * is the caller's fallback message, a 502, whose in-stream frame is {@link OpenAiError#TRUNCATED_FRAME}.
 *
 * @param status the HTTP status of the whole-answer error
 * @param type the OpenAI error type
 * @param message the error message
 * @param limit whether a limit was broken (else the fallback)
 */
record UpstreamFailure(int status, String type, String message, boolean limit) {

	/** The failure {@code cause} stands for, or {@code fallback} (a 502) when it is no broken limit (null too). */
	static UpstreamFailure of(IOException cause, String fallback) {
		if (cause instanceof UpstreamLimitException broken) {
			return new UpstreamFailure(broken.status(), broken.type(), broken.getMessage(), true);
		}
		if (cause instanceof SseLimitException tooLong) {
			return new UpstreamFailure(502, OpenAiError.BAD_GATEWAY, "upstream stream broke the gateway's limit: " + tooLong.getMessage(),
					true);
		}
		return new UpstreamFailure(502, OpenAiError.BAD_GATEWAY, fallback, false);
	}

	/** A 502 with this message, not a broken limit. */
	static UpstreamFailure badGateway(String message) {
		return new UpstreamFailure(502, OpenAiError.BAD_GATEWAY, message, false);
	}

	/** The whole-answer error body, {@code {"error":{"message","type","param","code"}}}. */
	ObjectNode error() {
		return OpenAiError.of(message, type, null, status);
	}

	/** The in-stream error frame's data. */
	String frame() {
		if (!limit) {
			return OpenAiError.TRUNCATED_FRAME;
		}
		ObjectNode frame = OpenAiError.of(message, type, null, status);
		((ObjectNode) frame.get("error")).remove("param");
		return WireJson.write(frame);
	}
}
