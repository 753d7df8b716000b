package dev.fakbattery.bench.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("GGUF writer and reader")
class GgufRoundTripTests {

	@TempDir
	Path dir;

	static final List<GgufKv> EVERY_TYPE = List.of(new GgufKv("u8", GgufType.UINT8, (byte) 0xFE),
			new GgufKv("i8", GgufType.INT8, (byte) -3), new GgufKv("u16", GgufType.UINT16, (short) 0xFFFE),
			new GgufKv("i16", GgufType.INT16, (short) -300), GgufKv.uint32("u32", 0xFFFFFFFE),
			new GgufKv("i32", GgufType.INT32, -70000), GgufKv.float32("f32", 1.5f), GgufKv.bool("bool", true),
			GgufKv.string("str", "h\u00e9llo \u4e16\u754c"), new GgufKv("u64", GgufType.UINT64, -2L),
			new GgufKv("i64", GgufType.INT64, Long.MIN_VALUE), new GgufKv("f64", GgufType.FLOAT64, Math.PI),
			new GgufKv("strings", GgufType.ARRAY, new GgufArray(GgufType.STRING, List.of("a", "", "<|im_end|>"))),
			new GgufKv("ints", GgufType.ARRAY, new GgufArray(GgufType.INT32, List.of(1, -2, 3))),
			new GgufKv("nested", GgufType.ARRAY, new GgufArray(GgufType.ARRAY,
					List.of(new GgufArray(GgufType.BOOL, List.of(true, false)), new GgufArray(GgufType.BOOL, List.of())))));

	static List<GgufWriter.Tensor> twoTensors() {
		return List.of(new GgufWriter.Tensor("norm", List.of(3L), GgmlType.F32, b -> b.putFloat(1f).putFloat(2f).putFloat(3f)),
				new GgufWriter.Tensor("w", List.of(5L, 2L), GgmlType.F16, b -> {
					for (int i = 0; i < 10; i++) {
						b.putShort(Float.floatToFloat16(i / 4f));
					}
				}));
	}

	@Test
	@DisplayName("every metadata type and the tensor data read back as written")
	void roundTrip() throws IOException {
		Path file = GgufWriter.write(dir.resolve("all.gguf"), EVERY_TYPE, twoTensors());
		GgufHeader header = GgufReader.read(file);
		assertThat(header.version()).isEqualTo(3);
		assertThat(header.metadata()).containsExactlyElementsOf(EVERY_TYPE);
		assertThat(header.require("u32").asLong()).isEqualTo(0xFFFFFFFEL);
		assertThat(header.require("u8").asLong()).isEqualTo(0xFE);
		assertThat(header.tensors()).extracting(GgufTensor::name, GgufTensor::dims, GgufTensor::typeId)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("norm", List.of(3L), 0),
						org.assertj.core.groups.Tuple.tuple("w", List.of(5L, 2L), 1));
		ByteBuffer norm = GgufReader.tensorData(file, header, header.tensor("norm").orElseThrow(), 4);
		assertThat(new float[]{ norm.getFloat(), norm.getFloat(), norm.getFloat() }).containsExactly(1f, 2f, 3f);
		ByteBuffer w = GgufReader.tensorData(file, header, header.tensor("w").orElseThrow(), 2);
		assertThat(Float.float16ToFloat(w.getShort(2 * 9))).isEqualTo(9 / 4f);
	}

	@Test
	@DisplayName("the layout follows the GGUF v3 spec: magic, counts, aligned offsets, zero padding")
	void layout() throws IOException {
		Path file = GgufWriter.write(dir.resolve("layout.gguf"), List.of(GgufKv.string("general.name", "x")), twoTensors());
		byte[] bytes = Files.readAllBytes(file);
		ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
		assertThat(new String(bytes, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("GGUF");
		assertThat(in.getInt(4)).isEqualTo(3);
		assertThat(in.getLong(8)).as("tensor count").isEqualTo(2);
		assertThat(in.getLong(16)).as("metadata count").isEqualTo(1);
		GgufHeader header = GgufReader.read(file);
		assertThat(header.alignment()).isEqualTo(32);
		assertThat(header.dataStart() % 32).isZero();
		assertThat(header.tensors()).extracting(GgufTensor::offset).containsExactly(0L, 32L);
		assertThat(bytes).hasSize((int) header.dataStart() + 32 + 32);
		assertThat(Arrays.copyOfRange(bytes, (int) header.dataStart() + 12, (int) header.dataStart() + 32)).containsOnly(0);
		assertThat(Arrays.copyOfRange(bytes, (int) header.dataStart() + 32 + 20, bytes.length)).containsOnly(0);
	}

	@Test
	@DisplayName("general.alignment sets the alignment of the data section and of every tensor")
	void customAlignment() throws IOException {
		Path file = GgufWriter.write(dir.resolve("a64.gguf"), List.of(GgufKv.uint32("general.alignment", 64)), twoTensors());
		GgufHeader header = GgufReader.read(file);
		assertThat(header.alignment()).isEqualTo(64);
		assertThat(header.dataStart() % 64).isZero();
		assertThat(header.tensors()).extracting(GgufTensor::offset).containsExactly(0L, 64L);
		assertThat(Files.size(file)).isEqualTo(header.dataStart() + 128);
	}

	@Test
	@DisplayName("a file without the GGUF magic is refused, naming the file")
	void notGguf() throws IOException {
		Path file = Files.writeString(dir.resolve("x.gguf"), "{\"not\":\"gguf\"}");
		assertThatThrownBy(() -> GgufReader.read(file)).isInstanceOf(IOException.class)
				.hasMessage("not a GGUF file (no GGUF magic): " + file);
	}

	@Test
	@DisplayName("a truncated header is refused with the byte where it broke")
	void truncated() throws IOException {
		byte[] whole = Files.readAllBytes(GgufWriter.write(dir.resolve("t.gguf"), EVERY_TYPE, twoTensors()));
		Path cut = Files.write(dir.resolve("cut.gguf"), Arrays.copyOf(whole, 60));
		assertThatThrownBy(() -> GgufReader.read(cut)).isInstanceOf(IOException.class)
				.hasMessageStartingWith("truncated or malformed GGUF header at byte ")
				.hasMessageContaining(cut.toString());
	}

	@Test
	@DisplayName("a fill that leaves its tensor short fails the write and leaves no file")
	void shortFill() {
		Path target = dir.resolve("short.gguf");
		assertThatThrownBy(() -> GgufWriter.write(target, List.of(),
				List.of(new GgufWriter.Tensor("half", List.of(2L), GgmlType.F32, b -> b.putFloat(1f)))))
				.isInstanceOf(UncheckedIOException.class)
				.hasMessageContaining("tensor half was filled with 4 of 8 bytes");
		assertThat(target).doesNotExist();
	}

	@Test
	@DisplayName("a value that does not match its declared type is refused")
	void typeMismatch() {
		assertThatThrownBy(() -> new GgufKv("k", GgufType.UINT32, 1L)).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("GGUF key k of type UINT32 needs a Integer, got Long");
	}
}
