package dev.fakbattery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic answer text: words drawn from a fixed vocabulary by the request's seeded generator, one word per
 * token ({@code "The"}, {@code " engine"}, ...), closing with {@code "."} when the answer ends naturally.
 *
 * @since 0.1
 */
final class Vocabulary {

	private static final String[] WORDS = {
		"the", "engine", "gateway", "token", "stream", "batch", "cache", "prompt", "model", "answer",
		"request", "latency", "queue", "server", "client", "chunk", "usage", "tool", "call", "result",
		"is", "was", "will", "can", "must", "may", "runs", "sends", "keeps", "reads",
		"fast", "slow", "small", "large", "first", "last", "next", "same", "every", "each",
		"and", "or", "but", "then", "so", "of", "to", "in", "on", "with",
		"quietly", "again", "now", "here", "there", "always", "never", "often", "soon", "well",
		"Paris", "river", "stone", "light" };

	private Vocabulary() {
	}

	/**
	 * @param count number of tokens
	 * @param closing whether the last token is the closing {@code "."}
	 */
	static List<String> pieces(SplittableRandom random, int count, boolean closing) {
		List<String> pieces = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			if (closing && i == count - 1 && count > 1) {
				pieces.add(".");
			}
			else {
				String word = WORDS[random.nextInt(WORDS.length)];
				pieces.add(i == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : " " + word);
			}
		}
		return pieces;
	}
}
