package dev.fakbattery.bench.llamacpp;

/**
 * The metadata value types of the GGUF format (version 3), with their ids as written in the file
 * ({@code gguf_type} in ggml's {@code gguf.h}). Unsigned values are kept bit for bit in the Java type
 * of the same width, so a read value writes back identically.
 *
 * @since 0.2
 */
public enum GgufType {

	UINT8(0, 1),
	INT8(1, 1),
	UINT16(2, 2),
	INT16(3, 2),
	UINT32(4, 4),
	INT32(5, 4),
	FLOAT32(6, 4),
	BOOL(7, 1),
	STRING(8, -1),
	ARRAY(9, -1),
	UINT64(10, 8),
	INT64(11, 8),
	FLOAT64(12, 8);

	private final int id;

	private final int size;

	GgufType(int id, int size) {
		this.id = id;
		this.size = size;
	}

	/** The id in the file. */
	public int id() {
		return id;
	}

	/** Bytes of one value; -1 for {@link #STRING} and {@link #ARRAY}, whose size depends on the value. */
	public int size() {
		return size;
	}

	/**
	 * The type with {@code id}.
	 *
	 * @throws IllegalArgumentException naming the id, for a file this reader does not understand
	 */
	public static GgufType of(int id) {
		for (GgufType type : values()) {
			if (type.id == id) {
				return type;
			}
		}
		throw new IllegalArgumentException("unknown GGUF value type " + id + " (known: 0 to 12)");
	}
}
