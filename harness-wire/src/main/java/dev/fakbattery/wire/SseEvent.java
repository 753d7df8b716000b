package dev.fakbattery.wire;

import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One dispatched server-sent event: its data (several {@code data:} lines joined by {@code \n}), the optional
 * {@code event:} name and last {@code id:}, and what the data is.
 *
 * @since 0.1
 */
public final class SseEvent {

	/** What an event's data is. */
	public enum Kind {
		/** Any other data, normally a {@link ChatChunk}. */
		DATA,
		/** {@code data: [DONE]}, the last event of a well-formed stream (also after an error frame). */
		DONE,
		/** An in-stream error frame, {@code data: {"error": {...}}}, sent on HTTP 200. */
		ERROR
	}

	static final String DONE_DATA = "[DONE]";

	private final Kind kind;

	private final String data;

	private final String event;

	private final String id;

	private final ObjectNode json;

	private SseEvent(Kind kind, String data, String event, String id, ObjectNode json) {
		this.kind = kind;
		this.data = data;
		this.event = event;
		this.id = id;
		this.json = json;
	}

	/** Classifies the data of a dispatched event; {@code event} and {@code id} may be null. */
	static SseEvent of(String data, String event, String id) {
		Objects.requireNonNull(data, "data");
		if (DONE_DATA.equals(data)) {
			return new SseEvent(Kind.DONE, data, event, id, null);
		}
		ObjectNode json = WireJson.read(data).filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast).orElse(null);
		boolean error = json != null && WireError.of(json).isPresent();
		return new SseEvent(error ? Kind.ERROR : Kind.DATA, data, event, id, json);
	}

	public Kind kind() {
		return kind;
	}

	public boolean isDone() {
		return kind == Kind.DONE;
	}

	public boolean isError() {
		return kind == Kind.ERROR;
	}

	/** The data exactly as received, lines joined by {@code \n}. */
	public String data() {
		return data;
	}

	/** The {@code event:} field of this event; neither engine sends one. */
	public Optional<String> event() {
		return Optional.ofNullable(event);
	}

	/** The last {@code id:} seen on the stream so far (SSE's last event id); neither engine sends one. */
	public Optional<String> id() {
		return Optional.ofNullable(id);
	}

	/** The data as a JSON object; empty for {@code [DONE]} and for data that is not one JSON object. */
	public Optional<ObjectNode> json() {
		return Optional.ofNullable(json);
	}

	/** The data as a chunk; a {@link WireFormatException} for {@code [DONE]}, error frames and non-JSON data. */
	public ChatChunk chunk() {
		if (kind != Kind.DATA || json == null) {
			throw new WireFormatException("expected a chat.completion.chunk, got " + kind + " data: " + WireJson.abbreviate(data));
		}
		return ChatChunk.of(json);
	}

	/** The error of an {@link Kind#ERROR} event; a {@link WireFormatException} for any other. */
	public WireError error() {
		if (kind != Kind.ERROR) {
			throw new WireFormatException("expected an error frame, got " + kind + " data: " + WireJson.abbreviate(data));
		}
		return WireError.of(json).orElseThrow();
	}

	@Override
	public String toString() {
		return "SseEvent[" + kind + (event == null ? "" : " event=" + event) + (id == null ? "" : " id=" + id) + "] "
				+ WireJson.abbreviate(data);
	}
}
