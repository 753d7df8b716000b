package dev.fakbattery.core.workload;

import java.util.SplittableRandom;

/**
 * Seeded text of a given length in words: common English words that the BPE tokenizers of the served models
 * (Qwen, Llama, GLM) each read as one token after a space, so {@code n} words are close to {@code n} prompt tokens;
 * the engine's {@code usage} tells how close (the drift every artifact reports).
 *
 * @since 0.3
 */
final class Words {

	private static final String[] WORDS = { "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be",
		"by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they", "you",
		"were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when", "will", "would",
		"who", "so", "no", "time", "day", "year", "way", "man", "world", "life", "hand", "part", "place", "case", "week",
		"work", "system", "number", "night", "point", "home", "water", "room", "area", "money", "story", "fact", "month",
		"book", "word", "house", "city", "name", "team", "idea", "body", "door", "car", "line", "end", "side", "kind",
		"head", "group", "problem", "state", "school", "country", "family", "student", "company", "program", "question" };

	private Words() {
	}

	/** {@code count} words drawn by {@code random}, separated by single spaces. */
	static String text(SplittableRandom random, int count) {
		StringBuilder text = new StringBuilder(count * 6);
		for (int i = 0; i < count; i++) {
			if (i > 0) {
				text.append(' ');
			}
			text.append(WORDS[random.nextInt(WORDS.length)]);
		}
		return text.toString();
	}

	/** Whitespace-separated words in {@code text}. */
	static int count(String text) {
		String stripped = text.strip();
		return stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
	}

	/** A length drawn uniformly from {@code [mean (1 - ratio), mean (1 + ratio)]}, at least 1 (vLLM's random dataset). */
	static int length(SplittableRandom random, int mean, double ratio) {
		int lo = Math.max(1, (int) Math.floor(mean * (1 - ratio)));
		int hi = Math.max(lo, (int) Math.ceil(mean * (1 + ratio)));
		return lo == hi ? lo : lo + random.nextInt(hi - lo + 1);
	}

	/** The generator of conversation {@code index} under {@code seed}. */
	static SplittableRandom random(long seed, int index) {
		return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL);
	}
}
