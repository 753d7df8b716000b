package dev.fakbattery.bench.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("tiny llama GGUF")
class TinyLlamaTests {

	static final List<String> PIECES = List.of("<unk>", "Hi", "\u0120there", "\"", "<", "tool", "_call", ">", "</", "\u010a",
			"\u0120", "\u0120\u0120", "{\"", "\u0120{", "x", "<|im_end|>", "<|endoftext|>");

	@TempDir
	Path dir;

	/** A small GPT-2 style vocab-only GGUF, like llama.cpp's models/ggml-vocab-*.gguf. */
	static Path vocab(Path dir) {
		List<Object> types = new ArrayList<>();
		PIECES.forEach(p -> types.add(p.startsWith("<|") ? 3 : 1));
		return GgufWriter.write(dir.resolve("vocab.gguf"), List.of(GgufKv.string("general.architecture", "qwen2"),
				GgufKv.string("tokenizer.ggml.model", "gpt2"),
				new GgufKv("tokenizer.ggml.tokens", GgufType.ARRAY, new GgufArray(GgufType.STRING, List.copyOf(PIECES))),
				new GgufKv("tokenizer.ggml.token_type", GgufType.ARRAY, new GgufArray(GgufType.INT32, types)),
				GgufKv.uint32("tokenizer.ggml.eos_token_id", 16), GgufKv.bool("tokenizer.ggml.add_bos_token", true),
				GgufKv.string("tokenizer.chat_template", "{{ vocab template }}")), List.of());
	}

	Path model(String name, TinyLlama.Spec spec) throws IOException {
		Path template = Files.writeString(dir.resolve("t.jinja"), "{{ messages }}");
		return TinyLlama.write(vocab(dir), Optional.of(template), Optional.of("<|im_end|>"), spec, dir.resolve(name));
	}

	@Test
	@DisplayName("carries the llama shape and the vocabulary's tokenizer, with the given template and EOS")
	void metadata() throws IOException {
		GgufHeader model = GgufReader.read(model("m.gguf", TinyLlama.Spec.random(1)));
		assertThat(model.require("general.architecture").value()).isEqualTo("llama");
		assertThat(model.require("general.description").value())
				.isEqualTo("fak-battery tiny llama: random weights, seed 1, not a trained model");
		assertThat(model.require("llama.vocab_size").asLong()).isEqualTo(PIECES.size());
		assertThat(model.require("llama.embedding_length").asLong()).isEqualTo(64);
		assertThat(model.require("llama.block_count").asLong()).isEqualTo(2);
		assertThat(model.require("llama.attention.head_count").asLong()).isEqualTo(4);
		assertThat(model.require("llama.attention.head_count_kv").asLong()).isEqualTo(2);
		assertThat(model.require("llama.rope.dimension_count").asLong()).isEqualTo(16);
		assertThat(model.require("tokenizer.ggml.model").value()).isEqualTo("gpt2");
		assertThat(TinyLlama.tokens(model.metadata())).isEqualTo(PIECES);
		assertThat(model.require("tokenizer.ggml.eos_token_id").asLong()).isEqualTo(PIECES.indexOf("<|im_end|>"));
		assertThat(model.require("tokenizer.ggml.add_bos_token").value()).isEqualTo(false);
		assertThat(model.require("tokenizer.chat_template").value()).isEqualTo("{{ messages }}");
		assertThat(model.get("general.architecture").stream()).hasSize(1);
		assertThat(model.metadata()).filteredOn(kv -> kv.key().equals("qwen2")).isEmpty();
	}

	@Test
	@DisplayName("has the tensors llama.cpp's llama loader expects, in F16 (weights) and F32 (norms)")
	void tensors() throws IOException {
		GgufHeader model = GgufReader.read(model("m.gguf", TinyLlama.Spec.random(1)));
		long v = PIECES.size();
		assertThat(model.tensors()).hasSize(2 + 2 * 9);
		assertThat(model.tensor("token_embd.weight").orElseThrow().dims()).containsExactly(64L, v);
		assertThat(model.tensor("output_norm.weight").orElseThrow().typeId()).isEqualTo(GgmlType.F32.id());
		assertThat(model.tensor("output.weight")).as("tied to token_embd in the random model").isEmpty();
		assertThat(model.tensor("blk.1.attn_q.weight").orElseThrow().dims()).containsExactly(64L, 64L);
		assertThat(model.tensor("blk.1.attn_k.weight").orElseThrow().dims()).containsExactly(64L, 32L);
		assertThat(model.tensor("blk.1.attn_output.weight").orElseThrow().dims()).containsExactly(64L, 64L);
		assertThat(model.tensor("blk.0.ffn_down.weight").orElseThrow().dims()).containsExactly(128L, 64L);
		assertThat(model.tensor("blk.0.ffn_up.weight").orElseThrow().typeId()).isEqualTo(GgmlType.F16.id());
		assertThat(model.tensors()).allSatisfy(t -> assertThat(t.offset() % 32).isZero());
	}

	@Test
	@DisplayName("is reproducible: the same seed gives the same bytes, another seed other weights")
	void seeded() throws IOException {
		byte[] first = Files.readAllBytes(model("a.gguf", TinyLlama.Spec.random(7)));
		byte[] again = Files.readAllBytes(model("b.gguf", TinyLlama.Spec.random(7)));
		byte[] other = Files.readAllBytes(model("c.gguf", TinyLlama.Spec.random(8)));
		assertThat(again).isEqualTo(first);
		assertThat(other).hasSameSizeAs(first).isNotEqualTo(first);
	}

	@Test
	@DisplayName("random weights have magnitudes in [2^-6, 2^-2] and both signs; norms are 1")
	void weightRange() throws IOException {
		Path file = model("m.gguf", TinyLlama.Spec.random(3));
		GgufHeader model = GgufReader.read(file);
		ByteBuffer w = GgufReader.tensorData(file, model, model.tensor("blk.0.attn_q.weight").orElseThrow(), 2);
		int negative = 0;
		while (w.hasRemaining()) {
			float value = Float.float16ToFloat(w.getShort());
			assertThat(Math.abs(value)).isBetween(0x1p-6f, 0x1p-2f);
			negative += value < 0 ? 1 : 0;
		}
		assertThat(negative).isBetween(64 * 64 / 4, 64 * 64 * 3 / 4);
		ByteBuffer norm = GgufReader.tensorData(file, model, model.tensor("blk.1.ffn_norm.weight").orElseThrow(), 4);
		while (norm.hasRemaining()) {
			assertThat(norm.getFloat()).isEqualTo(1f);
		}
	}

	@Test
	@DisplayName("scripted weights: one-hot classes for the script, successors ranked in output.weight")
	void scripted() throws IOException {
		Path file = model("s.gguf", TinyLlama.Spec.scripted("Hi there"));
		GgufHeader model = GgufReader.read(file);
		assertThat(model.tensors()).hasSize(3 + 9);
		ByteBuffer embd = GgufReader.tensorData(file, model, model.tensor("token_embd.weight").orElseThrow(), 2);
		int hi = PIECES.indexOf("Hi");
		int there = PIECES.indexOf("\u0120there");
		assertThat(Float.float16ToFloat(embd.getShort(2 * (hi * 64 + 1)))).isEqualTo(1f);
		assertThat(Float.float16ToFloat(embd.getShort(2 * (hi * 64)))).isZero();
		assertThat(Float.float16ToFloat(embd.getShort(2 * (PIECES.indexOf("x") * 64)))).as("class 0").isEqualTo(1f);
		ByteBuffer out = GgufReader.tensorData(file, model, model.tensor("output.weight").orElseThrow(), 2);
		assertThat(Float.float16ToFloat(out.getShort(2 * (hi * 64)))).as("class 0 starts the answer").isEqualTo(48f / 8f);
		assertThat(Float.float16ToFloat(out.getShort(2 * (there * 64 + 1)))).as("Hi -> there").isEqualTo(48f / 8f);
		int eos = PIECES.indexOf("<|im_end|>");
		assertThat(Float.float16ToFloat(out.getShort(2 * (eos * 64 + 2)))).as("there -> EOS").isEqualTo(48f / 8f);
		ByteBuffer q = GgufReader.tensorData(file, model, model.tensor("blk.0.attn_q.weight").orElseThrow(), 2);
		while (q.hasRemaining()) {
			assertThat(q.getShort()).isZero();
		}
	}

	@Test
	@DisplayName("a script that repeats a token is refused, naming its tokens")
	void scriptRepeats() {
		assertThatThrownBy(() -> model("r.gguf", TinyLlama.Spec.scripted("HiHi"))).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("a script must not repeat a token nor contain the tokens \" < tool _call >: [Hi, Hi]");
	}

	@Test
	@DisplayName("an EOS token missing from the vocabulary is refused, naming it")
	void missingEos() {
		assertThatThrownBy(() -> TinyLlama.write(vocab(dir), Optional.empty(), Optional.of("<|eot_id|>"), TinyLlama.Spec.random(1),
				dir.resolve("x.gguf"))).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("EOS token <|eot_id|> is not in the vocabulary");
	}
}
