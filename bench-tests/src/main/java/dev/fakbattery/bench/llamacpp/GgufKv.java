package dev.fakbattery.bench.llamacpp;

import java.util.Objects;

/**
 * One metadata key/value pair of a GGUF file. Values are boxed by width, signed or not:
 * {@code UINT8}/{@code INT8} as {@link Byte}, 16 bits as {@link Short}, 32 bits as {@link Integer},
 * 64 bits as {@link Long}, {@link Float}, {@link Double}, {@link Boolean}, {@link String}, and
 * {@link GgufArray}.
 *
 * @param key the key, for example {@code general.architecture}
 * @param type the value type
 * @param value the value, boxed as above
 * @since 0.2
 */
public record GgufKv(String key, GgufType type, Object value) {

	public GgufKv {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(value, "value");
		Class<?> expected = switch (type) {
			case UINT8, INT8 -> Byte.class;
			case UINT16, INT16 -> Short.class;
			case UINT32, INT32 -> Integer.class;
			case UINT64, INT64 -> Long.class;
			case FLOAT32 -> Float.class;
			case FLOAT64 -> Double.class;
			case BOOL -> Boolean.class;
			case STRING -> String.class;
			case ARRAY -> GgufArray.class;
		};
		if (!expected.isInstance(value)) {
			throw new IllegalArgumentException("GGUF key " + key + " of type " + type + " needs a " + expected.getSimpleName()
					+ ", got " + value.getClass().getSimpleName());
		}
	}

	public static GgufKv string(String key, String value) {
		return new GgufKv(key, GgufType.STRING, value);
	}

	public static GgufKv uint32(String key, int value) {
		return new GgufKv(key, GgufType.UINT32, value);
	}

	public static GgufKv float32(String key, float value) {
		return new GgufKv(key, GgufType.FLOAT32, value);
	}

	public static GgufKv bool(String key, boolean value) {
		return new GgufKv(key, GgufType.BOOL, value);
	}

	/** An integer value as a long: unsigned types read unsigned. */
	public long asLong() {
		return switch (type) {
			case UINT8 -> Byte.toUnsignedLong((Byte) value);
			case UINT16 -> Short.toUnsignedLong((Short) value);
			case UINT32 -> Integer.toUnsignedLong((Integer) value);
			case INT8, INT16, INT32, INT64, UINT64 -> ((Number) value).longValue();
			default -> throw new IllegalStateException("GGUF key " + key + " is a " + type + ", not an integer");
		};
	}
}
