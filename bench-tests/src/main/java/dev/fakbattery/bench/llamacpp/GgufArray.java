package dev.fakbattery.bench.llamacpp;

import java.util.List;
import java.util.Objects;

/**
 * An array value of GGUF metadata: one element type, then the elements (boxed as {@link GgufKv}
 * describes; arrays of arrays are {@link GgufArray}s).
 *
 * @param elementType the type of every element
 * @param values the elements, in order
 * @since 0.2
 */
public record GgufArray(GgufType elementType, List<Object> values) {

	public GgufArray {
		Objects.requireNonNull(elementType, "elementType");
		values = List.copyOf(values);
	}
}
