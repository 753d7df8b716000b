package dev.fakbattery.wire;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON artifact read from disk: present and a JSON object, missing, or unreadable, with the reason.
 * Missing and unreadable are kept apart because a missing artifact is pending while an unreadable
 * one is a failure. The one reader of an artifact file for the gate, the report, pre-produced artifacts and the
 * bench checks; wire text (a body, a chunk) is read with {@link WireJson} instead, which throws on what is not JSON.
 *
 * @param path the file
 * @param state what was found
 * @param root the parsed object when {@link State#OBJECT}, else empty
 * @param detail {@code missing}, the parse error, or {@code ok}
 * @since 0.1
 */
public record JsonDocument(Path path, State state, Optional<JsonNode> root, String detail) {

	/** What reading the file found. */
	public enum State {
		OBJECT, MISSING, UNREADABLE
	}

	public JsonDocument {
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(state, "state");
		Objects.requireNonNull(root, "root");
		Objects.requireNonNull(detail, "detail");
	}

	/** Reads {@code path}; never throws for a missing, unreadable or non-object file. */
	public static JsonDocument read(Path path) {
		JsonNode node;
		try {
			node = Json.MAPPER.readTree(Files.readAllBytes(path));
		}
		catch (NoSuchFileException e) {
			return new JsonDocument(path, State.MISSING, Optional.empty(), "missing");
		}
		catch (IOException e) {
			return new JsonDocument(path, State.UNREADABLE, Optional.empty(), "unreadable: " + firstLine(e.getMessage()));
		}
		if (node == null || !node.isObject()) {
			return new JsonDocument(path, State.UNREADABLE, Optional.empty(), "not a JSON object");
		}
		return new JsonDocument(path, State.OBJECT, Optional.of(node), "ok");
	}

	public boolean isObject() {
		return state == State.OBJECT;
	}

	public boolean isMissing() {
		return state == State.MISSING;
	}

	/** The parsed object; call only when {@link #isObject()}. */
	public JsonNode object() {
		return root.orElseThrow(() -> new IllegalStateException(path + " is " + detail));
	}

	private static String firstLine(String message) {
		if (message == null) {
			return "no detail";
		}
		int newline = message.indexOf('\n');
		return newline < 0 ? message : message.substring(0, newline);
	}
}
