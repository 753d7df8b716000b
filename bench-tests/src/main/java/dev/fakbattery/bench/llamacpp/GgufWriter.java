package dev.fakbattery.bench.llamacpp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import dev.fakbattery.core.ArtifactFiles;

/**
 * Writes a GGUF version 3 file: magic, counts, metadata, tensor entries with offsets, padding to the
 * alignment, then each tensor's data padded to the alignment (zero bytes), all little endian. The file
 * is written atomically (a temp file moved over the target), so a crash never leaves half a model.
 *
 * <pre>
 * GgufWriter.write(out, List.of(GgufKv.string("general.architecture", "llama"), ...),
 *         List.of(new GgufWriter.Tensor("output_norm.weight", List.of(64L), GgmlType.F32, b -&gt; ...)));
 * </pre>
 *
 * @since 0.2
 */
public final class GgufWriter {

	/** The format version written. */
	public static final int VERSION = 3;

	/** Fills a tensor's bytes: {@code data} is little endian, sized to the tensor, and must be filled to its limit. */
	@FunctionalInterface
	public interface Fill {
		void into(ByteBuffer data);
	}

	/**
	 * A tensor to write.
	 *
	 * @param name its name
	 * @param dims its dimensions, innermost first
	 * @param type its element type
	 * @param fill writes its elements
	 */
	public record Tensor(String name, List<Long> dims, GgmlType type, Fill fill) {

		public Tensor {
			Objects.requireNonNull(name, "name");
			dims = List.copyOf(dims);
			Objects.requireNonNull(type, "type");
			Objects.requireNonNull(fill, "fill");
		}

		long bytes() {
			long n = type.bytes();
			for (long d : dims) {
				n = Math.multiplyExact(n, d);
			}
			return n;
		}
	}

	private GgufWriter() {
	}

	/**
	 * Writes {@code metadata} and {@code tensors} to {@code target}; the alignment is
	 * {@code general.alignment} when present, else {@value GgufHeader#DEFAULT_ALIGNMENT}.
	 *
	 * @throws java.io.UncheckedIOException when the file cannot be written
	 * @throws IllegalStateException when a fill leaves its tensor short
	 */
	public static Path write(Path target, List<GgufKv> metadata, List<Tensor> tensors) {
		int alignment = metadata.stream()
				.filter(kv -> kv.key().equals("general.alignment"))
				.findFirst()
				.map(kv -> (int) kv.asLong())
				.orElse(GgufHeader.DEFAULT_ALIGNMENT);
		return ArtifactFiles.write(target, raw -> {
			Le out = new Le(new BufferedOutputStream(raw, 1 << 20));
			out.u32(GgufReader.MAGIC);
			out.u32(VERSION);
			out.u64(tensors.size());
			out.u64(metadata.size());
			for (GgufKv kv : metadata) {
				out.string(kv.key());
				out.u32(kv.type().id());
				out.value(kv.type(), kv.value());
			}
			long offset = 0;
			for (Tensor tensor : tensors) {
				out.string(tensor.name());
				out.u32(tensor.dims().size());
				for (long d : tensor.dims()) {
					out.u64(d);
				}
				out.u32(tensor.type().id());
				out.u64(offset);
				offset = padded(offset + tensor.bytes(), alignment);
			}
			out.zeros(padded(out.written, alignment) - out.written);
			for (Tensor tensor : tensors) {
				out.raw(data(tensor));
				out.zeros(padded(tensor.bytes(), alignment) - tensor.bytes());
			}
			out.flush();
		});
	}

	/** {@code position} rounded up to a multiple of {@code alignment}. */
	static long padded(long position, int alignment) {
		return (position + alignment - 1) / alignment * alignment;
	}

	private static byte[] data(Tensor tensor) {
		ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(tensor.bytes())).order(ByteOrder.LITTLE_ENDIAN);
		tensor.fill().into(data);
		if (data.position() != data.limit()) {
			throw new IllegalStateException("tensor " + tensor.name() + " was filled with " + data.position() + " of "
					+ data.limit() + " bytes");
		}
		return data.array();
	}

	/** A little-endian output that counts what it wrote. */
	private static final class Le {

		private final OutputStream out;

		private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

		long written;

		Le(OutputStream out) {
			this.out = out;
		}

		void u32(int v) throws IOException {
			scratch.clear();
			raw(scratch.putInt(v).array(), 4);
		}

		void u64(long v) throws IOException {
			scratch.clear();
			raw(scratch.putLong(v).array(), 8);
		}

		void string(String s) throws IOException {
			byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
			u64(bytes.length);
			raw(bytes);
		}

		void value(GgufType type, Object value) throws IOException {
			scratch.clear();
			switch (type) {
				case UINT8, INT8 -> raw(new byte[]{ (Byte) value }, 1);
				case BOOL -> raw(new byte[]{ (byte) ((Boolean) value ? 1 : 0) }, 1);
				case UINT16, INT16 -> raw(scratch.putShort((Short) value).array(), 2);
				case UINT32, INT32 -> u32((Integer) value);
				case UINT64, INT64 -> u64((Long) value);
				case FLOAT32 -> raw(scratch.putFloat((Float) value).array(), 4);
				case FLOAT64 -> raw(scratch.putDouble((Double) value).array(), 8);
				case STRING -> string((String) value);
				case ARRAY -> array((GgufArray) value);
			}
		}

		private void array(GgufArray array) throws IOException {
			u32(array.elementType().id());
			u64(array.values().size());
			for (Object v : array.values()) {
				value(array.elementType(), v);
			}
		}

		void zeros(long count) throws IOException {
			raw(new byte[Math.toIntExact(count)]);
		}

		void raw(byte[] bytes) throws IOException {
			raw(bytes, bytes.length);
		}

		void raw(byte[] bytes, int length) throws IOException {
			out.write(bytes, 0, length);
			written += length;
		}

		void flush() throws IOException {
			out.flush();
		}
	}
}
