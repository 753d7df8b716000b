package dev.fakbattery.wire;

import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed view over one JSON object of the wire. The object is the single source of truth: accessors read it,
 * {@link #node()} hands it back unchanged (unknown keys, explicit nulls and key order included), so parse then
 * {@link #toJson()} gives back the same tree. A view does not copy; changing {@link #node()} changes what it reads.
 *
 * @since 0.1
 */
public abstract class WireView {

	private final ObjectNode node;

	WireView(ObjectNode node) {
		this.node = Objects.requireNonNull(node, "node");
	}

	/** The exact tree this view reads. */
	public final ObjectNode node() {
		return node;
	}

	/** The tree as compact JSON, the form the engines send. */
	public final String toJson() {
		return WireJson.write(node);
	}

	/** Whether the key is present, with any value including {@code null} (accessors cannot tell those apart). */
	public final boolean has(String field) {
		return node.has(field);
	}

	@Override
	public final boolean equals(Object other) {
		return other != null && other.getClass() == getClass() && ((WireView) other).node.equals(node);
	}

	@Override
	public final int hashCode() {
		return node.hashCode();
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + toJson();
	}
}
