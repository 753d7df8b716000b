package dev.fakbattery.bench.llamacpp;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the header of a GGUF file (magic {@code GGUF}, version, metadata, tensor entries), little
 * endian as the format specifies. The tensor data itself is not read: {@link #tensorData} maps one
 * tensor's bytes on demand.
 *
 * <pre>
 * GgufHeader vocab = GgufReader.read(Path.of("llama.cpp/models/ggml-vocab-qwen2.gguf"));
 * vocab.require("tokenizer.ggml.model").value(); // "gpt2"
 * </pre>
 *
 * @since 0.2
 */
public final class GgufReader {

	/** {@code GGUF} read as a little-endian uint32. */
	static final int MAGIC = 0x46554747;

	private GgufReader() {
	}

	/**
	 * The header of {@code file}.
	 *
	 * @throws IOException when the file cannot be read, or is not a GGUF file (the message says why)
	 */
	public static GgufHeader read(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file)) {
			ByteBuffer in = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()).order(ByteOrder.LITTLE_ENDIAN);
			return read(in, file.toString());
		}
	}

	static GgufHeader read(ByteBuffer in, String source) throws IOException {
		try {
			if (in.remaining() < 4 || in.getInt() != MAGIC) {
				throw new IOException("not a GGUF file (no GGUF magic): " + source);
			}
			int version = in.getInt();
			if (version != 2 && version != 3) {
				throw new IOException("GGUF version " + version + " is not supported (2 or 3): " + source);
			}
			long tensorCount = in.getLong();
			long kvCount = in.getLong();
			List<GgufKv> metadata = new ArrayList<>();
			for (long i = 0; i < kvCount; i++) {
				String key = string(in);
				GgufType type = GgufType.of(in.getInt());
				metadata.add(new GgufKv(key, type, value(in, type)));
			}
			List<GgufTensor> tensors = new ArrayList<>();
			for (long i = 0; i < tensorCount; i++) {
				String name = string(in);
				int dimCount = in.getInt();
				List<Long> dims = new ArrayList<>();
				for (int d = 0; d < dimCount; d++) {
					dims.add(in.getLong());
				}
				tensors.add(new GgufTensor(name, dims, in.getInt(), in.getLong()));
			}
			int alignment = metadata.stream()
					.filter(kv -> kv.key().equals("general.alignment"))
					.findFirst()
					.map(kv -> (int) kv.asLong())
					.orElse(GgufHeader.DEFAULT_ALIGNMENT);
			long dataStart = GgufWriter.padded(in.position(), alignment);
			return new GgufHeader(version, metadata, tensors, alignment, dataStart);
		}
		catch (BufferUnderflowException | IllegalArgumentException e) {
			throw new IOException("truncated or malformed GGUF header at byte " + in.position() + ": " + source
					+ (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
		}
	}

	/** The bytes of {@code tensor} in {@code file}, as mapped from the data section. */
	public static ByteBuffer tensorData(Path file, GgufHeader header, GgufTensor tensor, int bytesPerElement) throws IOException {
		try (FileChannel channel = FileChannel.open(file)) {
			return channel.map(FileChannel.MapMode.READ_ONLY, header.dataStart() + tensor.offset(),
					tensor.elements() * bytesPerElement).order(ByteOrder.LITTLE_ENDIAN);
		}
	}

	private static Object value(ByteBuffer in, GgufType type) {
		return switch (type) {
			case UINT8, INT8 -> in.get();
			case UINT16, INT16 -> in.getShort();
			case UINT32, INT32 -> in.getInt();
			case UINT64, INT64 -> in.getLong();
			case FLOAT32 -> in.getFloat();
			case FLOAT64 -> in.getDouble();
			case BOOL -> bool(in.get());
			case STRING -> string(in);
			case ARRAY -> array(in);
		};
	}

	private static GgufArray array(ByteBuffer in) {
		GgufType elementType = GgufType.of(in.getInt());
		long count = in.getLong();
		if (count < 0 || count > in.remaining()) {
			throw new IllegalArgumentException("array of " + count + " elements cannot fit in the file");
		}
		List<Object> values = new ArrayList<>((int) count);
		for (long i = 0; i < count; i++) {
			values.add(value(in, elementType));
		}
		return new GgufArray(elementType, values);
	}

	private static String string(ByteBuffer in) {
		long length = in.getLong();
		if (length < 0 || length > in.remaining()) {
			throw new IllegalArgumentException("string of " + length + " bytes cannot fit in the file");
		}
		byte[] bytes = new byte[(int) length];
		in.get(bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private static boolean bool(byte b) {
		if (b != 0 && b != 1) {
			throw new IllegalArgumentException("bool value " + b + " is neither 0 nor 1");
		}
		return b == 1;
	}
}
