package dev.fakbattery.bench.llamacpp;

/**
 * The tensor element types this writer produces ({@code ggml_type} ids from ggml's {@code ggml.h}):
 * 32-bit floats for norms, 16-bit floats for weight matrices.
 *
 * @since 0.2
 */
public enum GgmlType {

	F32(0, 4), F16(1, 2);

	private final int id;

	private final int bytes;

	GgmlType(int id, int bytes) {
		this.id = id;
		this.bytes = bytes;
	}

	/** The id in the file. */
	public int id() {
		return id;
	}

	/** Bytes per element. */
	public int bytes() {
		return bytes;
	}
}
