package dev.fakbattery.bench.llamacpp;

import java.util.List;
import java.util.Objects;

/**
 * A tensor's entry in a GGUF header.
 *
 * @param name the tensor name, for example {@code blk.0.attn_q.weight}
 * @param dims the dimensions, innermost first ({@code ne[0]} first, as ggml counts them)
 * @param typeId the {@code ggml_type} id of the elements ({@link GgmlType} for the ones this writer produces)
 * @param offset the offset of its data from the start of the data section, a multiple of the alignment
 * @since 0.2
 */
public record GgufTensor(String name, List<Long> dims, int typeId, long offset) {

	public GgufTensor {
		Objects.requireNonNull(name, "name");
		dims = List.copyOf(dims);
	}

	/** The number of elements. */
	public long elements() {
		long n = 1;
		for (long d : dims) {
			n = Math.multiplyExact(n, d);
		}
		return n;
	}
}
