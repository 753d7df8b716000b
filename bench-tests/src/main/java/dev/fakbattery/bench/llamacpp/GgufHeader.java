package dev.fakbattery.bench.llamacpp;

import java.util.List;
import java.util.Optional;

/**
 * What a GGUF file declares before its tensor data: version, metadata and tensor entries, and
 * where the data section starts.
 *
 * @param version the format version (this reader accepts 2 and 3)
 * @param metadata the key/value pairs, in file order
 * @param tensors the tensor entries, in file order
 * @param alignment the data alignment ({@code general.alignment}, else 32)
 * @param dataStart the byte offset of the data section: the end of the header, padded to the alignment
 * @since 0.2
 */
public record GgufHeader(int version, List<GgufKv> metadata, List<GgufTensor> tensors, int alignment, long dataStart) {

	/** The default alignment of tensor data when {@code general.alignment} is absent. */
	public static final int DEFAULT_ALIGNMENT = 32;

	public GgufHeader {
		metadata = List.copyOf(metadata);
		tensors = List.copyOf(tensors);
	}

	/** The pair with {@code key}, if any. */
	public Optional<GgufKv> get(String key) {
		return metadata.stream().filter(kv -> kv.key().equals(key)).findFirst();
	}

	/**
	 * The pair with {@code key}.
	 *
	 * @throws IllegalArgumentException naming the key when it is absent
	 */
	public GgufKv require(String key) {
		return get(key).orElseThrow(() -> new IllegalArgumentException("GGUF metadata has no key " + key));
	}

	/** The tensor named {@code name}, if any. */
	public Optional<GgufTensor> tensor(String name) {
		return tensors.stream().filter(t -> t.name().equals(name)).findFirst();
	}
}
