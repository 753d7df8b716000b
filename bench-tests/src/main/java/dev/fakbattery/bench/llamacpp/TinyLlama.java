package dev.fakbattery.bench.llamacpp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A tiny llama-architecture model for llama.cpp, written as GGUF: the tokenizer of a vocab-only GGUF
 * (llama.cpp ships {@code models/ggml-vocab-qwen2.gguf}), an optional chat template, and weights that
 * are either random and seeded (the model babbles until {@code max_tokens}: long, steady streams) or
 * scripted ({@link ScriptedWeights}: it answers one fixed text). No weights are downloaded; the same
 * spec and vocabulary always give the same bytes.
 *
 * <pre>
 * TinyLlama.write(Path.of("ggml-vocab-qwen2.gguf"), Optional.of(template), Optional.of("&lt;|im_end|&gt;"),
 *         TinyLlama.Spec.random(1), Path.of("target/llamacpp/tiny-random-llama.gguf"));
 * </pre>
 *
 * @since 0.2
 */
public final class TinyLlama {

	/**
	 * The model's shape and weights.
	 *
	 * @param name {@code general.name}
	 * @param embd embedding length
	 * @param layers transformer blocks
	 * @param heads attention heads
	 * @param kvHeads key/value heads
	 * @param ff feed-forward length
	 * @param ctx training context length
	 * @param seed random seed of the weights
	 * @param script the text a scripted model answers; empty for random weights
	 */
	public record Spec(String name, int embd, int layers, int heads, int kvHeads, int ff, int ctx, long seed,
			Optional<String> script) {

		public Spec {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(script, "script");
			if (embd <= 0 || layers <= 0 || heads <= 0 || kvHeads <= 0 || ff <= 0 || ctx <= 0 || embd % heads != 0
					|| heads % kvHeads != 0) {
				throw new IllegalArgumentException("bad tiny llama shape: embd " + embd + ", layers " + layers + ", heads "
						+ heads + "/" + kvHeads + ", ff " + ff + ", ctx " + ctx
						+ " (positive, embd divisible by heads, heads by kv heads)");
			}
		}

		/** Random seeded weights: embedding 64, 2 layers, 4 heads (2 for keys/values), feed-forward 128, context 4096. */
		public static Spec random(long seed) {
			return new Spec("tiny-random-llama", 64, 2, 4, 2, 128, 4096, seed, Optional.empty());
		}

		/** Scripted weights that answer {@code text}: the random shape with one layer. */
		public static Spec scripted(String text) {
			return new Spec("tiny-scripted-llama", 64, 1, 4, 2, 128, 4096, 0, Optional.of(text));
		}

		int headDim() {
			return embd / heads;
		}
	}

	private TinyLlama() {
	}

	/**
	 * Writes the model to {@code out}.
	 *
	 * @param vocab a vocab-only GGUF whose {@code tokenizer.*} metadata is copied
	 * @param template a Jinja chat template replacing the vocabulary's, if any
	 * @param eosToken the token that ends a turn (for example {@code <|im_end|>}), if the vocabulary's should be replaced
	 * @return {@code out}
	 * @throws IOException when the vocabulary or template cannot be read
	 * @throws IllegalArgumentException when the vocabulary lacks tokens, the EOS token is not in it, or a script cannot be tokenized
	 */
	public static Path write(Path vocab, Optional<Path> template, Optional<String> eosToken, Spec spec, Path out) throws IOException {
		List<GgufKv> tokenizer = tokenizer(GgufReader.read(vocab), template, eosToken);
		List<String> tokens = tokens(tokenizer);
		List<GgufKv> metadata = new ArrayList<>(model(spec, tokens.size()));
		metadata.addAll(tokenizer);
		Optional<ScriptedWeights> script = spec.script()
				.map(text -> ScriptedWeights.plan(tokens, text, spec.embd(),
						(int) find(tokenizer, "tokenizer.ggml.eos_token_id").asLong()));
		return GgufWriter.write(out, metadata, tensors(spec, tokens.size(), script));
	}

	static List<GgufKv> tokenizer(GgufHeader vocab, Optional<Path> template, Optional<String> eosToken) throws IOException {
		List<GgufKv> kept = new ArrayList<>(vocab.metadata().stream().filter(kv -> kv.key().startsWith("tokenizer.")).toList());
		List<String> tokens = tokens(kept);
		if (template.isPresent()) {
			replace(kept, GgufKv.string("tokenizer.chat_template", Files.readString(template.get())));
		}
		if (eosToken.isPresent()) {
			int eos = tokens.indexOf(eosToken.get());
			if (eos < 0) {
				throw new IllegalArgumentException("EOS token " + eosToken.get() + " is not in the vocabulary");
			}
			replace(kept, GgufKv.uint32("tokenizer.ggml.eos_token_id", eos));
		}
		replace(kept, GgufKv.bool("tokenizer.ggml.add_bos_token", false));
		return kept;
	}

	private static List<GgufKv> model(Spec spec, int vocabSize) {
		String description = spec.script()
				.map(text -> "fak-battery tiny llama: scripted weights that answer \"" + text + "\"")
				.orElse("fak-battery tiny llama: random weights, seed " + spec.seed() + ", not a trained model");
		return List.of(GgufKv.string("general.architecture", "llama"), GgufKv.string("general.name", spec.name()),
				GgufKv.string("general.description", description), GgufKv.uint32("general.alignment", 32),
				GgufKv.uint32("general.file_type", 1), GgufKv.uint32("llama.vocab_size", vocabSize),
				GgufKv.uint32("llama.context_length", spec.ctx()), GgufKv.uint32("llama.embedding_length", spec.embd()),
				GgufKv.uint32("llama.block_count", spec.layers()), GgufKv.uint32("llama.feed_forward_length", spec.ff()),
				GgufKv.uint32("llama.attention.head_count", spec.heads()),
				GgufKv.uint32("llama.attention.head_count_kv", spec.kvHeads()),
				GgufKv.uint32("llama.rope.dimension_count", spec.headDim()), GgufKv.float32("llama.rope.freq_base", 10000f),
				GgufKv.float32("llama.attention.layer_norm_rms_epsilon", 1e-5f));
	}

	private static List<GgufWriter.Tensor> tensors(Spec spec, int vocabSize, Optional<ScriptedWeights> script) {
		long e = spec.embd();
		long q = (long) spec.headDim() * spec.heads();
		long kv = (long) spec.headDim() * spec.kvHeads();
		List<GgufWriter.Tensor> tensors = new ArrayList<>();
		tensors.add(weight(spec, script, "token_embd.weight", e, vocabSize));
		tensors.add(norm("output_norm.weight", e));
		if (script.isPresent()) {
			tensors.add(weight(spec, script, "output.weight", e, vocabSize));
		}
		for (int i = 0; i < spec.layers(); i++) {
			String p = "blk." + i + ".";
			tensors.add(norm(p + "attn_norm.weight", e));
			tensors.add(weight(spec, script, p + "attn_q.weight", e, q));
			tensors.add(weight(spec, script, p + "attn_k.weight", e, kv));
			tensors.add(weight(spec, script, p + "attn_v.weight", e, kv));
			tensors.add(weight(spec, script, p + "attn_output.weight", q, e));
			tensors.add(norm(p + "ffn_norm.weight", e));
			tensors.add(weight(spec, script, p + "ffn_gate.weight", e, spec.ff()));
			tensors.add(weight(spec, script, p + "ffn_down.weight", spec.ff(), e));
			tensors.add(weight(spec, script, p + "ffn_up.weight", e, spec.ff()));
		}
		return tensors;
	}

	private static GgufWriter.Tensor norm(String name, long length) {
		return new GgufWriter.Tensor(name, List.of(length), GgmlType.F32, data -> {
			while (data.hasRemaining()) {
				data.putFloat(1.0f);
			}
		});
	}

	private static GgufWriter.Tensor weight(Spec spec, Optional<ScriptedWeights> script, String name, long inner, long outer) {
		GgufWriter.Fill fill = script.<GgufWriter.Fill>map(s -> data -> s.fill(name, data, (int) inner, (int) outer))
				.orElse(data -> random(spec.seed(), name, data));
		return new GgufWriter.Tensor(name, List.of(inner, outer), GgmlType.F16, fill);
	}

	/**
	 * Random F16 values with magnitudes in [2^-6, 2^-2] and random signs: exponent field 9 to 12, random
	 * mantissa. Each tensor has its own stream, seeded from the model seed and the tensor name.
	 */
	static void random(long seed, String name, ByteBuffer data) {
		SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + name.hashCode());
		while (data.hasRemaining()) {
			long bits = random.nextLong();
			for (int k = 0; k < 4 && data.hasRemaining(); k++, bits >>>= 16) {
				int b = (int) (bits >>> 8) & 0xFF;
				int high = (b & 0x80) | ((9 + ((b >> 2) & 3)) << 2) | (b & 3);
				data.putShort((short) ((high << 8) | (int) (bits & 0xFF)));
			}
		}
	}

	@SuppressWarnings("unchecked")
	static List<String> tokens(List<GgufKv> tokenizer) {
		GgufKv tokens = find(tokenizer, "tokenizer.ggml.tokens");
		if (!(tokens.value() instanceof GgufArray array) || array.elementType() != GgufType.STRING) {
			throw new IllegalArgumentException("tokenizer.ggml.tokens is not an array of strings");
		}
		return (List<String>) (List<?>) array.values();
	}

	private static GgufKv find(List<GgufKv> kvs, String key) {
		return kvs.stream()
				.filter(kv -> kv.key().equals(key))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("the vocabulary GGUF has no " + key));
	}

	private static void replace(List<GgufKv> kvs, GgufKv kv) {
		kvs.removeIf(existing -> existing.key().equals(kv.key()));
		kvs.add(kv);
	}
}
