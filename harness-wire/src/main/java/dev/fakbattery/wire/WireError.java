package dev.fakbattery.wire;

import java.util.Optional;
import java.util.OptionalInt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error body or in-stream error frame, in any of the shapes the engines use:
 * <ul>
 * <li>{@link Shape#NESTED} {@code {"error":{"message","type","param","code"}}}: vLLM &ge; 0.10.1 bodies, in-stream
 * frames of both engines (SGLang's adds {@code "object":"error"} inside), SGLang {@code /v1/responses};</li>
 * <li>{@link Shape#FLAT} {@code {"object":"error","message","type","param","code"}}: vLLM &le; 0.10.0, SGLang chat;</li>
 * <li>{@link Shape#STRING} {@code {"error":"Unauthorized"}}: a 401 from either.</li>
 * </ul>
 *
 * @since 0.1
 */
public final class WireError extends WireView {

	/** Where the error fields sit. */
	public enum Shape {
		NESTED, FLAT, STRING
	}

	private final Shape shape;

	private WireError(ObjectNode node, Shape shape) {
		super(node);
		this.shape = shape;
	}

	/** The error view of the object, or empty when it is not error-shaped (a chunk, a response). */
	public static Optional<WireError> of(ObjectNode node) {
		JsonNode error = node.get("error");
		if (error != null && error.isObject()) {
			return Optional.of(new WireError(node, Shape.NESTED));
		}
		if (error != null && error.isTextual()) {
			return Optional.of(new WireError(node, Shape.STRING));
		}
		if ("error".equals(node.path("object").textValue())) {
			return Optional.of(new WireError(node, Shape.FLAT));
		}
		return Optional.empty();
	}

	/** Parses an error body; a JSON object that is not error-shaped is a {@link WireFormatException}. */
	public static WireError parse(String json) {
		ObjectNode node = WireJson.readObject(json);
		return of(node).orElseThrow(() -> new WireFormatException("not an error body: " + WireJson.abbreviate(json)));
	}

	public Shape shape() {
		return shape;
	}

	public Optional<String> message() {
		return shape == Shape.STRING ? WireJson.text(node(), "error") : WireJson.text(fields(), "message");
	}

	/** {@code BadRequestError}, {@code NotFoundError}, {@code Bad Request}, {@code INTERNAL_SERVER_ERROR}, ... */
	public Optional<String> type() {
		return shape == Shape.STRING ? Optional.empty() : WireJson.text(fields(), "type");
	}

	public Optional<String> param() {
		return shape == Shape.STRING ? Optional.empty() : WireJson.text(fields(), "param");
	}

	/** The HTTP status the error stands for; in-stream frames arrive on HTTP 200 with this code inside. */
	public OptionalInt code() {
		return shape == Shape.STRING ? OptionalInt.empty() : WireJson.integer(fields(), "code");
	}

	private ObjectNode fields() {
		return shape == Shape.NESTED ? (ObjectNode) node().get("error") : node();
	}
}
