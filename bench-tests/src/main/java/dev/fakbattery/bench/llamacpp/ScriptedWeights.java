package dev.fakbattery.bench.llamacpp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Weights that make a one-layer llama model a bigram program: it answers exactly one text, then EOS.
 * Attention and feed-forward weights are zero, so the residual stream is the token embedding; each
 * token of the script (and of the chain {@code " < tool _call >}) has a one-hot embedding class, and
 * {@code output.weight} ranks the successors of each class. When a grammar forbids EOS (llama.cpp's
 * {@code tool_choice: "required"}), the model goes on into a {@code <tool_call>} block, which
 * llama.cpp's parser turns into {@code delta.tool_calls}: a deterministic real engine. Whitespace tokens
 * are discouraged, so generated JSON is compact. The vocabulary must be GPT-2 byte-level BPE (qwen2, llama3).
 *
 * @since 0.2
 */
final class ScriptedWeights {

	private static final float HI = 48f;

	private static final float MID = 36f;

	private final int embd;

	/** token id to embedding class (1..); class 0 is every other token. */
	private final Map<Integer, Integer> classes;

	/** class to ranked successors (token id, logit). */
	private final Map<Integer, List<float[]>> successors;

	private final List<Integer> spaces;

	private final int close;

	private ScriptedWeights(int embd, Map<Integer, Integer> classes, Map<Integer, List<float[]>> successors,
			List<Integer> spaces, int close) {
		this.embd = embd;
		this.classes = classes;
		this.successors = successors;
		this.spaces = spaces;
		this.close = close;
	}

	/**
	 * Plans the weights for {@code text}.
	 *
	 * @throws IllegalArgumentException when the text cannot be tokenized, repeats a token, uses a token of the tool-call
	 *         chain, or is too long for {@code embd} classes
	 */
	static ScriptedWeights plan(List<String> tokens, String text, int embd, int eos) {
		Map<String, Integer> index = new HashMap<>();
		for (int i = 0; i < tokens.size(); i++) {
			index.putIfAbsent(tokens.get(i), i);
		}
		List<Integer> seq = tokenize(index, byteLevel(text.getBytes(StandardCharsets.UTF_8)));
		List<Integer> chain = new ArrayList<>();
		for (String piece : List.of("\"", "<", "tool", "_call", ">")) {
			chain.add(required(index, piece));
		}
		Set<Integer> distinct = new HashSet<>(seq);
		if (distinct.size() != seq.size() || chain.stream().anyMatch(distinct::contains)) {
			throw new IllegalArgumentException("a script must not repeat a token nor contain the tokens \" < tool _call >: "
					+ seq.stream().map(tokens::get).toList());
		}
		if (seq.size() + chain.size() + 1 > embd) {
			throw new IllegalArgumentException("script of " + seq.size() + " tokens is too long for embedding length " + embd);
		}
		Map<Integer, Integer> classes = new LinkedHashMap<>();
		List<Integer> ordered = new ArrayList<>(seq);
		ordered.addAll(chain);
		for (int c = 0; c < ordered.size(); c++) {
			classes.put(ordered.get(c), c + 1);
		}
		Map<Integer, List<float[]>> succ = new LinkedHashMap<>();
		succ.put(0, List.of(step(seq.get(0), HI), step(eos, MID)));
		for (int k = 0; k + 1 < seq.size(); k++) {
			succ.put(classes.get(seq.get(k)), List.of(step(seq.get(k + 1), HI)));
		}
		succ.put(classes.get(seq.get(seq.size() - 1)), List.of(step(eos, HI), step(chain.get(0), MID)));
		for (int k = 0; k + 1 < chain.size(); k++) {
			succ.put(classes.get(chain.get(k)), List.of(step(chain.get(k + 1), HI)));
		}
		succ.put(classes.get(chain.get(chain.size() - 1)),
				List.of(step(eos, HI), step(required(index, byteLevel(new byte[]{ '\n' })), MID)));
		return new ScriptedWeights(embd, classes, succ, spaces(tokens), required(index, "</"));
	}

	/** Fills one tensor: the embedding and output matrices as planned, every other weight zero. */
	void fill(String name, ByteBuffer data, int inner, int outer) {
		short one = Float.floatToFloat16(1f);
		if (name.equals("token_embd.weight")) {
			for (int t = 0; t < outer; t++) {
				data.putShort(2 * (t * inner + classes.getOrDefault(t, 0)), one);
			}
		}
		else if (name.equals("output.weight")) {
			float scale = (float) Math.sqrt(embd);
			short neg = Float.floatToFloat16(-20f / scale);
			for (int u : spaces) {
				row(data, u, inner, neg);
			}
			row(data, close, inner, Float.floatToFloat16(12f / scale));
			successors.forEach((c, list) -> list.forEach(s -> data.putShort(2 * ((int) s[0] * inner + c),
					Float.floatToFloat16(s[1] / scale))));
		}
		data.position(data.limit());
	}

	private static void row(ByteBuffer data, int row, int inner, short value) {
		for (int c = 0; c < inner; c++) {
			data.putShort(2 * (row * inner + c), value);
		}
	}

	private static float[] step(int token, float logit) {
		return new float[]{ token, logit };
	}

	/** Greedy longest match; any segmentation detokenizes to the same text. */
	private static List<Integer> tokenize(Map<String, Integer> index, String encoded) {
		List<Integer> seq = new ArrayList<>();
		int i = 0;
		while (i < encoded.length()) {
			int matched = -1;
			for (int j = Math.min(encoded.length(), i + 32); j > i && matched < 0; j--) {
				Integer id = index.get(encoded.substring(i, j));
				if (id != null) {
					seq.add(id);
					matched = j;
				}
			}
			if (matched < 0) {
				throw new IllegalArgumentException("cannot tokenize the script at: " + encoded.substring(i));
			}
			i = matched;
		}
		if (seq.isEmpty()) {
			throw new IllegalArgumentException("the script is empty");
		}
		return seq;
	}

	/** Whitespace (or whitespace with JSON punctuation) tokens: discouraged so generated JSON is compact. */
	private static List<Integer> spaces(List<String> tokens) {
		String ws = byteLevel(new byte[]{ ' ', '\t', '\n', '\r' });
		String json = ws + "\"{}[]:,";
		List<Integer> ids = new ArrayList<>();
		for (int t = 0; t < tokens.size(); t++) {
			String piece = tokens.get(t);
			if (!piece.isEmpty() && piece.chars().allMatch(ch -> json.indexOf(ch) >= 0)
					&& piece.chars().anyMatch(ch -> ws.indexOf(ch) >= 0)) {
				ids.add(t);
			}
		}
		return ids;
	}

	private static int required(Map<String, Integer> index, String piece) {
		Integer id = index.get(piece);
		if (id == null) {
			throw new IllegalArgumentException("the vocabulary has no token " + piece + " (a GPT-2 byte-level BPE vocabulary is needed)");
		}
		return id;
	}

	/** GPT-2's byte-to-unicode map applied to {@code bytes}: printable bytes map to themselves, the rest above U+0100. */
	static String byteLevel(byte[] bytes) {
		int[] map = new int[256];
		int extra = 0;
		for (int b = 0; b < 256; b++) {
			boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
			map[b] = printable ? b : 256 + extra++;
		}
		StringBuilder out = new StringBuilder();
		for (byte b : bytes) {
			out.append((char) map[b & 0xFF]);
		}
		return out.toString();
	}
}
